// Offline maths of the quadrature family: simplex geometry, butterfly orthogonality and the uniformity of
// its points, Halton points, and the quadrature / sorf / qmc builders' layouts and option checks,
// including the arccos radii folded into the weights (and golden features that pin the folded maps).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/map_sections.hpp"
#include "common/test_maps.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/butterfly_angles.hpp"
#include "offline/methods/qmc/halton.hpp"
#include "offline/sampling/radial_laws.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/quadrature/simplex.hpp"
#include "format/bits.hpp"

using namespace kfm;
using namespace kfm::offline;

namespace {

using kfm::test::f32_values;
using kfm::test::find_section;

build_options quadrature_options(unsigned d, unsigned features, format::kernel kind, unsigned order = 0) {
    build_options o;
    o.method = format::method::quadrature;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = kind;
    o.kernel.order = order;
    o.kernel.sigma = 1.5;
    o.seed = 7;
    return o;
}

const format::feature_segment& only_segment(const map_contents& m) {
    const section* s = find_section(m, format::tag::segments);
    REQUIRE(s != nullptr);
    REQUIRE(s->count == 1);
    return *reinterpret_cast<const format::feature_segment*>(s->bytes.data());
}

// phi(x) of a one-rule arccos quadrature map, seed 2026, x = test_vector(d, 17), scalar kernels.
std::vector<float> arccos_phi(unsigned d, bool haar, unsigned order) {
    build_options o = quadrature_options(d, 2 * (d + 1), format::kernel::arccos, order);
    o.seed = 2026;
    o.haar_rotations = haar;
    const test::file_buffer buffer(serialize(build_map(o)));
    const map view = test::open_or_fail(buffer, isa::scalar);
    const auto x = test::test_vector(d, 17);
    std::vector<float> out(view.output_dim());
    std::vector<std::uint8_t> ws(workspace_bytes(view));
    REQUIRE(transform(view, x.data(), d, out.data(), out.size(), ws.data(), ws.size()) == status::ok);
    return out;
}

}  // namespace

TEST_CASE("simplex vertices are unit vectors with pairwise dot -1/d, and V^T y matches the matrix") {
    for (unsigned d : {1u, 2u, 3u, 13u, 64u}) {
        const auto v = simplex_matrix(d);
        for (unsigned a = 0; a <= d; ++a)
            for (unsigned b = 0; b <= d; ++b) {
                double dot = 0.0;
                for (unsigned i = 0; i < d; ++i) dot += v[i * (d + 1) + a] * v[i * (d + 1) + b];
                CHECK(dot == doctest::Approx(a == b ? 1.0 : -1.0 / d).epsilon(1e-12));
            }
        std::vector<double> y(d), t(d + 1);
        for (unsigned i = 0; i < d; ++i) y[i] = std::sin(1.0 + i);
        simplex_project(y.data(), d, t.data());
        for (unsigned j = 0; j <= d; ++j) {
            double ref = 0.0;
            for (unsigned i = 0; i < d; ++i) ref += v[i * (d + 1) + j] * y[i];
            CHECK(t[j] == doctest::Approx(ref).epsilon(1e-12));
        }
    }
}

TEST_CASE("butterfly Q is orthogonal and the transpose inverts the network, d power of two or not") {
    for (unsigned d : {1u, 2u, 3u, 5u, 8u, 13u, 16u, 22u, 30u, 33u, 64u, 784u}) {
        rng r(derive(11, d));
        const auto cs = butterfly_cos_sin(d, r);
        const auto perm = random_permutation(d, r);
        const std::size_t d2 = std::size_t(1) << kfm::detail::ceil_log2(d);
        REQUIRE(cs.size() == 2 * (d2 - 1));
        const auto q = butterfly_dense_q(d, cs.data(), perm.data(), butterfly_repeats);
        double worst = 0.0;
        for (unsigned a = 0; a < d; ++a)
            for (unsigned b = a; b < d; ++b) {
                double dot = 0.0;
                for (unsigned i = 0; i < d; ++i) dot += q[std::size_t(a) * d + i] * q[std::size_t(b) * d + i];
                worst = std::max(worst, std::fabs(dot - (a == b ? 1.0 : 0.0)));
            }
        CHECK(worst < 1e-6);  // the stored float (cos, sin) pairs have unit norm to float rounding
        std::vector<double> x(d), y(d);
        for (unsigned i = 0; i < d; ++i) x[i] = y[i] = std::cos(0.3 * i + 0.1);
        butterfly_apply_reference(y.data(), d, cs.data(), perm.data(), butterfly_repeats, false);
        butterfly_apply_reference(y.data(), d, cs.data(), perm.data(), butterfly_repeats, true);
        // Exact up to the float rounding of the stored (cos, sin) pairs.
        double diff = 0.0;
        for (unsigned i = 0; i < d; ++i) diff = std::max(diff, std::fabs(y[i] - x[i]));
        CHECK(diff < 1e-6);
    }
}

