// Nystroem's kernel_landmarks projection, for every kernel it computes (gaussian, Matern 1/2, 3/2, 5/2,
// rational quadratic): the runtime map (every ISA, one vector and batched) equals a double-precision
// phi = K_mm^{-1/2} k(x, L) computed here from the stored landmarks with the offline exact kernel (Matern
// through Boost's Bessel K, independent of the runtime's closed forms), within a bound derived from float
// rounding; and with every row as a landmark (m = N) the approximate Gram matrix on those rows is the
// exact one.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

// The kernels under test, each with a length scale that suits inputs in [-1, 1]^d.
std::vector<kfm::offline::kernel_spec> kernels() {
    using kfm::offline::kernel_spec;
    std::vector<kernel_spec> out;
    kernel_spec k;
    k.sigma = 1.3;
    out.push_back(k);  // gaussian
    k.kind = fmt::kernel::matern;
    for (double nu : {0.5, 1.5, 2.5}) {
        k.nu = nu;
        out.push_back(k);
    }
    k.kind = fmt::kernel::rational_quadratic;
    k.alpha = 0.8;
    out.push_back(k);
    return out;
}

kfm::offline::build_options nystroem_options(unsigned d, std::size_t rows, unsigned m,
                                             const kfm::offline::kernel_spec& kernel, const char* init,
                                             std::uint64_t data_seed) {
    kfm::offline::build_options o;
    o.method = fmt::method::nystroem;
    o.kernel = kernel;
    o.input_dim = d;
    o.features = m;
    o.seed = 7;
    o.landmark_init = kfm::offline::choice_named<kfm::offline::landmark_init_kind>(init);
    o.data_rows = rows;
    o.data.resize(rows * d);
    kfm::offline::rng r(data_seed);
    for (float& v : o.data) v = float(2.0 * r.uniform() - 1.0);
    return o;
}

std::string label(const kfm::offline::kernel_spec& k) {
    std::string out = kfm::offline::kernel_name(k.kind);
    if (k.kind == fmt::kernel::matern) out += " nu " + std::to_string(k.nu);
    if (k.kind == fmt::kernel::rational_quadratic) out += " alpha " + std::to_string(k.alpha);
    return out;
}

double kernel_of(const kfm::offline::kernel_spec& k, const float* a, const float* b, unsigned d) {
    std::vector<double> x(a, a + d), y(b, b + d);
    return kfm::offline::exact_kernel(k, x.data(), y.data(), d);
}

// The kernel at squared distance d2 (points sqrt(d2) and 0 on a line).
double kernel_at(const kfm::offline::kernel_spec& k, double d2) {
    const double x = std::sqrt(std::fmax(d2, 0.0)), zero = 0.0;
    return kfm::offline::exact_kernel(k, &x, &zero, 1);
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
    for (const auto& kernel : kernels())
        for (const char* init : {"uniform", "kmeans++"}) {
            const auto options = nystroem_options(d, 60, m, kernel, init, 21);
            const auto contents = kfm::offline::build_map(options);
            const file_buffer buffer(kfm::offline::serialize(contents));
            const auto landmarks = section_values<float>(contents, fmt::tag::dense);
            REQUIRE(landmarks.size() == std::size_t(m) * d);

            // The reference: K_mm from the stored landmarks, its inverse square root by eigendecomposition.
            Eigen::MatrixXd k(m, m);
            for (unsigned a = 0; a < m; ++a)
                for (unsigned b = 0; b < m; ++b) k(a, b) = kernel_of(kernel, &landmarks[a * d], &landmarks[b * d], d);
            const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(k);
            REQUIRE(eig.eigenvalues()(0) > 1e-6);  // well conditioned: no eigenvalue dropped
            const Eigen::MatrixXd root = eig.eigenvectors() * eig.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal() *
                                         eig.eigenvectors().transpose();

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
                            kx(j) = kernel_of(kernel, xr, &landmarks[j * d], d);
                            double l_sq = 0.0, dot = 0.0, d2 = 0.0;
                            for (unsigned c = 0; c < d; ++c) {
                                const double l = landmarks[j * d + c];
                                l_sq += l * l, dot += double(xr[c]) * l, d2 += (xr[c] - l) * (xr[c] - l);
                            }
                            // float error of |x|^2 + |l|^2 - 2 x.l (d-term sums of terms up to that size) moves
                            // the decreasing k at most to its values at d2 -+ that; plus the float functions'
                            // few ulp and the rounding of k itself
                            const double e = 0x1p-24 * (d + 3) * (x_sq + l_sq + 2 * std::fabs(dot));
                            kx_err(j) = kernel_at(kernel, d2 - e) - kernel_at(kernel, d2 + e) + 1e-6 * kx(j) + 4e-7;
                        }
                        const Eigen::VectorXd want = root * kx;
                        // |M| |k| carries M's rounding to float and the GEMV's sums (m + 2 roundings).
                        const Eigen::VectorXd tol = root.cwiseAbs() * (kx_err + kx.cwiseAbs() * (m + 3) * 0x1p-24);
                        for (unsigned j = 0; j < m; ++j) {
                            INFO(label(kernel) << " " << init << " "
                                 << kfm::isa_name(i) << (batch ? " batch" : " one") << " row " << r << " feature " << j);
                            CHECK(std::fabs(phi[r * m + j] - want(j)) <= 2 * tol(j));
                        }
                    }
                }
            }
        }
}

TEST_CASE("nystroem: with every row a landmark (m = N) the approximate Gram matrix is the exact one") {
    const unsigned d = 6, n = 40;
    for (auto kernel : kernels()) {
        kernel.sigma = 0.6;
        const auto options = nystroem_options(d, n, n, kernel, "uniform", 4);
        const file_buffer buffer(kfm::offline::serialize(kfm::offline::build_map(options)));
        const auto phi = features(buffer, kfm::isa::automatic, options.data, n, true);
        // The squared distances come from |x|^2 + |y|^2 - 2 x.y in float, so at x = y the runtime sees a d2
        // of a few ulp of 4 |x|^2 instead of 0; Matern 1/2, whose slope in d2 is infinite at 0, turns that
        // into an error of about sqrt(d2) / l (1.6e-3 measured here), the smooth kernels into almost none.
        double largest_sq = 0.0;
        for (unsigned a = 0; a < n; ++a) {
            double sq = 0.0;
            for (unsigned c = 0; c < d; ++c) sq += double(options.data[a * d + c]) * options.data[a * d + c];
            largest_sq = std::fmax(largest_sq, sq);
        }
        const double rounding = (d + 3) * 0x1p-24 * 4 * largest_sq;
        const double bound = 1e-4 + kernel_at(kernel, 0.0) - kernel_at(kernel, rounding);
        double worst = 0.0;
        for (unsigned a = 0; a < n; ++a)
            for (unsigned b = 0; b < n; ++b) {
                double approx = 0.0;
                for (unsigned j = 0; j < n; ++j) approx += double(phi[a * n + j]) * phi[b * n + j];
                worst = std::fmax(worst, std::fabs(approx - kernel_of(kernel, &options.data[a * d], &options.data[b * d], d)));
            }
        MESSAGE(label(kernel) << ": m = N = " << n
                << ": largest |phi(x_a).phi(x_b) - k(x_a, x_b)| = " << worst << " (bound " << bound << ")");
        CHECK(worst < bound);
    }
}
