// The checked-in golden file tests/format/golden/dense_small.kfm: the current writer must reproduce it
// byte for byte and the reader must accept it and transform with it. Its values are closed-form (no
// random generator) so the file only changes when the format itself changes. The test always compares;
// after a deliberate format change, rewrite the file with the kfm_regenerate_golden tool (docs/testing.md)
// and update docs/format.md.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <iterator>

#include "common/golden_map.hpp"
#include "common/test_maps.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

std::vector<std::uint8_t> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("golden file: the writer reproduces it byte for byte and the reader accepts it") {
    const auto written = kfm::offline::serialize(golden_map());
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