TEST_CASE("butterfly points Q v are uniform on the sphere in their low moments (as Haar would give)") {
    // For u uniform on S^{d-1}: E[u_i] = 0 and E[u_i^2] = 1/d. Check one coordinate of Q v_0 over seeds,
    // for d not a power of two (pass-through pairs) and a power of two.
    for (unsigned d : {13u, 16u, 24u}) {  // 16, 24: blocked permutations, as the builder draws them
        const unsigned seeds = 4000;
        double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
        const auto v = simplex_matrix(d);
        for (unsigned s = 0; s < seeds; ++s) {
            rng r(derive(99, s));
            const auto cs = butterfly_cos_sin(d, r);
            const auto perm = d % 8 == 0 ? random_blocked_permutation(d, r) : random_permutation(d, r);
            // (Q v_0)_c = sum_i Q[c][i] v_0[i] = (M^T v_0)_c: apply the transposed network to v_0.
            std::vector<double> p(d);
            for (unsigned i = 0; i < d; ++i) p[i] = v[i * (d + 1)];
            butterfly_apply_reference(p.data(), d, cs.data(), perm.data(), butterfly_repeats, true);
            const double u = p[s % d];
            sum += u;
            sum2 += u * u;
            sum4 += u * u * u * u;
        }
        const double mean = sum / seeds, m2 = sum2 / seeds;
        const double var2 = sum4 / seeds - m2 * m2;
        CHECK(std::fabs(mean) < 4.0 * std::sqrt(m2 / seeds));
        CHECK(std::fabs(m2 - 1.0 / d) < 4.0 * std::sqrt(var2 / seeds));
    }
}

TEST_CASE("quadrature builder: --permutation blocked draws blocked permutations and records them in the flags") {
    for (unsigned d : {7u, 8u, 13u, 16u, 24u, 100u, 128u})
        for (permutation_kind kind : {permutation_kind::uniform, permutation_kind::blocked}) {
            CAPTURE(d);
            const bool blocked = kind == permutation_kind::blocked;
            CAPTURE(blocked);
            auto o = quadrature_options(d, 2 * 2 * (d + 1), format::kernel::gaussian);
            o.permutation = kind;
            if (blocked && d % 8 != 0) {
                CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("d a multiple of 8"), std::invalid_argument);
                continue;
            }
            const auto m = build_map(o);
            CHECK(((m.meta.method_flags & format::method_flag_quadrature_blocked_permutation) != 0) == blocked);
            const auto* perm_section = find_section(m, format::tag::permutation);
            REQUIRE(perm_section != nullptr);
            std::vector<std::uint32_t> perm(perm_section->count);
            std::memcpy(perm.data(), perm_section->bytes.data(), perm.size() * sizeof(std::uint32_t));
            for (unsigned k = 0; k < m.meta.block_count; ++k) {  // each rule's a permutation, blocked when asked
                const std::uint32_t* rule = perm.data() + std::size_t(k) * d;
                std::vector<int> seen(d, 0);
                for (unsigned i = 0; i < d; ++i) seen.at(rule[i])++;
                for (int c : seen) CHECK(c == 1);
                if (blocked)
                    for (unsigned i = 0; i < d; ++i) CHECK(rule[i] / 8 == rule[i / 8 * 8] / 8);
            }
        }
    auto haar = quadrature_options(16, 2 * 2 * 17, format::kernel::gaussian);
    haar.haar_rotations = true;  // a dense Haar rotation has no permutation to block
    haar.permutation = permutation_kind::blocked;
    CHECK_THROWS_WITH_AS(build_map(haar), doctest::Contains("Haar"), std::invalid_argument);
    rng a(5), b(6);
    const auto p = random_blocked_permutation(64, a), q = random_blocked_permutation(64, b);
    CHECK(p != q);
    std::set<std::uint32_t> groups;  // every group of eight read once
    for (unsigned g = 0; g < 8; ++g) groups.insert(p[8 * g] / 8);
    CHECK(groups.size() == 8);
    CHECK_THROWS_AS(random_blocked_permutation(12, a), std::invalid_argument);
}

