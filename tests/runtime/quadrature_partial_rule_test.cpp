// Quadrature with --partial-rule: exactly D outputs (D/2 points, plus the a0 constant), the last rule
// truncated. The truncated map's projections are the first D/2 of the whole-rule map of the same seed (same
// rotations and radii), only the weights change (1/sqrt(P) with the kept P points); the butterfly
// projection computes the last rule whole and keeps its first points, in the single-row and batched paths.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;

namespace {

offline::build_options partial_options(unsigned d, unsigned features, bool haar) {
    offline::build_options o;
    o.method = format::method::quadrature;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = 2.0;
    o.haar_rotations = haar;
    o.partial_rule = true;
    o.seed = 31;
    return o;
}

// phi of `rows` vectors through transform_batch (which takes the batched projection path for >= 4 rows).
std::vector<float> transform_rows(const opened_map& map, const std::vector<float>& x, std::size_t rows) {
    const std::size_t d = map.input_dim(), out = map.output_dim();
    std::vector<float> phi(rows * out);
    std::vector<unsigned char> work(map.view().workspace_bytes(rows));
    REQUIRE(transform_batch(map.view(), x.data(), rows, d, d, phi.data(), out, work.data(), work.size()) ==
            status::ok);
    return phi;
}

}  // namespace

TEST_CASE("partial rule: exactly D outputs; a multiple of the rule size gives the whole-rule bytes") {
    for (bool haar : {false, true}) {
        const unsigned d = 11;
        const opened_map map = map_from_options(partial_options(d, 50, haar));  // 25 points: 2 rules + 1 point
        const auto& m = *map.state().meta;
        CHECK(m.projection_dim == 25);
        CHECK(m.block_count == 3);
        CHECK((m.output_dim == 50 || m.output_dim == 51));  // 2 per point, plus the a0 constant when nonzero
        auto whole = partial_options(d, 48, haar);
        auto partial_multiple = whole;
        whole.partial_rule = false;
        CHECK(offline::serialize(offline::build_map(whole)) == offline::serialize(offline::build_map(partial_multiple)));
    }
    auto odd = partial_options(5, 13, false);
    CHECK_THROWS_WITH_AS(offline::build_map(odd), doctest::Contains("even number of features"), std::invalid_argument);
    odd.features = 4;  // fewer points (2) than one rule (6): one truncated rule
    CHECK(map_from_options(odd).state().meta->projection_dim == 2);
}

TEST_CASE("partial rule: the projections are the whole-rule map's first D/2, single-row and batched") {
    for (bool haar : {false, true}) {
        INFO("haar " << haar);
        const unsigned d = 13, rows = 9;
        const unsigned kept = 33;  // 2 rules of 14 + 5 points
        const opened_map partial = map_from_options(partial_options(d, 2 * kept, haar));
        auto whole_options = partial_options(d, 2 * 3 * (d + 1), haar);
        whole_options.partial_rule = false;
        const opened_map whole = map_from_options(whole_options);
        const unsigned p_whole = whole.state().meta->projection_dim;
        REQUIRE(p_whole == 42);
        REQUIRE(partial.state().meta->projection_dim == kept);
        // The per-point feature weight is 1/sqrt(P): the cos and sin of point i scale by sqrt(P_whole / P).
        const double ratio = std::sqrt(double(p_whole) / kept);
        const auto x = random_points(rows, d, 8, 3.0);
        const auto batch_partial = transform_rows(partial, x, rows), batch_whole = transform_rows(whole, x, rows);
        for (unsigned r = 0; r < rows; ++r) {
            const auto one = transform_one(partial, point_row(x, r, d));
            const float* a = batch_partial.data() + std::size_t(r) * partial.output_dim();
            const float* b = batch_whole.data() + std::size_t(r) * whole.output_dim();
            for (unsigned i = 0; i < kept; ++i) {
                CHECK(a[i] == doctest::Approx(one[i]).epsilon(2e-6).scale(1.0));  // batched == single row (other kernels)
                CHECK(a[kept + i] == doctest::Approx(one[kept + i]).epsilon(2e-6).scale(1.0));
                CHECK(a[i] == doctest::Approx(ratio * b[i]).epsilon(2e-6).scale(1.0));                 // cos
                CHECK(a[kept + i] == doctest::Approx(ratio * b[p_whole + i]).epsilon(2e-6).scale(1.0)); // sin
            }
        }
    }
}
