// Batch invariance: a row's features are the same bits whether it is mapped alone (transform), in a batch
// of any size at any offset (transform_batch), with a workspace that holds fewer rows than the batch, or
// through predict / predict_batch, for a map of every builder configuration on every ISA this host runs,
// at input scales from 1e-3 up to the finite-output bound |x_i| = 2^20. Compared with memcmp: no tolerance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/isa_coverage.hpp"
#include "common/stats_util.hpp"
#include "common/test_models.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline/model.hpp"

namespace {

const std::vector<kfm::isa> all_isas = kfm::test::known_isas();

// Batch sizes: one row, groups smaller than and around the batched kernels' lane groups (4, 8, 16), one
// pass of transform_batch (64 rows) and one more (a 64-row pass and a 1-row pass).
constexpr std::size_t batch_sizes[] = {1, 2, 3, 7, 64, 65};
constexpr std::size_t row_count = 70;  // every batch size at offsets 0 and 5

// row_count rows of dimension d; row i has norm about scale_i = 1e-3, 1, 1e2, 1e4 (times 0.5 .. 1.5) in
// turn, and every fifth row lies on the finite-output bound (its largest |x_i| is exactly 2^20).
std::vector<float> rows_across_scales(unsigned d) {
    constexpr double norms[] = {1e-3, 1.0, 1e2, 1e4};
    std::vector<float> x(row_count * d);
    for (std::size_t i = 0; i < row_count; ++i) {
        const bool at_bound = i % 5 == 4;
        const std::vector<float> row = kfm::test::random_points(1, d, 900 + i, at_bound ? 1.0 : norms[i % 5]);
        // max_element, not a max loop: GCC 12 for AArch64 crashes vectorising that reduction here
        const std::size_t top = std::size_t(
            std::max_element(row.begin(), row.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }) -
            row.begin());
        const double to_bound = double(kfm::format::max_input_abs) / std::fabs(double(row[top]));
        for (unsigned k = 0; k < d; ++k) {
            double v = at_bound ? double(row[k]) * to_bound : double(row[k]);
            if (at_bound && k == top) v = std::copysign(double(kfm::format::max_input_abs), v);
            x[i * d + k] = static_cast<float>(std::fmax(-double(kfm::format::max_input_abs),
                                                        std::fmin(double(kfm::format::max_input_abs), v)));
        }
    }
    return x;
}

bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

// Rows [first, first + n) through transform_batch with a workspace for `workspace_rows` rows, each against
// the single transform of the same row.
void check_transform_batch(const kfm::map& map, const std::vector<float>& x, const std::vector<float>& single,
                           std::size_t first, std::size_t n, std::size_t workspace_rows) {
    const std::size_t d = map.input_dim(), D = map.output_dim();
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(map, workspace_rows));
    std::vector<float> batch(n * D);
    REQUIRE(kfm::transform_batch(map, &x[first * d], n, d, d, batch.data(), D, ws.data(), ws.size()) == kfm::status::ok);
    for (std::size_t i = 0; i < n; ++i) {
        INFO("batch of " << n << " rows from row " << first << ", workspace for " << workspace_rows
                         << " rows: row " << first + i);
        CHECK(same_bits(&batch[i * D], &single[(first + i) * D], D));
    }
}

// The same for predict_batch against predict: scores and labels.
void check_predict_batch(const kfm::map& model, const std::vector<float>& x, const std::vector<float>& scores,
                         const std::vector<std::int32_t>& labels, std::size_t first, std::size_t n,
                         std::size_t workspace_rows) {
    const std::size_t d = model.input_dim(), k = model.head_outputs();
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(model, workspace_rows));
    std::vector<float> batch_scores(n * k);
    std::vector<std::int32_t> batch_labels(n);
    REQUIRE(kfm::predict_batch(model, &x[first * d], n, d, d, batch_scores.data(), k, batch_labels.data(), ws.data(),
                               ws.size()) == kfm::status::ok);
    for (std::size_t i = 0; i < n; ++i) {
        INFO("predict_batch of " << n << " rows from row " << first << ": row " << first + i);
        CHECK(same_bits(&batch_scores[i * k], &scores[(first + i) * k], k));
        CHECK(batch_labels[i] == labels[first + i]);
    }
}

// Every check above for one map (and its model with a multiclass head) opened on one ISA.
void check_map(const kfm::map& map, const kfm::map& model, const std::vector<float>& x) {
    const std::size_t d = map.input_dim(), D = map.output_dim(), k = model.head_outputs();
    std::vector<float> single(row_count * D), scores(row_count * k);
    std::vector<std::int32_t> labels(row_count);
    std::vector<std::uint8_t> ws1(kfm::workspace_bytes(map, 1)), model_ws1(kfm::workspace_bytes(model, 1));
    for (std::size_t i = 0; i < row_count; ++i) {
        REQUIRE(kfm::transform(map, &x[i * d], d, &single[i * D], D, ws1.data(), ws1.size()) == kfm::status::ok);
        for (std::size_t j = 0; j < D; ++j) REQUIRE(std::isfinite(single[i * D + j]));
        REQUIRE(kfm::predict(model, &x[i * d], d, &scores[i * k], k, &labels[i], model_ws1.data(), model_ws1.size()) ==
                kfm::status::ok);
    }
    for (std::size_t n : batch_sizes) {
        for (std::size_t first : {std::size_t(0), row_count - n}) {
            check_transform_batch(map, x, single, first, n, n);
            check_predict_batch(model, x, scores, labels, first, n, n);
        }
    }
    // Passes of fewer rows than the batch: 65 rows as passes of 5 (and the last of 5), as of 1.
    check_transform_batch(map, x, single, 0, 65, 5);
    check_transform_batch(map, x, single, 0, 65, 1);
    check_predict_batch(model, x, scores, labels, 0, 65, 5);
}

