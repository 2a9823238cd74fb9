// Nystroem's kernel_landmarks projection: the runtime map (every ISA, one vector and batched) equals a
// double-precision phi = K_mm^{-1/2} k(x, L) computed here from the stored landmarks, within a bound derived
// from float rounding; and with every row as a landmark (m = N) the approximate Gram matrix on those rows
// is the exact one.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/random.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

kfm::offline::build_options nystroem_options(unsigned d, std::size_t rows, unsigned m, double sigma,
                                             const char* init, std::uint64_t data_seed) {
    kfm::offline::build_options o;
    o.method = fmt::method::nystroem;
    o.kernel.sigma = sigma;
    o.input_dim = d;
    o.features = m;
    o.seed = 7;
    o.landmark_init = init;
    o.data_rows = rows;
    o.data.resize(rows * d);
    kfm::offline::rng r(data_seed);
    for (float& v : o.data) v = float(2.0 * r.uniform() - 1.0);
    return o;
}

double gaussian(const float* a, const float* b, unsigned d, double sigma) {
    double s = 0.0;
    for (unsigned i = 0; i < d; ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    return std::exp(-s / (2 * sigma * sigma));
}

// Runtime features of the rows of x (n x d) on `i`, one transform per row or one batch.
std::vector<float> features(const file_buffer& buffer, kfm::isa i, const std::vector<float>& x, std::size_t n,
                            bool batch) {
    const kfm::map map = open_or_fail(buffer, i);
    const std::size_t d = map.input_dim(), D = map.output_dim();
    std::vector<float> out(n * D);
    std::vector<std::uint64_t> ws(map.workspace_bytes(batch ? n : 1) / 8 + 1);
    if (batch) {
        REQUIRE(kfm::transform_batch(map, x.data(), n, d, d, out.data(), D, ws.data(), ws.size() * 8) == kfm::status::ok);
    } else {
        for (std::size_t r = 0; r < n; ++r)
            REQUIRE(kfm::transform(map, x.data() + r * d, d, out.data() + r * D, D, ws.data(), ws.size() * 8) ==
                    kfm::status::ok);
    }
    return out;
}

}  // namespace

TEST_CASE("nystroem: the runtime map equals K^{-1/2} k(x, L) in double, on every ISA, one vector and batched") {
    const unsigned d = 9, m = 24;
    const double sigma = 1.3;
    for (const char* init : {"uniform", "kmeans++"}) {
        const auto options = nystroem_options(d, 60, m, sigma, init, 21);
        const auto contents = kfm::offline::build_map(options);
        const file_buffer buffer(kfm::offline::serialize(contents));
        const auto landmarks = section_values<float>(contents, fmt::tag::dense);
        REQUIRE(landmarks.size() == std::size_t(m) * d);

        // The reference: K_mm from the stored landmarks, its inverse square root by eigendecomposition.
        Eigen::MatrixXd k(m, m);
        for (unsigned a = 0; a < m; ++a)
            for (unsigned b = 0; b < m; ++b) k(a, b) = gaussian(&landmarks[a * d], &landmarks[b * d], d, sigma);
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(k);
        REQUIRE(eig.eigenvalues()(0) > 1e-6);  // well conditioned: no eigenvalue dropped
        const Eigen::MatrixXd root =
            eig.eigenvectors() * eig.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal() * eig.eigenvectors().transpose();

        const std::size_t n = 11;
        std::vector<float> x(n * d);
        for (std::size_t r = 0; r < n; ++r) {
            const auto v = test_vector(d, 100 + r);
            std::copy(v.begin(), v.end(), x.begin() + r * d);
        }
        for (kfm::isa i : known_isas()) {
            if (!kfm::isa_available(i)) continue;
            for (bool batch : {false, true}) {
                const auto phi = features(buffer, i, x, n, batch);
                for (std::size_t r = 0; r < n; ++r) {
                    const float* xr = &x[r * d];
                    double x_sq = 0.0;
                    for (unsigned c = 0; c < d; ++c) x_sq += double(xr[c]) * xr[c];
                    Eigen::VectorXd kx(m), kx_err(m);
                    for (unsigned j = 0; j < m; ++j) {
                        kx(j) = gaussian(xr, &landmarks[j * d], d, sigma);
                        double l_sq = 0.0, dot = 0.0;
                        for (unsigned c = 0; c < d; ++c) l_sq += double(landmarks[j * d + c]) * landmarks[j * d + c], dot += double(xr[c]) * landmarks[j * d + c];
                        // float error of |x|^2 + |l|^2 - 2 x.l (d-term sums of terms up to that size),
                        // times 1 / (2 sigma^2), plus exp's and the rounding of k itself
                        const double dist_err = 0x1p-24 * (d + 3) * (x_sq + l_sq + 2 * std::fabs(dot));
                        kx_err(j) = kx(j) * (dist_err / (2 * sigma * sigma) + 4 * 0x1p-24);
                    }
                    const Eigen::VectorXd want = root * kx;
                    // |M| |k| carries M's rounding to float and the GEMV's sums (m + 2 roundings).
                    const Eigen::VectorXd tol = root.cwiseAbs() * (kx_err + kx.cwiseAbs() * (m + 3) * 0x1p-24);
                    for (unsigned j = 0; j < m; ++j) {
                        INFO(init << " " << kfm::isa_name(i) << (batch ? " batch" : " one") << " row " << r << " feature " << j);
                        CHECK(std::fabs(phi[r * m + j] - want(j)) <= 2 * tol(j));
                    }
                }
            }
        }
    }
}

TEST_CASE("nystroem: with every row a landmark (m = N) the approximate Gram matrix is the exact one") {
    const unsigned d = 6, n = 40;
    const double sigma = 0.6;
    const auto options = nystroem_options(d, n, n, sigma, "uniform", 4);
    const file_buffer buffer(kfm::offline::serialize(kfm::offline::build_map(options)));
    const auto phi = features(buffer, kfm::isa::automatic, options.data, n, true);
    double worst = 0.0;
    for (unsigned a = 0; a < n; ++a)
        for (unsigned b = 0; b < n; ++b) {
            double approx = 0.0;
            for (unsigned j = 0; j < n; ++j) approx += double(phi[a * n + j]) * phi[b * n + j];
            worst = std::fmax(worst, std::fabs(approx - gaussian(&options.data[a * d], &options.data[b * d], d, sigma)));
        }
    MESSAGE("m = N = " << n << ": largest |phi(x_a).phi(x_b) - k(x_a, x_b)| = " << worst);
    CHECK(worst < 1e-4);
}