TEST_CASE("random permutations are permutations and depend on the seed") {
    rng a(5), b(6);
    const auto p = random_permutation(100, a), q = random_permutation(100, b);
    std::vector<int> seen(100, 0);
    for (auto i : p) seen.at(i)++;
    for (int c : seen) CHECK(c == 1);
    CHECK(p != q);
}

TEST_CASE("Halton radical inverse and primes") {
    CHECK(first_primes(6) == std::vector<std::uint32_t>{2, 3, 5, 7, 11, 13});
    CHECK(first_primes(1000).back() == 7919u);
    CHECK(radical_inverse(1, 2) == 0.5);
    CHECK(radical_inverse(6, 2) == 0.375);  // 110b -> 0.011b
    CHECK(radical_inverse(5, 3) == doctest::Approx(2.0 / 3 + 1.0 / 9));  // 12 in base 3 -> 0.21
    const auto primes = first_primes(3);
    const double shift[3] = {0.75, 0.0, 0.5};
    double out[3];
    shifted_halton_point(1, primes, shift, out);
    CHECK(out[0] == 0.25);
    CHECK(out[1] == doctest::Approx(1.0 / 3));
    CHECK(out[2] == doctest::Approx(0.7));
}

TEST_CASE("quadrature builder: whole rules, radii, weights, a0 constant with its signature") {
    const unsigned d = 13;
    // Gaussian n = 1 is two rules: 2 * 2 * (d+1) outputs plus the constant.
    auto m = build_map(quadrature_options(d, 4 * (d + 1), format::kernel::gaussian));
    CHECK(m.meta.block_count == 2);
    CHECK(m.meta.projection_dim == 2 * (d + 1));
    CHECK(m.meta.output_dim == 4 * (d + 1) + 1);
    CHECK(m.meta.block_size == 16);
    CHECK(m.meta.repeats == 3);
    const auto scales = f32_values(*find_section(m, format::tag::scales));
    const auto weights = f32_values(*find_section(m, format::tag::weights));
    const auto constants = f32_values(*find_section(m, format::tag::constants));
    REQUIRE(scales.size() == 2 * (d + 1));
    double mean_w2 = 0.0;
    const double points = double(scales.size());
    for (std::size_t j = 0; j < scales.size(); ++j) {
        const double rho = scales[j] * 1.5;  // scale = rho / sigma
        CHECK(weights[j] == doctest::Approx(std::sqrt(double(d)) / rho / std::sqrt(points)).epsilon(1e-5));
        mean_w2 += double(weights[j]) * weights[j];  // already divided by points
    }
    const double a0 = 1.0 - mean_w2;
    REQUIRE(constants.size() == 1);
    CHECK(double(constants[0]) * constants[0] == doctest::Approx(std::fabs(a0)).epsilon(1e-4));
    CHECK(m.meta.negative_dim == (a0 < 0 ? 1u : 0u));

    // Rounds to the nearest whole rule; never zero rules.
    CHECK(build_map(quadrature_options(d, 1, format::kernel::gaussian)).meta.block_count == 1);
    CHECK(build_map(quadrature_options(d, 5 * 2 * (d + 1) + 3, format::kernel::gaussian)).meta.block_count == 5);

    // Arccos: reflected outputs, a constant only for order 0 (f(0)^2 = 1/4 term), none for orders 1, 2.
    auto a0map = build_map(quadrature_options(d, 2 * (d + 1), format::kernel::arccos, 0));
    CHECK(a0map.meta.output_dim == 2 * (d + 1) + 1);
    auto a1map = build_map(quadrature_options(d, 2 * (d + 1), format::kernel::arccos, 1));
    CHECK(a1map.meta.output_dim == 2 * (d + 1));
    CHECK(find_section(a1map, format::tag::constants) == nullptr);
}

