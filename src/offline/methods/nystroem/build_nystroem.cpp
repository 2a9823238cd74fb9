// Builder for Nystroem (Williams and Seeger 2001), the data-dependent baseline: m landmarks l_j chosen
// among the rows of a data set (uniformly or by k-means++ seeding, landmarks.hpp), the landmark Gram
// matrix K_mm in double, and M = K_mm^{-1/2} from a symmetric eigendecomposition K_mm = V diag(lambda) V^T:
// M = V diag(lambda_k^{-1/2}) V^T over the eigenvalues above nystroem_relative_cutoff x lambda_max, the
// others dropped (a pseudo-inverse square root; scikit-learn instead clips them up to 1e-12). The map is
// phi(x) = M k(x, L), so phi(x).phi(y) = k_xL K_mm^+ k_Ly. Stored: the landmarks (DENS, f32, m x d), their
// squared norms (LNRM) and M (KIRT, f32, m x m); the runtime's kernel_landmarks projection. Kernels: the
// radial ones the runtime computes from squared distances (gaussian, Matern at nu = 1/2, 3/2, 5/2, rational
// quadratic); K_mm uses portable exp / log, so the file's bytes are the same on every architecture.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"
#include "offline/methods/nystroem/landmarks.hpp"
#include "offline/sampling/portable_math.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

// Eigenvalues of K_mm at or below this fraction of the largest are treated as 0.
constexpr double nystroem_relative_cutoff = 1e-12;

void check_options(const build_options& o) {
    const std::string where = "nystroem: ";
    const format::kernel kind = o.kernel.kind;
    if (kind != format::kernel::gaussian && kind != format::kernel::matern && kind != format::kernel::rational_quadratic)
        throw std::invalid_argument(where + "kernel '" + kernel_name(kind) +
                                    "' is not supported (nystroem builds gaussian, matern with " + option_name(o, option::nu) +
                                    " 0.5, 1.5 or 2.5, and rational-quadratic)");
    if (kind == format::kernel::matern && o.kernel.nu != 0.5 && o.kernel.nu != 1.5 && o.kernel.nu != 2.5) {
        char nu[32];
        std::snprintf(nu, sizeof nu, "%g", o.kernel.nu);
        throw std::invalid_argument(where + "matern " + option_name(o, option::nu) + " " + nu +
                                    " is not supported: the runtime computes the closed forms at nu = 0.5, 1.5 and 2.5");
    }
    if (!(o.kernel.sigma > 0.0) || !std::isfinite(o.kernel.sigma))
        throw std::invalid_argument(where + "sigma must be positive and finite");
    if (kind == format::kernel::rational_quadratic && (!(o.kernel.alpha > 0.0) || !std::isfinite(o.kernel.alpha)))
        throw std::invalid_argument(where + "rational-quadratic alpha must be positive and finite");
    if (o.data_rows == 0 || o.data.empty())
        throw std::invalid_argument(where + "needs a data set to choose the landmarks from (" + option_name(o, option::data) +
                                    (o.option_names == spelling::command_line ? " X.npy)" : ")"));
    if (o.input_dim == 0 || o.data.size() != o.data_rows * std::size_t(o.input_dim))
        throw std::invalid_argument(where + "the data has " + std::to_string(o.data.size() / o.data_rows) +
                                    " columns per row but " + option_name(o, option::input_dim) + " is " +
                                    std::to_string(o.input_dim));
    if (o.features < 1) throw std::invalid_argument(where + option_name(o, option::landmarks) + " must be at least 1");
    if (o.features > o.data_rows)
        throw std::invalid_argument(where + option_name(o, option::landmarks) + " " + std::to_string(o.features) + " is more than the " +
                                    std::to_string(o.data_rows) + " rows of the data");
    if (std::uint64_t(o.features) * o.features > (1ull << 28) || std::uint64_t(o.features) * o.input_dim > (1ull << 28))
        throw std::invalid_argument(where + "the stored matrices would exceed 1 GiB");
    if (choice_name(o.landmark_init) == nullptr)
        throw std::invalid_argument(where + "unknown landmark init " + std::to_string(static_cast<int>(o.landmark_init)) +
                                    " (uniform or kmeans++)");
    for (std::size_t i = 0; i < o.data.size(); ++i)
        if (!std::isfinite(o.data[i]))
            throw std::invalid_argument(where + "the data's row " + std::to_string(i / o.input_dim) + ", column " +
                                        std::to_string(i % o.input_dim) + " is not finite");
}

// A bandwidth so small (sigma^2, or alpha sigma^2, underflows double) that k(x, x) is 0 / 0: named, not
// reported as a failed eigensolver.
[[noreturn]] void refuse_tiny_bandwidth(const build_options& o) {
    char text[96];
    if (o.kernel.kind == format::kernel::rational_quadratic)
        std::snprintf(text, sizeof text, " %g with %s %g", o.kernel.sigma, option_name(o, option::alpha).c_str(), o.kernel.alpha);
    else
        std::snprintf(text, sizeof text, " %g", o.kernel.sigma);
    throw std::invalid_argument("nystroem: " + option_name(o, option::sigma) + text +
                                " is too small: the kernel between the landmarks is not finite in double precision");
}

