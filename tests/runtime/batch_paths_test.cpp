// transform_batch equals a loop of single transforms for a map of every method and projection kind, on
// every ISA this host runs, for batch sizes around the batched paths' block sizes, for workspaces that
// hold one row, a few rows or the whole batch, and for rows with gaps (copied to the workspace) or
// contiguous (read in place when pre-processing would only copy them).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/isa_coverage.hpp"
#include "common/stats_util.hpp"
#include "kfm/kfm.hpp"

namespace {

const std::vector<kfm::isa> all_isas = kfm::test::known_isas();

// max_i |a_i - b_i| (b null: max_i |a_i|).
double max_abs_difference(const float* a, const float* b, std::size_t n) {
    double m = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double e = std::fabs(double(a[i]) - (b != nullptr ? double(b[i]) : 0.0));
        if (e > m) m = e;
    }
    return m;
}

// Rows of one transform_batch call must equal single transforms up to float rounding: batched kernels
// may sum in another order. Features are O(1) (weights included), so an absolute bound fits all.
void check_batch_equals_rows(const kfm::map& map, std::size_t n, std::size_t workspace_rows, bool contiguous = false) {
    const std::size_t d = map.input_dim(), D = map.output_dim();
    const std::size_t x_stride = contiguous ? d : d + 1, out_stride = D + 3;
    const std::vector<float> points = kfm::test::random_points(n, static_cast<unsigned>(d), 500 + n, 0.8);
    std::vector<float> xs(n * x_stride, 0.0f);
    for (std::size_t i = 0; i < n; ++i) std::memcpy(&xs[i * x_stride], &points[i * d], d * sizeof(float));

    const std::size_t ws_bytes = kfm::workspace_bytes(map, workspace_rows);
    std::vector<std::uint8_t> ws(ws_bytes);
    std::vector<float> batch(n * out_stride, -9.0f);
    REQUIRE(kfm::transform_batch(map, xs.data(), n, x_stride, d, batch.data(), out_stride, ws.data(), ws_bytes) ==
            kfm::status::ok);

    std::vector<std::uint8_t> ws1(kfm::workspace_bytes(map, 1));
    std::vector<float> single(D);
    double worst = 0.0, largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(kfm::transform(map, &xs[i * x_stride], d, single.data(), D, ws1.data(), ws1.size()) == kfm::status::ok);
        // Two separate max loops: GCC 12 for AArch64 crashes vectorising them fused (vect_transform_reduction).
        worst = std::fmax(worst, max_abs_difference(&batch[i * out_stride], single.data(), D));
        largest = std::fmax(largest, max_abs_difference(single.data(), nullptr, D));
        for (std::size_t j = D; j < out_stride; ++j) REQUIRE(batch[i * out_stride + j] == -9.0f);  // gaps untouched
    }
    INFO("n = " << n << ", workspace rows = " << workspace_rows << ", largest feature " << largest);
    CHECK(worst <= 2e-5 * (1.0 + largest));
}

// Calls check(map) for a map of every builder configuration at input dimension d, opened on every ISA
// this host runs.
template <class Check>
void for_each_map(unsigned d, Check&& check) {
    for (const auto& config : kfm::test::builder_configs(d, 96)) {
        const std::vector<std::uint8_t> bytes = kfm::offline::serialize(kfm::offline::build_map(config.options));
        std::vector<std::uint64_t> buffer((bytes.size() + 7) / 8);
        std::memcpy(buffer.data(), bytes.data(), bytes.size());
        for (kfm::isa isa : all_isas) {
            if (!kfm::isa_available(isa)) continue;
            kfm::map map;
            REQUIRE(kfm::open(buffer.data(), bytes.size(), &map, isa) == kfm::status::ok);
            INFO(config.label << " on " << kfm::isa_name(isa));
            check(map);
        }
    }
}

}  // namespace

TEST_CASE("transform_batch equals single transforms for every method, projection kind and ISA") {
    for_each_map(13, [](const kfm::map& map) {
        for (std::size_t n : {2u, 7u, 8u, 9u, 17u, 70u}) check_batch_equals_rows(map, n, n);
        check_batch_equals_rows(map, 17, 1);
        check_batch_equals_rows(map, 17, 5);
        check_batch_equals_rows(map, 17, 17, true);
    });
}

TEST_CASE("transform_batch equals single transforms on contiguous rows of even dimension (x read in place)") {
    for_each_map(14, [](const kfm::map& map) {  // SSF needs no padding at d = 14
        check_batch_equals_rows(map, 9, 9, true);
        check_batch_equals_rows(map, 70, 70, true);
        check_batch_equals_rows(map, 17, 5, true);
    });
}