TEST_CASE("the radius-resampling option gives a0 >= 0 in every rule") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto o = quadrature_options(5, 2 * 6 * 3, format::kernel::gaussian);
        o.resample_radii = true;
        o.seed = seed;
        const auto m = build_map(o);
        CHECK(m.meta.negative_dim == 0);
        CHECK(m.meta.method_flags == format::method_flag_quadrature_resampled_radii);
    }
}

// The stratified radial rule (auto for matern and rational-quadratic): the P radii of a map are a Latin
// sample of the size-biased law, so for each probability q the count at or below G^{-1}(q) is P q rounded
// down or up, in a partial last rule too; the shifted rule (independent radii) misses that by about
// sqrt(P q (1 - q)) (4 of 20 seeds pass by chance at q = 0.5, P = 60). The weights follow the radii as
// sqrt(m2) / rho. The rule is refused with --resample-radii and under another name.
TEST_CASE("stratified quadrature radii: one per stratum of the size-biased law, the default for matern and RQ") {
    const unsigned d = 9;
    kernel_spec matern;
    matern.kind = format::kernel::matern;
    matern.nu = 1.5;
    matern.sigma = 1.5;
    kernel_spec rq = matern;
    rq.kind = format::kernel::rational_quadratic;
    rq.alpha = 1.5;
    for (const kernel_spec& k : {matern, rq})
        for (bool partial : {false, true}) {
            unsigned stratified_counts_off = 0;
            for (std::uint64_t seed = 1; seed <= 20; ++seed) {
                auto o = quadrature_options(d, partial ? 2 * 57 : 6 * 2 * (d + 1), k.kind);
                o.kernel = k;
                o.partial_rule = partial;
                o.seed = seed;
                for (const char* rule : {"auto", "shifted"}) {
                    o.radial_rule = kfm::offline::choice_named<kfm::offline::radial_rule_kind>(rule);
                    const auto m = build_map(o);
                    const bool stratified = std::string(rule) == "auto";
                    CHECK(m.meta.method_flags == (stratified ? format::method_flag_quadrature_stratified_radii : 0u));
                    const auto scales = f32_values(*find_section(m, format::tag::scales));
                    const auto weights = f32_values(*find_section(m, format::tag::weights));
                    const double p = double(scales.size());
                    REQUIRE(p == (partial ? 57.0 : 6.0 * (d + 1)));
                    const double m2 = radial_second_moment(k, d);
                    for (std::size_t j = 0; j < scales.size(); ++j) {
                        const double rho = double(scales[j]) * k.sigma;
                        CHECK(weights[j] == doctest::Approx(std::sqrt(m2) / rho / std::sqrt(p)).epsilon(1e-5));
                    }
                    bool off = false;
                    for (double q : {0.1, 0.5, 0.9}) {
                        const double cut = size_biased_quantile(k, d, q);
                        double below = 0;
                        for (float s : scales) below += double(s) * k.sigma <= cut ? 1.0 : 0.0;
                        off = off || std::fabs(below - p * q) > 1.0;
                    }
                    if (stratified) CHECK_FALSE(off);
                    else stratified_counts_off += off ? 1 : 0;
                }
            }
            CHECK(stratified_counts_off >= 10);  // the shifted rule's radii are not stratified
        }
    auto o = quadrature_options(d, 2 * (d + 1), format::kernel::matern);
    o.kernel = matern;
    o.radial_rule = kfm::offline::radial_rule_kind::stratified;
    o.resample_radii = true;
    CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("--radial-rule shifted"), std::invalid_argument);
    o.resample_radii = false;
    o.radial_rule = kfm::offline::radial_rule_kind::antithetic;
    CHECK_THROWS_WITH_AS(build_map(o), doctest::Contains("is not auto, shifted or stratified"), std::invalid_argument);
    // the gaussian keeps the paper's independent radii by default; stratified on request
    auto g = quadrature_options(d, 2 * (d + 1), format::kernel::gaussian);
    CHECK(build_map(g).meta.method_flags == 0u);
    g.radial_rule = kfm::offline::radial_rule_kind::stratified;
    CHECK(build_map(g).meta.method_flags == format::method_flag_quadrature_stratified_radii);
}

