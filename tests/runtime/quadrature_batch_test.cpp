// The batched butterfly_simplex projection (R = butterfly_simplex_batch_rows rows interleaved, padded groups for
// a remainder of at least R/2 rows, single rows below) on every ISA this host runs: its projections equal
// the single-vector path and the double-precision definition t = V^T (M_k x), and transform_batch equals
// single transforms, for d = 5, 16, 17, 64, 100, 256, 1023, gaussian and arccos maps, and batches of
// 2, R - 1, R, R + 1 and 3R + 5 rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/isa_coverage.hpp"
#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kernels/kernel_table.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/butterfly_angles.hpp"
#include "runtime/map_state.hpp"
#include "runtime/projection.hpp"

using namespace kfm;

namespace {

offline::build_options quadrature_options(unsigned d, format::kernel kind) {
    offline::build_options o;
    o.method = format::method::quadrature;
    o.input_dim = d;
    o.features = 4 * (d + 1);
    o.kernel.kind = kind;
    if (kind == format::kernel::gaussian) o.kernel.sigma = std::sqrt(d / 2.0);
    if (kind == format::kernel::arccos) o.kernel.order = 1;
    o.seed = 5 + d;
    return o;
}

// t = V^T (M_k x) per rule in double, from the map's stored angles and permutations (x is work_dim long).
std::vector<double> reference_projection(const offline::map_contents& contents, const float* x) {
    const unsigned d = contents.meta.work_dim;
    const auto cs = kfm::test::section_values<float>(contents, format::tag::butterfly);
    const auto perm = kfm::test::section_values<std::uint32_t>(contents, format::tag::permutation);
    const std::size_t cs_stride = 2 * (std::size_t(contents.meta.block_size) - 1);
    std::vector<double> t;
    for (unsigned k = 0; k < contents.meta.block_count; ++k) {
        std::vector<double> y(x, x + d);
        offline::butterfly_apply_reference(y.data(), d, cs.data() + k * cs_stride, perm.data() + std::size_t(k) * d,
                                           contents.meta.repeats, false);
        double below = 0.0;
        for (unsigned j = 0; j < d; ++j) {
            const double left = double(d - j);
            const double r = std::sqrt((d + 1.0) / d) / std::sqrt(left * (left + 1.0));
            t.push_back(left * r * y[j] - below);
            below += r * y[j];
        }
        t.push_back(-below);
    }
    return t;
}

// A 64-byte aligned float buffer of n floats (the projections' scratch contract).
struct aligned_floats {
    std::vector<float> storage;
    float* data;
    explicit aligned_floats(std::size_t n) : storage(n + 16) {
        data = reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(storage.data()) + 63) & ~std::uintptr_t(63));
    }
};

double max_abs(const float* a, std::size_t n) {
    double m = 0.0;
    for (std::size_t i = 0; i < n; ++i) m = std::max(m, double(std::fabs(a[i])));
    return m;
}

// The projection stage of `view` on n rows: apply_batch equals apply row by row and the double definition.
void check_projection_batch(const map& view, const offline::map_contents& contents, std::size_t n) {
    const detail::map_state& st = *detail::state_of(view);
    const detail::projection_ops& ops = *st.ops;
    REQUIRE(bool(ops.apply_batch != nullptr));
    const std::size_t d = st.meta->work_dim, p = st.meta->projection_dim;
    const std::vector<float> x = test::random_points(n, unsigned(d), 40 + n, 1.0);
    std::vector<float> t_batch(n * p + 1, -7.0f), t_single(p);
    aligned_floats batch_scratch(ops.batch_scratch_floats(*st.meta, n)), scratch(ops.scratch_floats(*st.meta));
    ops.apply_batch(st, x.data(), n, t_batch.data(), batch_scratch.data);
    CHECK(t_batch[n * p] == -7.0f);  // nothing written past the n rows
    double worst_single = 0.0, worst_reference = 0.0;
    for (std::size_t v = 0; v < n; ++v) {
        const float* row = t_batch.data() + v * p;
        ops.apply(st, x.data() + v * d, t_single.data(), scratch.data);
        const double scale = std::max(1.0, max_abs(t_single.data(), p));
        for (std::size_t j = 0; j < p; ++j)
            worst_single = std::max(worst_single, std::fabs(double(row[j]) - t_single[j]) / scale);
        if (v == 0 || v + 1 == n) {  // the double definition for the first and last rows
            const std::vector<double> ref = reference_projection(contents, x.data() + v * d);
            REQUIRE(ref.size() == p);
            for (std::size_t j = 0; j < p; ++j)
                worst_reference = std::max(worst_reference, std::fabs(double(row[j]) - ref[j]) / scale);
        }
    }
    CHECK(worst_single < 1e-5);
    CHECK(worst_reference < 2e-5);
}

// transform_batch (workspace for all n rows) equals single transforms with the one-row workspace.
void check_transform_batch(const map& view, std::size_t n) {
    const std::size_t d = view.input_dim(), D = view.output_dim();
    const std::vector<float> x = test::random_points(n, unsigned(d), 90 + n, 0.8);
    std::vector<std::uint8_t> ws(workspace_bytes(view, n)), ws1(workspace_bytes(view, 1));
    std::vector<float> batch(n * D), single(D);
    REQUIRE(transform_batch(view, x.data(), n, d, d, batch.data(), D, ws.data(), ws.size()) == status::ok);
    double worst = 0.0, largest = 0.0;
    for (std::size_t v = 0; v < n; ++v) {
        REQUIRE(transform(view, x.data() + v * d, d, single.data(), D, ws1.data(), ws1.size()) == status::ok);
        for (std::size_t j = 0; j < D; ++j) worst = std::max(worst, double(std::fabs(batch[v * D + j] - single[j])));
        largest = std::max(largest, max_abs(single.data(), D));
    }
    CHECK(worst <= 2e-5 * (1.0 + largest));
}

}  // namespace

TEST_CASE("butterfly_simplex batch path equals the single path and the double definition on every ISA") {
    for (format::kernel kind : {format::kernel::gaussian, format::kernel::arccos}) {
        for (unsigned d : {5u, 16u, 17u, 64u, 100u, 256u, 1023u}) {
            const offline::map_contents contents = offline::build_map(quadrature_options(d, kind));
            const test::file_buffer buffer(offline::serialize(contents));
            for (isa i : test::known_isas()) {
                if (!isa_available(i)) continue;
                const map view = test::open_or_fail(buffer, i);
                const std::size_t rows = detail::state_of(view)->kernels->butterfly_simplex_batch_rows;
                CAPTURE(std::string(isa_name(i)));
                CAPTURE(d);
                CAPTURE(int(kind));
                for (std::size_t n : {std::size_t(2), rows - 1, rows, rows + 1, 3 * rows + 5}) {
                    CAPTURE(n);
                    check_projection_batch(view, contents, n);
                    check_transform_batch(view, n);
                }
            }
        }
    }
}
