// The compute kernels one ISA provides, as a table of function pointers chosen once at open.
// Every ISA (platforms/<isa>/) fills the same table from the same templated kernels in src/kernels/;
// the scalar table is the reference the tests compare every other ISA against.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"
#include "kernels/accumulator.hpp"

namespace kfm::detail {

// Arguments of the fused feature stage for n arguments a_i = s_i * t[i mod t_count]... see
// format::feature_segment. Here t has n entries already (the runtime passes each radial pass separately).
struct feature_args {
    format::nonlinearity kind;
    const float* t;          // n projections
    std::size_t n;
    const float* scale;      // per-argument scale, or null to use scale_scalar
    float scale_scalar;
    const float* weight;     // per-argument weight, or null
    float weight_scalar;     // multiplies every output
    const float* phase;      // cos_phase only
    float* out0;             // cos / f(a)
    float* out1;             // sin (cos_sin) / f(-a) (reflected), or null
};

// The kernels kernel_of_dots computes, as functions of the squared distance d2 = |x - l|^2:
//   gaussian              exp(a d2)                        a = -1 / (2 sigma^2)
//   matern_half           exp(-u)                          u = min(a sqrt(d2), 128), a = 1 / l
//   matern_three_halves   (1 + u) exp(-u)                  a = sqrt(3) / l
//   matern_five_halves    (1 + u + u^2 / 3) exp(-u)        a = sqrt(5) / l
//   rational_quadratic    (1 + a d2)^b = exp(b log1p(a d2))  a = 1 / (2 alpha l^2), b = -alpha
enum class landmark_kernel_kind : std::uint32_t { gaussian, matern_half, matern_three_halves, matern_five_halves, rational_quadratic };
struct landmark_kernel {
    landmark_kernel_kind kind;
    float a, b;
};

struct kernel_table {
    isa id;

    // Split-complex radix-2 FFT of length n = 2^log2_n (1 <= log2_n <= 16). Out-of-place; in == out
    // (re and im separately) is allowed. Unnormalised; inverse = conjugate exponent.
    // twiddles: fft_twiddle_floats(log2_n) floats made by fft_make_twiddles (format/fft_twiddles.hpp).
    void (*fft)(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                const float* twiddles, bool inverse);

    // Butterfly orthogonal network on x[0..d), d2 = 2^log2_d2 >= d. Applies `repeats` times
    // (all levels with cs, then gather y[i] = x[perm[i]]); transpose applies the exact inverse.
    // cs: 2*(d2-1) floats, (cos, sin) for angle index s+h-1 of the block at s
    // (docs/methods.md, "The butterfly network").
    // scratch: d floats.
    void (*butterfly)(float* x, unsigned d, unsigned log2_d2, const float* cs, const std::uint32_t* perm,
                      unsigned repeats, bool transpose, float* scratch);

    // Normalised Walsh-Hadamard transform in place: x <- H diag(s) x, s from sign bits (null: all +1).
    void (*fwht)(float* x, unsigned log2_n, const std::uint8_t* sign_bits);

    // y[rows] = A[rows x cols] x, A row-major.
    void (*gemv)(const float* a, std::size_t rows, std::size_t cols, const float* x, float* y);

    // Y[n x rows] = X[n x cols] A^T (row strides ldx, ldy).
    void (*gemm)(const float* a, std::size_t rows, std::size_t cols, const float* x, std::size_t ldx,
                 std::size_t n, float* y, std::size_t ldy);

    // Fused feature stage: scale, nonlinearity, weight, written straight into out0/out1.
    void (*features)(const feature_args& args);

    // Block products: out[j] = weight * prod_{l < factors} (scale * t[l * stride + j]) for j < n, in float
    // (kernels/block_product.hpp: within 2 factors float roundings of the exact product); factors >= 1.
    void (*block_product)(const float* t, std::size_t stride, unsigned factors, std::size_t n, float scale, float weight,
                          float* out);
    // Complex block products: re[j] + i im[j] = weight * prod_{l < factors} scale * (t[2l stride + (j + l) mod stride]
    // + i t[(2l + 1) stride + (j + l) mod stride]) for j < n <= stride, in float
    // (kernels/complex_block_product.hpp: the error bound against the factors' magnitudes); factors >= 1.
    void (*complex_block_product)(const float* t, std::size_t stride, unsigned factors, std::size_t n, float scale,
                                  float weight, float* re, float* im);

    // Interleaved batch FFT: fft_batch_lanes vectors transformed together, element k of vector v at
    // re[k * fft_batch_lanes + v] (same for im), so every stage is a vertical SIMD operation. Same transform,
    // twiddles and aliasing rules as fft. fft_batch_lanes is the ISA's float lane count (1 on scalar).
    unsigned fft_batch_lanes;
    void (*fft_batch)(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                      const float* twiddles, bool inverse);
    // fft_batch's transform of one vector stored contiguously (arguments and aliasing as fft): exactly the
    // floating-point operations of each of fft_batch's lanes, vectorised along the vector, so a single
    // vector gets the bits it gets in any batch (kernels/fft_batch_row.hpp).
    void (*fft_batch_row)(const float* in_re, const float* in_im, float* out_re, float* out_im, unsigned log2_n,
                          const float* twiddles, bool inverse);