TEST_CASE("quadrature-family builders are deterministic and reject impossible options") {
    for (auto method : {format::method::quadrature, format::method::sorf, format::method::qmc}) {
        build_options o = quadrature_options(10, 64, format::kernel::gaussian);
        o.method = method;
        CHECK(serialize(build_map(o)) == serialize(build_map(o)));
        auto other = o;
        other.seed = 8;
        CHECK(serialize(build_map(o)) != serialize(build_map(other)));
        auto bad = o;
        bad.input_dim = 0;
        CHECK_THROWS_AS(build_map(bad), std::invalid_argument);
        bad = o;
        bad.features = 0;
        CHECK_THROWS_AS(build_map(bad), std::invalid_argument);
        bad = o;
        bad.kernel.sigma = -1.0;
        CHECK_THROWS_AS(build_map(bad), std::invalid_argument);
        bad = o;
        bad.kernel.kind = format::kernel::arccos;
        bad.kernel.order = 3;
        CHECK_THROWS_AS(build_map(bad), std::invalid_argument);
        bad = o;
        bad.kernel.kind = format::kernel::polynomial_sphere;
        CHECK_THROWS_AS(build_map(bad), std::invalid_argument);
    }
}

TEST_CASE("sorf and qmc layouts") {
    build_options o = quadrature_options(13, 100, format::kernel::gaussian);
    o.method = format::method::sorf;
    const auto s = build_map(o);
    CHECK(s.meta.work_dim == 16);
    CHECK(s.meta.projection_dim == 50);
    CHECK(s.meta.block_count == 4);
    CHECK(s.meta.output_dim == 100);
    CHECK(find_section(s, format::tag::signs)->count == 4 * 3 * 16);

    o.method = format::method::qmc;
    const auto q = build_map(o);
    CHECK(q.meta.projection == std::uint32_t(format::projection::dense));
    const auto w = f32_values(*find_section(q, format::tag::dense));
    REQUIRE(w.size() == 50 * 13);
    // Each coordinate runs over shifted van der Corput points: 50 quantiles of distinct uniforms, mean
    // near 0 and second moment near sigma^-2.
    double sum = 0.0, sum2 = 0.0;
    for (unsigned j = 0; j < 50; ++j) {
        sum += w[j * 13] * 1.5;
        sum2 += double(w[j * 13]) * w[j * 13] * 2.25;
    }
    CHECK(std::fabs(sum / 50) < 0.2);
    CHECK(sum2 / 50 == doctest::Approx(1.0).epsilon(0.3));
}

TEST_CASE("quadrature arccos: radii folded into the weights, order 1 with one scalar weight") {
    for (bool haar : {false, true})
        for (unsigned order : {0u, 1u, 2u}) {
            CAPTURE(haar);
            CAPTURE(order);
            const unsigned d = 13;
            auto o = quadrature_options(d, 3 * 2 * (d + 1), format::kernel::arccos, order);
            o.haar_rotations = haar;
            const auto m = build_map(o);
            const auto& seg = only_segment(m);
            const double points = 3.0 * (d + 1);
            CHECK(find_section(m, format::tag::scales) == nullptr);
            CHECK(seg.scale_index == format::no_index);
            CHECK(seg.scale == 1.0f);
            if (order == 1) {
                // w rho = sqrt(d) / rho / sqrt(points) * rho, the same for every point.
                CHECK(find_section(m, format::tag::weights) == nullptr);
                CHECK(seg.weight_index == format::no_index);
                CHECK(seg.weight == doctest::Approx(std::sqrt(d / points)).epsilon(1e-7));
                continue;
            }
            CHECK(seg.weight_index == 0);
            CHECK(seg.weight == 1.0f);
            // Order 0: w = sqrt(d) / rho / sqrt(points) with rho ~ chi(d + 2); order 2: w rho^2 =
            // sqrt(d / points) rho. Both vary per point; rho^2 = d / (w^2 points) (order 0) is a chi^2
            // draw, its mean d + 2 within a loose bound.
            const auto w = f32_values(*find_section(m, format::tag::weights));
            REQUIRE(w.size() == std::size_t(points));
            double mean_rho2 = 0.0;
            for (float wi : w) {
                const double rho = order == 0 ? std::sqrt(d / points) / wi : wi / std::sqrt(d / points);
                CHECK(rho > 0.0);
                mean_rho2 += rho * rho / points;
            }
            CHECK(std::fabs(mean_rho2 - (d + 2)) < 5.0 * std::sqrt(2.0 * (d + 2) / points));
        }
    // Gaussian keeps its per-point radii (cos is not homogeneous).
    const auto g = build_map(quadrature_options(13, 2 * 14, format::kernel::gaussian));
    CHECK(find_section(g, format::tag::scales) != nullptr);
    CHECK(find_section(g, format::tag::weights) != nullptr);
    CHECK(only_segment(g).scale_index == 0);
}

