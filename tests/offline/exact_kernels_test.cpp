// Exact kernels: hand-computed values, identities between their forms, degenerate inputs, bad specs.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <numbers>
#include <vector>

#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

using kfm::format::kernel;
using kfm::offline::exact_kernel;
using kfm::offline::kernel_spec;

namespace {

kernel_spec gaussian(double sigma) {
    kernel_spec k;
    k.kind = kernel::gaussian;
    k.sigma = sigma;
    return k;
}

kernel_spec arccos(unsigned order) {
    kernel_spec k;
    k.kind = kernel::arccos;
    k.order = order;
    return k;
}

kernel_spec polynomial(unsigned p, double a) {
    kernel_spec k;
    k.kind = kernel::polynomial_sphere;
    k.degree = p;
    k.scale = a;
    return k;
}

double k2(const kernel_spec& k, std::vector<double> x, std::vector<double> y) {
    return exact_kernel(k, x.data(), y.data(), static_cast<unsigned>(x.size()));
}

}  // namespace

TEST_CASE("gaussian kernel: hand values") {
    CHECK(k2(gaussian(1.0), {1, 0}, {0, 1}) == doctest::Approx(std::exp(-1.0)));
    CHECK(k2(gaussian(2.0), {1, 2, 3}, {1, 2, 3}) == doctest::Approx(1.0));
    // |x-y|^2 = 9 + 16 = 25, sigma = 5: exp(-25/50).
    CHECK(k2(gaussian(5.0), {3, 0}, {0, 4}) == doctest::Approx(std::exp(-0.5)));
}

TEST_CASE("arc-cosine kernels: hand values (Cho & Saul)") {
    const double pi = std::numbers::pi;
    // Orthogonal unit vectors: theta = pi/2.
    CHECK(k2(arccos(0), {1, 0}, {0, 1}) == doctest::Approx(0.5));
    CHECK(k2(arccos(1), {1, 0}, {0, 1}) == doctest::Approx(1.0 / pi));
    CHECK(k2(arccos(2), {1, 0}, {0, 1}) == doctest::Approx(0.5));
    // A vector with itself: theta = 0, k_b = |x|^{2b} J_b(0) / pi with J_0 = pi, J_1 = pi, J_2 = 3 pi.
    CHECK(k2(arccos(0), {3, 4}, {3, 4}) == doctest::Approx(1.0));
    CHECK(k2(arccos(1), {3, 4}, {3, 4}) == doctest::Approx(25.0));
    CHECK(k2(arccos(2), {3, 4}, {3, 4}) == doctest::Approx(3.0 * 625.0));
    // Opposite vectors: theta = pi, every J_b(pi) = 0.
    CHECK(k2(arccos(0), {1, 1}, {-2, -2}) == doctest::Approx(0.0));
    CHECK(k2(arccos(1), {1, 1}, {-2, -2}) == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(k2(arccos(2), {1, 1}, {-2, -2}) == doctest::Approx(0.0).epsilon(1e-12));
    // theta = pi/3 between (1,0) and (2, 2 sqrt 3) of norm 4: order 1 gives 4/pi (sin + (pi - theta) cos).
    const double t = pi / 3;
    CHECK(k2(arccos(1), {1, 0}, {2, 2 * std::sqrt(3.0)}) ==
          doctest::Approx(4.0 / pi * (std::sin(t) + (pi - t) * std::cos(t))));
    // Zero vector: 0 for every order (Theta_b(0) = 0).
    for (unsigned b = 0; b <= 2; ++b) CHECK(k2(arccos(b), {0, 0}, {1, 2}) == 0.0);
}

TEST_CASE("arc-cosine kernels match their integral form 2 E[Theta_b(w.x) Theta_b(w.y)]") {
    const std::vector<double> x = {0.3, -1.1, 0.7}, y = {1.2, 0.4, -0.2};
    kfm::offline::rng r(99);
    const int n = 400000;
    double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        double wx = 0, wy = 0;
        for (int j = 0; j < 3; ++j) {
            const double w = r.normal();
            wx += w * x[j];
            wy += w * y[j];
        }
        if (wx > 0 && wy > 0) {
            const double v[3] = {2.0, 2.0 * wx * wy, 2.0 * wx * wx * wy * wy};
            for (int b = 0; b < 3; ++b) {
                sum[b] += v[b];
                sum2[b] += v[b] * v[b];
            }
        }
    }
    for (unsigned b = 0; b <= 2; ++b) {
        CAPTURE(b);
        const double mean = sum[b] / n;
        const double se = std::sqrt((sum2[b] / n - mean * mean) / n);
        CHECK(std::fabs(mean - k2(arccos(b), x, y)) < 5 * se);
    }
}

