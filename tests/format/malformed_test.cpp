// Structurally valid files (correct checksums) whose meta, segments or section contents are wrong:
// each is rejected with the status that names the problem.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "common/test_maps.hpp"

namespace fmt = kfm::format;
using kfm::status;
using kfm::offline::map_contents;
using namespace kfm::test;

namespace {

status open_map(const map_contents& map) {
    const file_buffer buffer(kfm::offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar);
}

kfm::offline::section* find(map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return &s;
    return nullptr;
}

fmt::feature_segment* first_segment(map_contents& map) {
    return reinterpret_cast<fmt::feature_segment*>(find(map, fmt::tag::segments)->bytes.data());
}

float* f32_data(map_contents& map, std::uint32_t tag) {
    return reinterpret_cast<float*>(find(map, tag)->bytes.data());
}

void remove_section(map_contents& map, std::uint32_t tag) {
    for (auto it = map.sections.begin(); it != map.sections.end(); ++it)
        if (it->tag == tag) {
            map.sections.erase(it);
            return;
        }
}

struct mutation {
    const char* name;
    std::function<void(map_contents&)> apply;
    status expected;
};

map_contents base_map() {
    dense_spec spec;
    spec.scale_array = spec.weight_array = true;
    spec.constants = 2;
    spec.two_segments = true;
    return make_dense_map(spec);
}

}  // namespace

TEST_CASE("the base map used for mutations is valid") { CHECK(open_map(base_map()) == status::ok); }