TEST_CASE("quadrature arccos: phi(x) unchanged by folding the radii (golden values)") {
    // Made with the builder BEFORE the fold (per-point scales rho_j and weights sqrt(d)/rho_j/sqrt(P)
    // sections, commit 18c48e8) by arccos_phi() above on the scalar ISA, printed with %.9g. The folded
    // maps must give the same features up to float rounding; the zeros pin the signs of every point.
    struct golden {
        unsigned d;
        bool haar;
        unsigned order;
        std::vector<float> phi;
    };
    const golden cases[] = {
    {5, false, 0, {
       0.0f, 0.0f, 0.718649507f, 0.267234653f, 0.257284403f, 0.0f,
       0.479998112f, 0.550587833f, 0.0f, 0.0f, 0.0f, 0.40509218f,
       0.419351637f}},
    {5, false, 1, {
       0.0f, 0.0f, 0.75114727f, 0.729542673f, 0.139287874f, 0.0f,
       0.465414941f, 0.553708613f, 0.0f, 0.0f, 0.0f, 0.600854397f}},
    {5, false, 2, {
       0.0f, 0.0f, 0.785114646f, 1.99162972f, 0.0754072592f, 0.0f,
       0.451274812f, 0.556846976f, 0.0f, 0.0f, 0.0f, 0.891219318f}},
    {5, true, 0, {
       0.0f, 0.0f, 0.718649507f, 0.267234653f, 0.0f, 0.0f,
       0.479998112f, 0.550587833f, 0.0f, 0.0f, 0.257284403f, 0.40509218f,
       0.419351637f}},
    {5, true, 1, {
       0.0f, 0.0f, 0.814257145f, 0.686843574f, 0.0f, 0.0f,
       0.406944245f, 0.109743677f, 0.0f, 0.0f, 0.173509225f, 0.81090349f}},
    {5, true, 2, {
       0.0f, 0.0f, 0.922584236f, 1.7653178f, 0.0f, 0.0f,
       0.34500888f, 0.0218742117f, 0.0f, 0.0f, 0.117012337f, 1.62324667f}},
    {13, false, 0, {
       0.304800004f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
       0.244023725f, 0.0f, 0.274639577f, 0.218228698f, 0.268369198f, 0.205397412f,
       0.0f, 0.232101157f, 0.0f, 0.331457466f, 0.386697859f, 0.206339866f,
       0.200846642f, 0.273664325f, 0.0f, 0.29136011f, 0.0f, 0.0f,
       0.0f, 0.0f, 0.237834439f, 0.0f, 0.0335056894f}},
    {13, false, 1, {
       0.191963598f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
       0.112569436f, 0.0f, 0.411189497f, 1.07541132f, 1.08554983f, 0.604309022f,
       0.0f, 0.0591328554f, 0.0f, 0.265618712f, 0.113815539f, 0.364133f,
       0.230333135f, 0.729102015f, 0.0f, 0.447766066f, 0.0f, 0.0f,
       0.0f, 0.0f, 1.38935721f, 0.0f}},
    {13, false, 2, {
       0.120899014f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
       0.0519288778f, 0.0f, 0.61563158f, 5.29953051f, 4.3910346f, 1.77796507f,
       0.0f, 0.0150653906f, 0.0f, 0.212857768f, 0.0334989615f, 0.642594337f,
       0.264148593f, 1.94248819f, 0.0f, 0.688132823f, 0.0f, 0.0f,
       0.0f, 0.0f, 8.11620712f, 0.0f}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.d);
        CAPTURE(c.haar);
        CAPTURE(c.order);
        const auto phi = arccos_phi(c.d, c.haar, c.order);
        REQUIRE(phi.size() == c.phi.size());
        for (std::size_t i = 0; i < phi.size(); ++i) {
            CAPTURE(i);
            CHECK(std::fabs(phi[i] - c.phi[i]) <= 2e-6f * std::fabs(c.phi[i]));
        }
    }
}
