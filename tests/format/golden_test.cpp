// The checked-in golden file tests/format/golden/dense_small.kfm: the current writer must reproduce it
// byte for byte and the reader must accept it and transform with it. Its values are closed-form (no
// random generator) so the file only changes when the format itself changes. Regenerate deliberately
// with KFM_REGENERATE_GOLDEN=1 after a format change (and update docs/format.md).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <iterator>

#include "common/test_maps.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

const char* golden_path = KFM_SOURCE_DIR "/tests/format/golden/dense_small.kfm";

kfm::offline::map_contents golden_map() {
    constexpr std::uint32_t d = 3, p = 4;
    kfm::offline::map_contents map;
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
    map.sections.push_back(kfm::offline::make_f32_section(fmt::tag::dense, dense));
    map.sections.push_back(kfm::offline::make_segments_section({s}));
    map.sections.push_back(kfm::offline::make_f32_section(fmt::tag::scales, scales));
    map.sections.push_back(kfm::offline::make_f32_section(fmt::tag::weights, weights));
    map.sections.push_back(kfm::offline::make_f32_section(fmt::tag::constants, {0.25f}));
    return map;
}

std::vector<std::uint8_t> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("golden file: the writer reproduces it byte for byte and the reader accepts it") {
    const auto written = kfm::offline::serialize(golden_map());
    if (std::getenv("KFM_REGENERATE_GOLDEN") != nullptr) {
        kfm::offline::write_file_atomic(golden_path, written);
        MESSAGE("regenerated " << golden_path);
    }
    const auto golden = read_file(golden_path);
    REQUIRE_MESSAGE(!golden.empty(), "missing golden file tests/format/golden/dense_small.kfm");
    CHECK(golden.size() == written.size());
    CHECK(golden == written);

    const file_buffer buffer(golden);
    const kfm::map v = open_or_fail(buffer);
    CHECK(kfm::detail::state_of(v)->meta->kernel_sigma == 1.5);
    CHECK(v.output_dim() == 9);
    const std::vector<float> x = {0.5f, -1.0f, 2.0f};
    std::vector<float> out(v.output_dim()), ws(kfm::workspace_bytes(v) / sizeof(float) + 1);
    REQUIRE(kfm::transform(v, x.data(), x.size(), out.data(), out.size(), ws.data(), ws.size() * sizeof(float)) == kfm::status::ok);
    const auto expected = reference_transform(golden_map(), x);
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == doctest::Approx(expected[i]).epsilon(1e-5));
    CHECK(out[8] == 0.25f);
}