TEST_CASE("malformed meta, segments and sections are rejected with the right status") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const mutation mutations[] = {
        {"unknown method", [](map_contents& m) { m.meta.method = 99; }, status::unknown_method},
        {"method past the last", [](map_contents& m) { m.meta.method = kfm::format::method_last + 1; },
         status::unknown_method},
        {"unknown kernel", [](map_contents& m) { m.meta.kernel = 0; }, status::unknown_kernel},
        {"unknown projection", [](map_contents& m) { m.meta.projection = 77; }, status::unknown_projection},
        {"unknown meta flag", [](map_contents& m) { m.meta.flags = 1u << 7; }, status::bad_meta},
        {"reserved u32", [](map_contents& m) { m.meta.reserved_u32[1] = 1; }, status::bad_meta},
        {"reserved f64", [](map_contents& m) { m.meta.reserved_f64[3] = 1.0; }, status::bad_meta},
        {"zero input dim", [](map_contents& m) { m.meta.input_dim = 0; }, status::bad_meta},
        {"input beyond work dim", [](map_contents& m) { m.meta.input_dim = m.meta.work_dim + 1; }, status::bad_meta},
        {"huge output dim", [](map_contents& m) { m.meta.output_dim = 0xffffffffu; }, status::bad_meta},
        {"negative dim beyond output", [](map_contents& m) { m.meta.negative_dim = m.meta.output_dim + 1; }, status::bad_meta},
        {"unknown output convention", [](map_contents& m) { m.meta.output_convention = 9; }, status::bad_meta},
        {"NaN sigma", [](map_contents& m) { m.meta.kernel_sigma = std::nan(""); }, status::bad_parameter_value},
        {"zero gaussian sigma", [](map_contents& m) { m.meta.kernel_sigma = 0.0; }, status::bad_parameter_value},
        {"infinite append", [](map_contents& m) { m.meta.input_append = HUGE_VAL; }, status::bad_parameter_value},
        {"append without a slot", [](map_contents& m) { m.meta.input_append = 1.0; }, status::bad_meta},
        {"arccos order 3", [](map_contents& m) { m.meta.kernel = 2; m.meta.kernel_order = 3; }, status::bad_parameter_value},
        {"delta-gaussian without params", [](map_contents& m) { m.meta.kernel = 4; m.meta.mixture_count = 1; }, status::bad_section_size},
        {"delta-gaussian bad sigma", [](map_contents& m) {
             m.meta.kernel = 4; m.meta.mixture_count = 1;
             m.sections.push_back(kfm::offline::make_f64_section(fmt::tag::kernel_params, {1.0, -2.0}));
         }, status::bad_parameter_value},
        {"output dim one too many", [](map_contents& m) { m.meta.output_dim += 1; }, status::index_out_of_range},
        {"output dim one too few", [](map_contents& m) { m.meta.output_dim -= 1; }, status::index_out_of_range},
        {"segment beyond projections", [](map_contents& m) { first_segment(m)->proj_begin = m.meta.projection_dim; }, status::index_out_of_range},
        {"segment gap", [](map_contents& m) { first_segment(m)[1].out_begin += 1; }, status::index_out_of_range},
        {"arg count not a multiple", [](map_contents& m) { first_segment(m)->arg_count += 1; }, status::bad_meta},
        {"zero proj count", [](map_contents& m) { first_segment(m)->proj_count = 0; }, status::bad_meta},
        {"scale index past end", [](map_contents& m) { first_segment(m)[1].scale_index += 1; }, status::index_out_of_range},
        {"weight index huge", [](map_contents& m) { first_segment(m)->weight_index = 0xfffffff0u; }, status::index_out_of_range},
        {"phase on a cos_sin segment", [](map_contents& m) { first_segment(m)->phase_index = 0; }, status::bad_meta},
        {"group on a cos_sin segment", [](map_contents& m) { first_segment(m)->group_index = 0; }, status::bad_meta},
        {"unknown nonlinearity", [](map_contents& m) { first_segment(m)->nonlinearity = 42; }, status::unknown_nonlinearity},
        {"relu in a paired map", [](map_contents& m) { first_segment(m)->nonlinearity = 3; }, status::bad_meta},
        {"reflected cos_sin", [](map_contents& m) { first_segment(m)->flags = fmt::segment_flag_reflect; }, status::bad_meta},
        {"unknown segment flag", [](map_contents& m) { first_segment(m)->flags = 4; }, status::bad_meta},
        {"NaN segment scale", [nan](map_contents& m) { first_segment(m)->scale = nan; }, status::bad_parameter_value},
        {"NaN in dense", [nan](map_contents& m) { f32_data(m, fmt::tag::dense)[3] = nan; }, status::bad_parameter_value},
        {"Inf in scales", [inf](map_contents& m) { f32_data(m, fmt::tag::scales)[0] = inf; }, status::bad_parameter_value},
        {"NaN in weights", [nan](map_contents& m) { f32_data(m, fmt::tag::weights)[1] = nan; }, status::bad_parameter_value},
        {"Inf in constants", [inf](map_contents& m) { f32_data(m, fmt::tag::constants)[1] = -inf; }, status::bad_parameter_value},
        {"dense too short", [](map_contents& m) {
             auto* d = find(m, fmt::tag::dense);
             d->count -= 1;
             d->bytes.resize(d->bytes.size() - 4);
         }, status::bad_section_size},
        {"dense missing", [](map_contents& m) { remove_section(m, fmt::tag::dense); }, status::missing_section},
        {"segments missing", [](map_contents& m) { remove_section(m, fmt::tag::segments); }, status::missing_section},
        {"duplicate section", [](map_contents& m) { m.sections.push_back(*find(m, fmt::tag::scales)); }, status::missing_section},
        {"known tag with the wrong dtype", [](map_contents& m) {
             m.sections.push_back(kfm::offline::make_u32_section(fmt::tag::phases, {1, 2}));
         }, status::bad_section_table},
        {"unknown tag in the current minor", [](map_contents& m) {
             m.sections.push_back(kfm::offline::make_u32_section(fmt::make_tag('Z', 'Z', 'Z', 'Z'), {1}));
         }, status::bad_section_table},
    };
    for (const auto& mu : mutations) {
        auto map = base_map();
        mu.apply(map);
        INFO(mu.name);
        CHECK(open_map(map) == mu.expected);
    }
}

TEST_CASE("product segments: group offsets must be ordered and inside the segment") {
    CHECK(open_map(make_product_map(product_spec{})) == status::ok);
    product_spec decreasing;
    decreasing.group_offsets = {0, 3, 2, 9};
    CHECK(open_map(make_product_map(decreasing)) == status::index_out_of_range);
    product_spec beyond;
    beyond.group_offsets = {0, 3, 10};
    CHECK(open_map(make_product_map(beyond)) == status::index_out_of_range);
    auto short_groups = make_product_map(product_spec{});
    auto* g = find(short_groups, fmt::tag::groups);
    g->count -= 1;
    g->bytes.resize(g->bytes.size() - 4);
    CHECK(open_map(short_groups) == status::index_out_of_range);
}
