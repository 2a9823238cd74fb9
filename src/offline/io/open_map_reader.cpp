// Reading an open map's verified state (offline/io/open_map_reader.hpp).
#include "offline/io/open_map_reader.hpp"

#include <stdexcept>

#include "kfm/offline/model.hpp"
#include "runtime/map_state.hpp"

namespace kfm::offline {
namespace {

const detail::map_state& open_state(const kfm::map& map) {
    const detail::map_state* state = detail::state_of(map);
    if (state == nullptr) throw std::invalid_argument("the map is not open");
    return *state;
}

}  // namespace

const format::map_meta& map_meta_of(const kfm::map& map) { return *open_state(map).meta; }

std::span<const double> kernel_params_of(const kfm::map& map) {
    const auto params = open_state(map).view<detail::section::kernel_params>();
    return {params.data, static_cast<std::size_t>(params.count)};
}

std::span<const format::feature_segment> segments_of(const kfm::map& map) {
    const auto segments = open_state(map).view<detail::section::segments>();
    return {segments.data, static_cast<std::size_t>(segments.count)};
}

std::span<const std::uint32_t> groups_of(const kfm::map& map) {
    const auto groups = open_state(map).view<detail::section::groups>();
    return {groups.data, static_cast<std::size_t>(groups.count)};
}

bool has_int8_head(const kfm::map& map) { return open_state(map).view<detail::section::head_int8>().present(); }

std::span<const float> preprocess_of(const kfm::map& map) {
    const auto prep = open_state(map).view<detail::section::preprocess>();
    return {prep.data, static_cast<std::size_t>(prep.count)};
}

std::span<const float> head_bias_of(const kfm::map& map) {
    const auto bias = open_state(map).view<detail::section::bias>();
    return {bias.data, static_cast<std::size_t>(bias.count)};
}

format::label_type label_type_of(const kfm::map& map) {
    const auto type = open_state(map).view<detail::section::label_type>();
    return type.present() ? static_cast<format::label_type>(type[0]) : format::label_type::i32;
}

}  // namespace kfm::offline
