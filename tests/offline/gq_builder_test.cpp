// quffka's GQ baseline: the Gauss-Hermite rules against closed forms and the normal moments they must
// integrate exactly, the gq builder's layout (every entry of W a node, each node drawn with its weight's
// frequency), its features against a dense reference computed here from the stored W, the tensor rule's
// convergence to the gaussian kernel with the number of nodes, and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "offline/methods/gq/gauss_hermite.hpp"

using namespace kfm;
using namespace kfm::offline;
using namespace kfm::test;

namespace {

build_options gq_options(unsigned d, unsigned features, unsigned nodes, std::uint64_t seed = 5) {
    build_options o;
    o.method = format::method::gq;
    o.input_dim = d;
    o.features = features;
    o.gq_nodes = nodes;
    o.kernel.sigma = 1.7;
    o.seed = seed;
    return o;
}

// E[g^m] for g ~ N(0, 1): 0 for odd m, (m - 1)!! for even m.
double normal_moment(unsigned m) {
    if (m % 2 == 1) return 0.0;
    double v = 1.0;
    for (int k = int(m) - 1; k > 1; k -= 2) v *= k;
    return v;
}

// The tensor rule of n nodes applied to cos(w.z): prod_j sum_k lambda_k cos(xi_k z_j).
double tensor_rule_cos(const gauss_hermite_rule& rule, const std::vector<double>& z) {
    double product = 1.0;
    for (double zj : z) {
        double s = 0.0;
        for (std::size_t k = 0; k < rule.nodes.size(); ++k) s += rule.weights[k] * std::cos(rule.nodes[k] * zj);
        product *= s;
    }
    return product;
}

}  // namespace

