// The kernel_landmarks projection (Nystroem): t = M k(x, L), where the m = projection_dim landmarks l_j
// are the rows of DENS (m x work_dim), their squared norms |l_j|^2 are in LNRM and M = K_mm^{-1/2}
// (m x m, row-major) is in KIRT. k(x, l_j) is a radial kernel of |x - l_j|^2 = |x|^2 + |l_j|^2 - 2 x.l_j:
// one dense GEMV for the dot products, the kernel table's kernel_of_dots, then a second GEMV by M.
// Kernels: gaussian, Matern with nu = 1/2, 3/2 or 5/2 (the closed forms) and rational quadratic.
// Scratch: the m kernel values.
#include <cmath>
#include <limits>

#include "kernels/kernel_table.hpp"
#include "format/checked.hpp"
#include "runtime/projection.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

// The projection's own sections (only this file reads them): |l_j|^2 and K_mm^{-1/2}.
section_view<float> landmark_norms(const map_state& map) {
    return map.own_view<fmt::projection::kernel_landmarks, section::landmark_norms>();
}
section_view<float> kernel_inverse_root(const map_state& map) {
    return map.own_view<fmt::projection::kernel_landmarks, section::kernel_inverse_root>();
}

// The meta's kernel as kernel_of_dots's parameters (kernel_table.hpp), computed in double and rounded once:
// unknown_kernel for a kernel (or Matern order) the projection does not compute, bad_parameter_value for
// parameters that are not finite floats. sigma, nu, alpha > 0 are check_kernel's.
status landmark_kernel_of(const fmt::map_meta& m, landmark_kernel* k) {
    const double l = m.kernel_sigma, shape = m.kernel_scale;  // shape: Matern nu, rational-quadratic alpha
    switch (static_cast<fmt::kernel>(m.kernel)) {
        case fmt::kernel::gaussian: *k = {landmark_kernel_kind::gaussian, float(-0.5 / (l * l)), 0.0f}; break;
        case fmt::kernel::matern:
            if (shape == 0.5) *k = {landmark_kernel_kind::matern_half, float(1.0 / l), 0.0f};
            else if (shape == 1.5) *k = {landmark_kernel_kind::matern_three_halves, float(std::sqrt(3.0) / l), 0.0f};
            else if (shape == 2.5) *k = {landmark_kernel_kind::matern_five_halves, float(std::sqrt(5.0) / l), 0.0f};
            else return status::unknown_kernel;
            break;
        case fmt::kernel::rational_quadratic:
            *k = {landmark_kernel_kind::rational_quadratic, float(0.5 / (shape * l * l)), float(-shape)};
            break;
        default: return status::unknown_kernel;
    }
    return std::isfinite(k->a) && std::isfinite(k->b) ? status::ok : status::bad_parameter_value;
}

// The kernel of a map that passed verify (so landmark_kernel_of returned ok).
landmark_kernel opened_kernel(const fmt::map_meta& m) {
    landmark_kernel k{};
    static_cast<void>(landmark_kernel_of(m, &k));
    return k;
}

// Each stored |l_j|^2 is the float nearest the landmark's squared norm: recomputed in double, it may differ
// by the float rounding only (2^-24 relative; 2^-20 allows for the sum's own rounding).
bool norms_match(const map_state& map) {
    const std::uint32_t m = map.meta->projection_dim, w = map.meta->work_dim;
    for (std::uint32_t j = 0; j < m; ++j) {
        const float* l = map.view<section::dense>().data + std::size_t(j) * w;
        double sq = 0.0;
        for (std::uint32_t i = 0; i < w; ++i) sq += double(l[i]) * double(l[i]);
        const double stored = landmark_norms(map).data[j];
        if (!(std::fabs(stored - sq) <= 0x1p-20 * sq + double(std::numeric_limits<float>::denorm_min()))) return false;
    }
    return true;
}