// A map of every builder configuration at input dimension d, and the same map with a multiclass head,
// on every ISA this host runs.
void check_every_map(unsigned d) {
    const std::vector<float> x = rows_across_scales(d);
    for (const auto& config : kfm::test::builder_configs(d, 96)) {
        kfm::offline::map_contents contents = kfm::offline::build_map(config.options);
        const kfm::test::file_buffer map_file(kfm::offline::serialize(contents));
        kfm::offline::add_head(contents, kfm::test::make_test_head(contents, kfm::format::task_kind::multiclass, 3));
        const kfm::test::file_buffer model_file(kfm::offline::serialize(contents));
        for (kfm::isa isa : all_isas) {
            if (!kfm::isa_available(isa)) continue;
            INFO(config.label << " at d = " << d << " on " << std::string(kfm::isa_name(isa)));
            kfm::map map, model;
            REQUIRE(kfm::open(map_file.data(), map_file.size(), &map, isa) == kfm::status::ok);
            REQUIRE(kfm::open(model_file.data(), model_file.size(), &model, isa) == kfm::status::ok);
            check_map(map, model, x);
        }
    }
}

}  // namespace

// d = 13: SSF with n = 32 (its batches run the interleaved FFT), quadrature networks with a ragged tail of
// the in-register levels; d = 40: SSF at n = 32 again with m = 20, quadrature with whole register levels
// and paired levels above them.
TEST_CASE("batch invariance: a row's features and predictions are the same bits alone and in any batch, every method, scale and ISA") {
    kfm::test::print_isa_coverage("runtime");
    check_every_map(13);
    check_every_map(40);
}

// SSF single rows run fft_batch_row where batches interleave (n <= 32 on SIMD ISAs) and fft elsewhere:
// every FFT length from 2 to 4096, two blocks (the second truncated), 21 rows (whole lane groups and a
// remainder on every ISA) with the scales above, an all-zero row (zeros of both signs inside the FFT) and a
// row of one nonzero value.
TEST_CASE("batch invariance: SSF rows are the same bits alone and in a batch for every FFT length n = 2 .. 4096, every ISA") {
    for (unsigned log2_n = 1; log2_n <= 12; ++log2_n) {
        const unsigned n = 1u << log2_n, d = std::min(2 * n - 2, 12u);
        kfm::offline::build_options o;
        o.method = kfm::format::method::ssf;
        o.kernel.kind = kfm::format::kernel::gaussian;
        o.kernel.sigma = 1.5;
        o.input_dim = d;
        o.features = 5 * n;
        o.fft_size = n;
        o.seed = 5;
        const kfm::offline::map_contents contents = kfm::offline::build_map(o);
        REQUIRE(contents.meta.block_size == n);
        REQUIRE(contents.meta.block_count == 2);
        const kfm::test::file_buffer file(kfm::offline::serialize(contents));
        constexpr std::size_t rows = 21;
        std::vector<float> x = rows_across_scales(d);
        x.resize(rows * d);
        std::fill(x.begin() + 19 * d, x.begin() + 20 * d, 0.0f);  // row 19: zero
        std::fill(x.begin() + 20 * d, x.end(), 0.0f);              // row 20: one value
        x[20 * d + d / 2] = -3.0f;
        for (kfm::isa isa : all_isas) {
            if (!kfm::isa_available(isa)) continue;
            INFO("n = " << n << ", d = " << d << " on " << std::string(kfm::isa_name(isa)));
            kfm::map map;
            REQUIRE(kfm::open(file.data(), file.size(), &map, isa) == kfm::status::ok);
            const std::size_t D = map.output_dim();
            std::vector<float> single(rows * D), batch(rows * D);
            std::vector<std::uint8_t> ws1(kfm::workspace_bytes(map, 1)), ws(kfm::workspace_bytes(map, rows));
            for (std::size_t i = 0; i < rows; ++i)
                REQUIRE(kfm::transform(map, &x[i * d], d, &single[i * D], D, ws1.data(), ws1.size()) == kfm::status::ok);
            REQUIRE(kfm::transform_batch(map, x.data(), rows, d, d, batch.data(), D, ws.data(), ws.size()) == kfm::status::ok);
            for (std::size_t i = 0; i < rows; ++i) {
                INFO("row " << i);
                CHECK(same_bits(&batch[i * D], &single[i * D], D));
            }
        }
    }
}