// k(x, y) of the squared distance d2, in double with portable exp / log (as the runtime's kernel_of_dots).
double kernel_of_squared_distance(const kernel_spec& k, double d2) {
    switch (k.kind) {
        case format::kernel::matern: {
            const double u = std::sqrt(2.0 * k.nu * d2) / k.sigma;
            const double p = k.nu == 0.5 ? 1.0 : k.nu == 1.5 ? 1.0 + u : 1.0 + u + u * u / 3.0;
            return p * portable::exp(-u);
        }
        case format::kernel::rational_quadratic:
            return portable::exp(-k.alpha * portable::log(1.0 + d2 / (2.0 * k.alpha * k.sigma * k.sigma)));
        default: return portable::exp(-d2 * (0.5 / (k.sigma * k.sigma)));  // gaussian
    }
}

// M = K^{-1/2} over the eigenvalues above the cutoff, row-major, rounded to float. The product is written
// out (not Eigen's blocked GEMM) so its summation order is fixed: M_ij = sum over e ascending of
// (v_ie lambda_e^{-1/2}) v_je. It reads the rows of V from its transpose, contiguous (V is column-major:
// along a row it strides by m, a cache line and a page per term at m = 4096), and sums four j at once so
// the additions form independent chains; each M_ij still sums in the same order.
std::vector<float> inverse_root(const Eigen::MatrixXd& k) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(k);
    if (eig.info() != Eigen::Success) throw std::invalid_argument("nystroem: the landmark Gram matrix's eigensolver failed");
    const Eigen::VectorXd& lambda = eig.eigenvalues();  // ascending
    const std::size_t m = std::size_t(k.rows());
    const double cutoff = nystroem_relative_cutoff * lambda(Eigen::Index(m - 1));
    std::vector<double> inv_root(m, 0.0);
    for (std::size_t e = 0; e < m; ++e)
        if (lambda(Eigen::Index(e)) > cutoff) inv_root[e] = 1.0 / std::sqrt(lambda(Eigen::Index(e)));
    const Eigen::MatrixXd vt = eig.eigenvectors().transpose();  // column i = row i of V
    const auto row = [&vt](std::size_t i) { return vt.data() + i * vt.rows(); };
    std::vector<float> out(m * m);
    std::vector<double> scaled(m);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t e = 0; e < m; ++e) scaled[e] = row(i)[e] * inv_root[e];
        std::size_t j = 0;
        for (; j + 4 <= m; j += 4) {
            const double *v0 = row(j), *v1 = row(j + 1), *v2 = row(j + 2), *v3 = row(j + 3);
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (std::size_t e = 0; e < m; ++e) {
                s0 += scaled[e] * v0[e];
                s1 += scaled[e] * v1[e];
                s2 += scaled[e] * v2[e];
                s3 += scaled[e] * v3[e];
            }
            out[i * m + j] = float(s0), out[i * m + j + 1] = float(s1);
            out[i * m + j + 2] = float(s2), out[i * m + j + 3] = float(s3);
        }
        for (; j < m; ++j) {
            double s = 0.0;
            for (std::size_t e = 0; e < m; ++e) s += scaled[e] * row(j)[e];
            out[i * m + j] = float(s);
        }
    }
    return out;
}

}  // namespace

map_contents build_nystroem(const build_options& o) {
    check_options(o);
    const std::size_t n = o.data_rows, d = o.input_dim, m = o.features;
    const bool kmeanspp = o.landmark_init == landmark_init_kind::kmeanspp;
    rng r(derive(o.seed, 0));
    const std::vector<std::size_t> rows =
        kmeanspp ? kmeanspp_landmarks(o.data.data(), n, d, m, r) : uniform_landmarks(n, m, r);

    std::vector<float> landmarks(m * d), norms(m);
    for (std::size_t j = 0; j < m; ++j) {
        double sq = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            const float v = o.data[rows[j] * d + i];
            landmarks[j * d + i] = v;
            sq += double(v) * double(v);
        }
        norms[j] = float(sq);
    }
    // K_mm of the stored (float) landmarks, in double.
    Eigen::MatrixXd k(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m));
    for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = 0; b <= a; ++b) {
            double s = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                const double t = double(landmarks[a * d + i]) - double(landmarks[b * d + i]);
                s += t * t;
            }
            const double value = kernel_of_squared_distance(o.kernel, s);
            if (!std::isfinite(value)) refuse_tiny_bandwidth(o);
            k(Eigen::Index(a), Eigen::Index(b)) = k(Eigen::Index(b), Eigen::Index(a)) = value;
        }

    map_contents map;
    format::map_meta& meta = map.meta;
    meta.method = static_cast<std::uint32_t>(format::method::nystroem);
    meta.kernel = static_cast<std::uint32_t>(o.kernel.kind);
    meta.projection = static_cast<std::uint32_t>(format::projection::kernel_landmarks);
    meta.input_dim = meta.work_dim = o.input_dim;
    meta.projection_dim = meta.output_dim = o.features;
    meta.output_convention = static_cast<std::uint32_t>(format::output_convention::real);
    meta.method_flags = kmeanspp ? format::method_flag_nystroem_kmeanspp : 0u;
    meta.kernel_sigma = o.kernel.sigma;
    if (o.kernel.kind == format::kernel::matern) meta.kernel_scale = o.kernel.nu;
    if (o.kernel.kind == format::kernel::rational_quadratic) meta.kernel_scale = o.kernel.alpha;
    meta.seed = o.seed;
    map.sections.push_back(
        make_segments_section({make_segment(format::nonlinearity::identity, 0, o.features, 0, 1.0f, 1.0f)}));
    map.sections.push_back(make_f32_section(format::tag::dense, landmarks));
    map.sections.push_back(make_f32_section(format::tag::landmark_norms, norms));
    map.sections.push_back(make_f32_section(format::tag::kernel_inverse_root, inverse_root(k)));
    return map;
}

}  // namespace kfm::offline