status kernel_landmarks_verify(const map_state& map) {
    const fmt::map_meta& m = *map.meta;
    landmark_kernel k;
    if (status s = landmark_kernel_of(m, &k); s != status::ok) return s;
    // The landmarks live in the input space: no padding, no appended value.
    if (m.work_dim != m.input_dim) return status::bad_meta;
    if (!map.view<section::dense>().present() || !landmark_norms(map).present() || !kernel_inverse_root(map).present())
        return status::missing_section;
    std::uint64_t square = 0;
    if (!checked_mul(std::uint64_t(m.projection_dim), std::uint64_t(m.projection_dim), &square))
        return status::bad_section_size;
    // Values are finite: the section table's element rule.
    if (map.view<section::dense>().count != std::uint64_t(m.projection_dim) * m.work_dim ||
        landmark_norms(map).count != m.projection_dim || kernel_inverse_root(map).count != square)
        return status::bad_section_size;
    return norms_match(map) ? status::ok : status::bad_parameter_value;
}

std::size_t kernel_landmarks_scratch_floats(const fmt::map_meta& meta) { return meta.projection_dim; }

// k (m floats) = the kernel of x against every landmark.
void kernel_row(const map_state& map, const float* x, float* k) {
    const fmt::map_meta& m = *map.meta;
    float x_sq = 0.0f;
    map.kernels->gemv(x, 1, m.work_dim, x, &x_sq);
    map.kernels->gemv(map.view<section::dense>().data, m.projection_dim, m.work_dim, x, k);
    map.kernels->kernel_of_dots(k, landmark_norms(map).data, x_sq, opened_kernel(m), m.projection_dim, k);
}

void kernel_landmarks_apply(const map_state& map, const float* x, float* t, float* scratch) {
    kernel_row(map, x, scratch);
    map.kernels->gemv(kernel_inverse_root(map).data, map.meta->projection_dim, map.meta->projection_dim, scratch, t);
}

#if !KFM_FIRMWARE  // the batched path (runtime/projection.hpp, KFM_BATCH_PATH)
std::size_t kernel_landmarks_batch_scratch_floats(const fmt::map_meta& meta, std::size_t rows) {
    return rows * meta.projection_dim;
}

// K = X L^T by one gemm, the kernel row by row, then T = K M^T by a second gemm.
void kernel_landmarks_apply_batch(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch) {
    const fmt::map_meta& m = *map.meta;
    const std::size_t p = m.projection_dim, w = m.work_dim;
    map.kernels->gemm(map.view<section::dense>().data, p, w, x, w, rows, scratch, p);
    const landmark_kernel kernel = opened_kernel(m);
    for (std::size_t r = 0; r < rows; ++r) {
        const float* xr = x + r * w;
        float x_sq = 0.0f;
        map.kernels->gemv(xr, 1, w, xr, &x_sq);
        map.kernels->kernel_of_dots(scratch + r * p, landmark_norms(map).data, x_sq, kernel, p, scratch + r * p);
    }
    map.kernels->gemm(kernel_inverse_root(map).data, p, p, scratch, p, rows, t, p);
}
#endif  // !KFM_FIRMWARE

// |x|^2, the dot products with the landmarks, exp per landmark (counted 8), then M k.
std::uint64_t kernel_landmarks_work(const map_state& map) {
    const std::uint64_t w = map.meta->work_dim, p = map.meta->projection_dim;
    return w + p * w + 8 * p + p * p;
}

// x.l_j (<= max |L| |x|_1), |x|^2 + |l_j|^2, then k in [0, 1] and every partial sum of M k <= m max |M|.
template <class M>
typename M::real kernel_landmarks_output_bound(const map_state& map, const input_norms<typename M::real>& x) {
    using real = typename M::real;
    using L = log2_magnitudes<M>;
    const real dots = L::log2_max_abs(map.view<section::dense>().data, map.view<section::dense>().count) + x.one;
    const real squares = L::log2_sum(real(2) * x.two, L::log2_max_abs(landmark_norms(map).data, landmark_norms(map).count));
    const real t = L::log2_max_abs(kernel_inverse_root(map).data, kernel_inverse_root(map).count) +
                   M::log2(real(map.meta->projection_dim));
    return L::larger(L::larger(dots + real(1), squares + real(1)), t);
}

}  // namespace

extern const projection_ops kernel_landmarks_projection = {
    kernel_landmarks_verify, kernel_landmarks_scratch_floats, kernel_landmarks_apply,
    KFM_BATCH_PATH(kernel_landmarks_batch_scratch_floats, kernel_landmarks_apply_batch),
    kernel_landmarks_work, KFM_OUTPUT_BOUNDS(kernel_landmarks_output_bound)};

}  // namespace kfm::detail