TEST_CASE("polynomial on the sphere: distance form equals alpha (q + x.y)^p and inputs are normalised") {
    const std::vector<double> x = {0.6, 0.8, 0.0}, y = {0.0, 0.6, 0.8};
    for (double a : {2.0, 3.0, 4.0})
        for (unsigned p : {1u, 3u, 7u}) {
            CAPTURE(a);
            CAPTURE(p);
            const double q = a * a / 2 - 1, alpha = std::pow(2 / (a * a), p);
            const double dot = 0.48;
            CHECK(k2(polynomial(p, a), x, y) == doctest::Approx(alpha * std::pow(q + dot, p)));
            // Scaling an input does not change the value.
            CHECK(k2(polynomial(p, a), {6, 8, 0}, {0, 0.3, 0.4}) == doctest::Approx(k2(polynomial(p, a), x, y)));
        }
    // Identical directions: 1. A zero input stays zero: |x^ - y^| = 1, value (1 - 1/a^2)^p.
    CHECK(k2(polynomial(3, 3.0), {1, 2}, {2, 4}) == doctest::Approx(1.0));
    CHECK(k2(polynomial(3, 3.0), {0, 0}, {2, 4}) == doctest::Approx(std::pow(1 - 1.0 / 9.0, 3)));
}

TEST_CASE("delta-gaussian is the signed sum of its gaussians") {
    kernel_spec k;
    k.kind = kernel::delta_gaussian;
    k.weights = {1.0, -1.0};
    k.sigmas = {1.0, 10.0};
    const std::vector<double> x = {0.2, 0.5}, y = {-0.4, 1.0};
    CHECK(k2(k, x, y) == doctest::Approx(k2(gaussian(1.0), x, y) - k2(gaussian(10.0), x, y)));
    CHECK(k2(k, x, x) == doctest::Approx(0.0));
}

TEST_CASE("exact_kernel rejects impossible parameters") {
    const std::vector<double> x = {1, 2};
    auto call = [&](const kernel_spec& k) { return exact_kernel(k, x.data(), x.data(), 2); };
    CHECK_THROWS_AS(call(gaussian(0.0)), std::invalid_argument);
    CHECK_THROWS_AS(call(gaussian(-1.0)), std::invalid_argument);
    CHECK_THROWS_AS(call(gaussian(std::nan(""))), std::invalid_argument);
    CHECK_THROWS_AS(call(gaussian(INFINITY)), std::invalid_argument);
    CHECK_THROWS_AS(call(arccos(3)), std::invalid_argument);
    CHECK_THROWS_AS(call(polynomial(0, 3.0)), std::invalid_argument);
    CHECK_THROWS_AS(call(polynomial(2, 1.5)), std::invalid_argument);
    kernel_spec dg;
    dg.kind = kernel::delta_gaussian;
    CHECK_THROWS_AS(call(dg), std::invalid_argument);
    dg.weights = {1.0};
    dg.sigmas = {1.0, 2.0};
    CHECK_THROWS_AS(call(dg), std::invalid_argument);
    dg.weights = {1.0, 1.0};
    dg.sigmas = {1.0, 0.0};
    CHECK_THROWS_AS(call(dg), std::invalid_argument);
}