    // out[k r + v] = s_k in[k r + v] for k < n, v < r, s_k = -1 where bit first + k of bits is set;
    // r is 1 or fft_batch_lanes (one bit per element of an interleaved batch: SSF's batches). in == out is
    // allowed.
    void (*flip_signs)(const float* in, const std::uint8_t* bits, std::size_t first, std::size_t n, std::size_t r,
                       float* out);
    // SSF's FFT input of one block (kernels/expand.hpp): for the real half (h = 0) and the imaginary half
    // (h = 1), out[h n + k] = s_{h n + k} scale e_k for k < n, e_k = in[h count + rank k] where bit k of bits
    // is set (rank k: the set bits before k) and 0 where it is clear, s_j = -1 where bit first + j of signs is
    // set (the float's sign bit flipped, zeros included). `count` is the number of set bits among bits[0 .. n)
    // (the caller knows it; the kernel reads exactly in[0 .. 2 count)). out holds 2 n floats; in and out do
    // not overlap.
    void (*expand)(const float* in, std::size_t count, const std::uint8_t* bits, std::size_t n, float scale,
                   const std::uint8_t* signs, std::size_t first, float* out);

    // A quadrature rule's projection for butterfly_simplex_batch_rows vectors at once, interleaved (element
    // i of vector v at [i * butterfly_simplex_batch_rows + v]): y = M x with the forward butterfly network (as
    // butterfly, transpose = false), then t_j = diag_j y_j - sum_{i<j} r_i y_i for j < d and
    // t_d = -sum_i r_i y_i (r, diag: d floats each). t has (d+1) rows; x and t do not overlap; scratch holds
    // d * butterfly_simplex_batch_rows floats. The rows are a multiple of the ISA's float lanes (4 on scalar),
    // at most max_butterfly_simplex_batch_rows.
    unsigned butterfly_simplex_batch_rows;
    void (*butterfly_simplex_batch)(const float* x, float* t, unsigned d, unsigned log2_d2, const float* cs,
                                    const std::uint32_t* perm, unsigned repeats, const float* r, const float* diag,
                                    float* scratch);
    // butterfly_simplex_batch for one vector x (d floats) and `rules` consecutive rules: rule k's angles at
    // cs + k * 2 (d2 - 1), its permutation at perm + k * d, its d+1 projections at t + k * (d+1). The same
    // operations as each of the batch's lanes, so the single-vector path gives every row exactly its batch
    // values. x and t do not overlap; scratch holds 2 d floats. blocked: every rule's permutation is blocked
    // (format::method_flag_quadrature_blocked_permutation; d a multiple of 8), which AVX2 and AVX-512 gather
    // eight floats at a time; the values are the same as with blocked false.
    void (*butterfly_simplex_row)(const float* x, float* t, unsigned rules, unsigned d, unsigned log2_d2, const float* cs,
                                  const std::uint32_t* perm, bool blocked, unsigned repeats, const float* r,
                                  const float* diag, float* scratch);

    // out[j] = k(max(x_sq + l_sq[j] - 2 dot[j], 0)) for j < n: a radial kernel against n points from their
    // dot products with x (kernels/kernel_of_dots.hpp). dot == out is allowed.
    void (*kernel_of_dots)(const float* dot, const float* l_sq, float x_sq, const landmark_kernel& k, std::size_t n,
                           float* out);
    // factors[r] = exp(-|x_r|^2 / 2) for r < rows, x_r the d floats at x + r x_stride (maclaurin-opt's Gaussian
    // prefactor, kernels/gaussian_factors.hpp), in the runtime's accumulator: a row gets the same bits whatever
    // its batch.
    void (*gaussian_factors)(const float* x, std::size_t x_stride, std::size_t d, std::size_t rows,
                             accumulator* factors);
    // out[i] = (x[i] - shift[i]) * scale[i] for i < n (PREP's input scaling, kernels/shift_scale.hpp), in float,
    // the same bits on every ISA; out does not overlap the inputs.
    void (*shift_scale)(const float* x, const float* shift, const float* scale, std::size_t n, float* out);
};

// The widest butterfly_simplex_batch_rows of any ISA (8: AVX2, and AVX-512, which runs the 8-lane kernel),
// for sizing batch scratch from the meta alone.
constexpr unsigned max_butterfly_simplex_batch_rows = 8;

// Whether every entry of t is set. Each platform static_asserts it on its table, which make_table fills
// member by member by name; the structured binding stops compiling when a member is added to kernel_table
// without being added here.
constexpr bool is_complete(const kernel_table& t) noexcept {
    const auto& [id, fft, butterfly, fwht, gemv, gemm, features, block_product, complex_block_product, fft_batch_lanes, fft_batch, fft_batch_row, flip_signs, expand,
                 butterfly_simplex_batch_rows, butterfly_simplex_batch, butterfly_simplex_row, kernel_of_dots,
                 gaussian_factors, shift_scale] = t;
    return id != isa::automatic && fft != nullptr && butterfly != nullptr && fwht != nullptr && gemv != nullptr &&
           gemm != nullptr && features != nullptr && block_product != nullptr && complex_block_product != nullptr && fft_batch_lanes >= 1 && fft_batch != nullptr && fft_batch_row != nullptr &&
           flip_signs != nullptr && expand != nullptr &&
           butterfly_simplex_batch_rows >= 1 && butterfly_simplex_batch_rows <= max_butterfly_simplex_batch_rows &&
           butterfly_simplex_batch != nullptr && butterfly_simplex_row != nullptr && kernel_of_dots != nullptr &&
           gaussian_factors != nullptr && shift_scale != nullptr;
}

// The compile-time form of is_complete for a platform's table. GCC does not constant-fold comparisons of
// function addresses under AddressSanitizer, so sanitizer builds skip it (every other build checks it,
// and tests/kernels/dispatch_test.cpp checks every table at run time).
#if defined(__SANITIZE_ADDRESS__)
#define KFM_CHECK_TABLE_COMPLETE(table) static_assert(true, "")
#else
#define KFM_CHECK_TABLE_COMPLETE(table) static_assert(::kfm::detail::is_complete(table), "make_table sets every kernel")
#endif

}  // namespace kfm::detail
