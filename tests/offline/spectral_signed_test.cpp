// The signed spectral models of GORF / GRFF: tabulated densities and their inverse CDF, the bessel-1d
// density's sign split and masses, what each model reproduces of K(z), and the signed-mixture fit.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "offline/sampling/random.hpp"
#include "offline/sampling/special_functions.hpp"
#include "offline/sampling/spectral_signed.hpp"

namespace {

double poly_kernel(double z, unsigned p, double a) { return std::pow(1.0 - z * z / (a * a), double(p)); }

// E[0F1(d/2; -(r z)^2 / 4)] for r from a tabulated law: the d-dimensional characteristic function of
// r u with u uniform on the sphere, by quadrature over the law's quantiles.
double radial_characteristic(const kfm::offline::tabulated_density& law, unsigned d, double z) {
    constexpr int n = 4000;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += kfm::offline::bessel_j_bounded(0.5 * d - 1.0, law.quantile((i + 0.5) / n) * z);
    return sum / n;
}

}  // namespace

TEST_CASE("tabulated_density: mass, quantiles and sampling of a known density") {
    // Density 2w on [0, 1]: mass 1, CDF w^2, quantile sqrt(u).
    std::vector<double> grid, f;
    for (int i = 0; i <= 1000; ++i) {
        grid.push_back(i / 1000.0);
        f.push_back(2.0 * i / 1000.0);
    }
    const kfm::offline::tabulated_density law(grid, f);
    CHECK(law.mass() == doctest::Approx(1.0).epsilon(1e-12));
    for (double u : {0.01, 0.25, 0.5, 0.9, 0.999}) CHECK(law.quantile(u) == doctest::Approx(std::sqrt(u)).epsilon(1e-3));
    kfm::offline::rng r(5);
    double mean = 0.0;
    for (int i = 0; i < 20000; ++i) mean += law.sample(r) / 20000;
    CHECK(mean == doctest::Approx(2.0 / 3).epsilon(0.01));
    CHECK_THROWS_AS(kfm::offline::tabulated_density(grid, std::vector<double>(grid.size(), 0.0)), std::invalid_argument);
    f[3] = -1;
    CHECK_THROWS_AS(kfm::offline::tabulated_density(grid, f), std::invalid_argument);
}

TEST_CASE("bessel-1d: density value at zero, masses summing to one, and the K(z) it implies") {
    CHECK(kfm::offline::bessel_1d_density(16, 1, 3.0, 0.0) == doctest::Approx(1.0));
    for (unsigned d : {16u, 22u, 256u}) {
        const auto model = kfm::offline::bessel_1d_model(d, 1, 3.0);
        INFO("d = " << d);
        CHECK(model.positive_mass + model.negative_mass == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(model.positive_mass > 0.99);  // the density is almost entirely positive for a = 3, p = 1
        // Its implied kernel m+ E+[Omega(rz)] - m- E-[Omega(rz)] equals K at z = 0 up to the negative
        // mass, and it is biased away from 0: measured, the documented bias of the paper's model. The
        // 1-D radial treatment puts the radius where K's curvature asks for it only near z = 0.
        for (double z : {0.0, 0.1, 0.3, 0.7, 1.0, 1.41, 2.0}) {
            const double implied = model.positive_mass * radial_characteristic(model.positive, d, z) -
                                   model.negative_mass * radial_characteristic(model.negative, d, z);
            INFO("z = " << z << ", implied " << implied << ", exact " << poly_kernel(z, 1, 3.0));
            if (z == 0.0) CHECK(implied == doctest::Approx(1.0 - 2 * model.negative_mass).epsilon(1e-6));
            // Measured (docs/results-poly.md): within 0.01 of K up to z = 1, about +0.15 at z = 2.
            if (z <= 1.0) CHECK(std::fabs(implied - poly_kernel(z, 1, 3.0)) < 0.01);
            if (z == 2.0) CHECK(implied - poly_kernel(z, 1, 3.0) > 0.1);
        }
    }
}

TEST_CASE("signed-mixture: the fitted Gaussian mixture reproduces K(z) within its reported error") {
    for (auto [p, a] : {std::pair{1u, 3.0}, std::pair{3u, 4.0}, std::pair{10u, 4.0}}) {
        const auto fit = kfm::offline::fit_signed_mixture(p, a);
        INFO("p = " << p << ", a = " << a);
        CHECK(fit.max_abs_error < 0.02);
        CHECK(fit.mean_abs_error < 0.005);
        CHECK(fit.mean_abs_error <= fit.max_abs_error);
        double worst = 0.0;
        for (int i = 0; i <= 40; ++i) {
            const double z = 2.0 * i / 40;
            double model = 0.0;
            for (std::size_t j = 0; j < fit.weights.size(); ++j)
                model += fit.weights[j] * std::exp(-z * z / (2 * fit.sigmas[j] * fit.sigmas[j]));
            worst = std::max(worst, std::fabs(model - poly_kernel(z, p, a)));
        }
        CHECK(worst <= fit.max_abs_error + 1e-12);
        // The spectral masses: sum of c_i is K^(0); the total variation stays moderate (estimator variance).
        double signed_mass = 0.0, total = 0.0;
        for (double c : fit.weights) {
            signed_mass += c;
            total += std::fabs(c);
        }
        CHECK(signed_mass == doctest::Approx(1.0).epsilon(0.02));
        CHECK(total < 1.5);  // the ridge keeps the masses (and so the variance) near those of K itself
    }
}