TEST_CASE("gauss_hermite_normal matches the closed forms for 2, 3 and 4 nodes") {
    const auto two = gauss_hermite_normal(2);
    REQUIRE(two.nodes.size() == 2);
    CHECK(two.nodes[0] == doctest::Approx(-1.0).epsilon(1e-15));
    CHECK(two.nodes[1] == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(two.weights[0] == doctest::Approx(0.5).epsilon(1e-15));
    const auto three = gauss_hermite_normal(3);
    REQUIRE(three.nodes.size() == 3);
    CHECK(three.nodes[1] == 0.0);
    CHECK(three.nodes[2] == doctest::Approx(std::sqrt(3.0)).epsilon(1e-15));
    CHECK(three.weights[1] == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
    CHECK(three.weights[2] == doctest::Approx(1.0 / 6.0).epsilon(1e-15));
    const auto four = gauss_hermite_normal(4);
    REQUIRE(four.nodes.size() == 4);
    CHECK(four.nodes[2] == doctest::Approx(std::sqrt(3.0 - std::sqrt(6.0))).epsilon(1e-14));
    CHECK(four.nodes[3] == doctest::Approx(std::sqrt(3.0 + std::sqrt(6.0))).epsilon(1e-14));
    CHECK(four.weights[2] == doctest::Approx((3.0 + std::sqrt(6.0)) / 12.0).epsilon(1e-14));
    CHECK(four.weights[3] == doctest::Approx((3.0 - std::sqrt(6.0)) / 12.0).epsilon(1e-14));
}

TEST_CASE("an n-node rule integrates the normal moments up to degree 2n - 1 exactly, for n up to 64") {
    for (unsigned n = 1; n <= gauss_hermite_max_nodes; ++n) {
        INFO("n = " << n);
        const auto rule = gauss_hermite_normal(n);
        REQUIRE(rule.nodes.size() == n);
        for (std::size_t k = 0; k + 1 < n; ++k) CHECK(rule.nodes[k] < rule.nodes[k + 1]);
        for (std::size_t k = 0; k < n; ++k) CHECK(rule.nodes[k] == -rule.nodes[n - 1 - k]);
        // Degrees up to 2n - 1, capped at 12 (higher moments of the wide rules lose digits to cancellation).
        for (unsigned m = 0; m <= 2 * n - 1 && m <= 12; ++m) {
            double s = 0.0;
            for (std::size_t k = 0; k < n; ++k) s += rule.weights[k] * std::pow(rule.nodes[k], double(m));
            CHECK(s == doctest::Approx(normal_moment(m)).epsilon(1e-11).scale(1.0));
        }
    }
    CHECK_THROWS_AS(gauss_hermite_normal(0), std::invalid_argument);
    CHECK_THROWS_AS(gauss_hermite_normal(gauss_hermite_max_nodes + 1), std::invalid_argument);
}

TEST_CASE("the tensor rule GQ estimates tends to the gaussian kernel as the nodes grow") {
    const std::vector<double> z = {0.9, -0.4, 1.3, 0.2, -1.1, 0.7};
    double squared = 0.0;
    for (double v : z) squared += v * v;
    const double gaussian = std::exp(-0.5 * squared);
    const double gap2 = std::fabs(tensor_rule_cos(gauss_hermite_normal(2), z) - gaussian);
    const double gap4 = std::fabs(tensor_rule_cos(gauss_hermite_normal(4), z) - gaussian);
    const double gap16 = std::fabs(tensor_rule_cos(gauss_hermite_normal(16), z) - gaussian);
    CHECK(gap2 > 0.02);  // quffka's 2 nodes: prod cos(z_j), visibly not the kernel
    CHECK(gap4 < gap2);
    CHECK(gap16 < 1e-9);
}

TEST_CASE("gq: W holds only nodes, drawn with their weights' frequencies; features match a dense reference") {
    const unsigned d = 9, features = 800, nodes = 3;
    const opened_map map = map_from_options(gq_options(d, features, nodes));
    const auto& st = map.state();
    const float* dense = st.view<kfm::detail::section::dense>().data;
    REQUIRE(st.meta->method == std::uint32_t(format::method::gq));
    REQUIRE(st.meta->projection == std::uint32_t(format::projection::dense));
    CHECK(st.meta->radial_points == nodes);
    CHECK(map.output_dim() == features);
    const std::size_t p = features / 2, entries = p * d;
    REQUIRE(st.meta->projection_dim == p);
    // Each entry is 0 (weight 2/3) or +-sqrt(3) (1/6 each): counts within 4.5 binomial standard deviations.
    std::size_t zeros = 0, positive = 0;
    for (std::size_t i = 0; i < entries; ++i) {
        const float v = dense[i];
        const bool is_node = v == 0.0f || std::fabs(v) == float(std::sqrt(3.0));
        REQUIRE(is_node);
        zeros += v == 0.0f;
        positive += v > 0.0f;
    }
    const double n = double(entries);
    CHECK(std::fabs(double(zeros) - n * 2.0 / 3.0) < 4.5 * std::sqrt(n * 2.0 / 9.0));
    CHECK(std::fabs(double(positive) - n / 6.0) < 4.5 * std::sqrt(n * 5.0 / 36.0));

    // k(x, y) estimate = (1/P) sum_p cos(w_p.(x - y) / sigma), from W in double.
    const auto pts = random_points(4, d, 21, 1.5);
    for (unsigned pair = 0; pair < 2; ++pair) {
        const auto x = point_row(pts, 2 * pair, d), y = point_row(pts, 2 * pair + 1, d);
        double reference = 0.0;
        for (std::size_t row = 0; row < p; ++row) {
            double dot = 0.0;
            for (unsigned j = 0; j < d; ++j) dot += double(dense[row * d + j]) * (double(x[j]) - double(y[j]));
            reference += std::cos(dot / 1.7);
        }
        reference /= double(p);
        CHECK(estimate(map, x, y) == doctest::Approx(reference).epsilon(2e-5).scale(1.0));
    }
}

TEST_CASE("gq refuses what it cannot build, with the option named") {
    auto o = gq_options(4, 16, 1);
    CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("--gq-nodes 1"), std::invalid_argument);
    o.gq_nodes = 65;
    CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("--gq-nodes 65"), std::invalid_argument);
    o = gq_options(4, 16, 2);
    o.kernel.kind = format::kernel::arccos;
    CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("gaussian only"), std::invalid_argument);
    o.kernel.kind = format::kernel::matern;
    CHECK_THROWS_AS(build_map(o), std::invalid_argument);
    o = gq_options(4, 16, 2);
    o.kernel.sigma = -1.0;
    CHECK_THROWS_AS(build_map(o), std::invalid_argument);
}
