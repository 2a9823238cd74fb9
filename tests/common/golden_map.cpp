#include "common/golden_map.hpp"

#include <cmath>
#include <vector>

namespace kfm::test {

namespace fmt = kfm::format;

const char* const golden_path = KFM_SOURCE_DIR "/tests/format/golden/dense_small.kfm";

offline::map_contents golden_map() {
    constexpr std::uint32_t d = 3, p = 4;
    offline::map_contents map;
    fmt::map_meta& m = map.meta;
    m.method = static_cast<std::uint32_t>(fmt::method::rff);
    m.kernel = static_cast<std::uint32_t>(fmt::kernel::gaussian);
    m.projection = static_cast<std::uint32_t>(fmt::projection::dense);
    m.flags = fmt::meta_flag_normalize_input;
    m.input_dim = d;
    m.work_dim = d + 1;  // one zero pad
    m.projection_dim = p;
    m.output_dim = 2 * p + 1;
    m.negative_dim = 1;
    m.output_convention = static_cast<std::uint32_t>(fmt::output_convention::paired_cos_sin);
    m.kernel_sigma = 1.5;
    m.seed = 42;
    std::vector<float> dense(p * (d + 1)), scales(p), weights(p);
    for (std::uint32_t i = 0; i < dense.size(); ++i) dense[i] = static_cast<float>(std::sin(0.7 * (i + 1)));
    for (std::uint32_t i = 0; i < p; ++i) {
        scales[i] = 0.5f + 0.25f * static_cast<float>(i);
        weights[i] = 1.0f - 0.125f * static_cast<float>(i);
    }
    fmt::feature_segment s{};
    s.nonlinearity = static_cast<std::uint32_t>(fmt::nonlinearity::cos_sin);
    s.proj_count = p;
    s.arg_count = p;
    s.scale_index = 0;
    s.weight_index = 0;
    s.phase_index = fmt::no_index;
    s.group_index = fmt::no_index;
    s.scale = 1.0f;
    s.weight = 0.5f;
    map.sections.push_back(offline::make_f32_section(fmt::tag::dense, dense));
    map.sections.push_back(offline::make_segments_section({s}));
    map.sections.push_back(offline::make_f32_section(fmt::tag::scales, scales));
    map.sections.push_back(offline::make_f32_section(fmt::tag::weights, weights));
    map.sections.push_back(offline::make_f32_section(fmt::tag::constants, {0.25f}));
    return map;
}

}  // namespace kfm::test
