// The kernel checks on the device: every kernel of every table the build holds (the mve table on a core
// with MVE-F, Cortex-M55, and the scalar table beside it; the scalar table alone elsewhere) against a plain
// double-precision reference written from its definition (src/kernels/kernel_table.hpp) on deterministic
// random inputs, with the references (tests/kernels/kernel_reference.hpp) and tolerances of the native kernel
// tests (tests/kernels/, where NEON and AVX are held to the same references), which need a hosted C++
// library the bare-metal toolchain lacks. Each table
// gets the same inputs (the generator restarts per table). Also checks that the ISA registry chose mve on
// an MVE-F core and scalar elsewhere, and claims no other ISA. Prints the table the runtime chose
// ("isa NAME"), a line per failed case ("FAIL TABLE ..."), a line per table and kernel, and
// "kernels: N passed, M failed". No heap: every buffer is static.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "format/fft_twiddles.hpp"
#include "kernel_reference.hpp"
#include "kernels/kernel_table.hpp"
#include "peers/fwht_naive.hpp"
#include "runtime/isa_registry.hpp"
#include "semihosting.h"

namespace {

using kfm::detail::feature_args;
using kfm::detail::kernel_table;
using kfm::detail::landmark_kernel;
using kfm::format::nonlinearity;
using kfm_test::test_rng;

const double pi = 3.14159265358979323846;

int kernel_passed = 0, kernel_failed = 0, total_passed = 0, total_failed = 0;
const char* table_name = "";  // the table under test, printed before each kernel name

// One case: counted, and printed when it fails.
void expect(bool ok, const char* kernel, const char* what, long size, double error = 0) {
    if (ok) {
        ++kernel_passed;
        return;
    }
    ++kernel_failed;
    sh_puts("FAIL ");
    sh_puts(table_name);
    sh_puts(" ");
    sh_puts(kernel);
    sh_puts(" ");
    sh_puts(what);
    sh_puts(" size ");
    sh_put_int(size);
    sh_puts(" error ");
    sh_put_float(float(error));
    sh_puts("\n");
}

void end_kernel(const char* kernel) {
    sh_puts(table_name);
    sh_puts(" ");
    sh_puts(kernel);
    sh_puts(": ");
    sh_put_int(kernel_passed);
    sh_puts(" passed, ");
    sh_put_int(kernel_failed);
    sh_puts(" failed\n");
    total_passed += kernel_passed;
    total_failed += kernel_failed;
    kernel_passed = kernel_failed = 0;
}

double max_d(double a, double b) { return a > b ? a : b; }

constexpr unsigned max_log2_fft = 10;       // fft: every pass shape of the mve FFT (radix-4 at h = 4 .. 256)
constexpr unsigned max_log2_fft_batch = 8;  // fft_batch: L interleaved vectors of up to 256
constexpr std::size_t max_n = 1024;
float buf_a[max_n * 16], buf_b[max_n * 16], buf_c[max_n * 16], buf_d[max_n * 16], buf_e[max_n * 16];
double ref_re[max_n], ref_im[max_n];
float twiddles[4 * max_n];
std::uint8_t bits[max_n / 8 + 16];
std::uint32_t perm[max_n];

// ---- fft and fft_batch: the naive DFT in double (sign -1 forward, +1 inverse), its n roots of unity
// computed once per call
double root_cos[max_n], root_sin[max_n];

void naive_dft(const float* re, const float* im, std::size_t stride, std::size_t n, bool inverse) {
    for (std::size_t m = 0; m < n; ++m) {
        const double angle = (inverse ? 2.0 : -2.0) * pi * double(m) / double(n);
        root_cos[m] = std::cos(angle);
        root_sin[m] = std::sin(angle);
    }
    for (std::size_t k = 0; k < n; ++k) {
        double sr = 0, si = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const double c = root_cos[(j * k) % n], s = root_sin[(j * k) % n];
            sr += re[j * stride] * c - im[j * stride] * s;
            si += re[j * stride] * s + im[j * stride] * c;
        }
        ref_re[k] = sr;
        ref_im[k] = si;
    }
}

// sqrt(sum |y - ref|^2 / sum |ref|^2) over the n elements at stride
double relative_rms(const float* re, const float* im, std::size_t stride, std::size_t n) {
    double num = 0, den = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const double dr = re[k * stride] - ref_re[k], di = im[k * stride] - ref_im[k];
        num += dr * dr + di * di;
        den += ref_re[k] * ref_re[k] + ref_im[k] * ref_im[k];
    }
    return std::sqrt(num / den);
}

// The FFT checks' input: count complex values uniform in [-1, 1), real parts at re, imaginary parts at im
// (drawn real then imaginary, element by element).
void random_split_complex(test_rng& rng, float* re, float* im, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        re[i] = rng.uniform(-1, 1);
        im[i] = rng.uniform(-1, 1);
    }
}

void check_fft(const kernel_table& t, test_rng& rng) {
    static_assert(sizeof twiddles / sizeof(float) >= 2 * max_n, "twiddles holds the largest table");
    for (unsigned log2_n = 1; log2_n <= max_log2_fft; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        expect(kfm::detail::fft_twiddle_floats(log2_n) <= sizeof twiddles / sizeof(float), "fft", "twiddle table size",
               long(n));
        kfm::detail::fft_make_twiddles(log2_n, twiddles);
        const double bound = 2e-7 * (log2_n + 2);
        for (bool inverse : {false, true}) {
            random_split_complex(rng, buf_a, buf_b, n);
            naive_dft(buf_a, buf_b, 1, n, inverse);
            t.fft(buf_a, buf_b, buf_c, buf_d, log2_n, twiddles, inverse);
            double e = relative_rms(buf_c, buf_d, 1, n);
            expect(e < bound, "fft", inverse ? "inverse, out of place" : "forward, out of place", long(n), e);
            t.fft(buf_a, buf_b, buf_a, buf_b, log2_n, twiddles, inverse);
            e = relative_rms(buf_a, buf_b, 1, n);
            expect(e < bound, "fft", inverse ? "inverse, in place" : "forward, in place", long(n), e);
        }
    }
    end_kernel("fft");
}

// L interleaved vectors (element k of vector v at [k L + v]), each against the naive DFT.
void check_fft_batch(const kernel_table& t, test_rng& rng) {
    const std::size_t lanes = t.fft_batch_lanes;
    for (unsigned log2_n = 1; log2_n <= max_log2_fft_batch; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        kfm::detail::fft_make_twiddles(log2_n, twiddles);
        for (bool inverse : {false, true}) {
            random_split_complex(rng, buf_a, buf_b, n * lanes);
            t.fft_batch(buf_a, buf_b, buf_c, buf_d, log2_n, twiddles, inverse);
            double worst = 0;
            for (std::size_t v = 0; v < lanes; ++v) {
                naive_dft(buf_a + v, buf_b + v, lanes, n, inverse);
                worst = max_d(worst, relative_rms(buf_c + v, buf_d + v, lanes, n));
            }
            expect(worst < 2e-7 * (log2_n + 2), "fft_batch", inverse ? "inverse" : "forward", long(n), worst);
        }
    }
    end_kernel("fft_batch");
}

// ---- fft_batch_row: one contiguous vector, bit for bit what fft_batch gives its lane 0 (the single-vector
// SSF path must give every row its batch values), out of place and in place
void check_fft_batch_row(const kernel_table& t, test_rng& rng) {
    const std::size_t lanes = t.fft_batch_lanes;
    for (unsigned log2_n = 1; log2_n <= max_log2_fft_batch; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        kfm::detail::fft_make_twiddles(log2_n, twiddles);
        for (bool inverse : {false, true}) {
            random_split_complex(rng, buf_a, buf_b, n * lanes);
            t.fft_batch(buf_a, buf_b, buf_c, buf_d, log2_n, twiddles, inverse);
            float* re = buf_e;  // lane 0, contiguous
            float* im = buf_e + n;
            float* out_re = buf_e + 2 * n;
            float* out_im = buf_e + 3 * n;
            for (std::size_t k = 0; k < n; ++k) { re[k] = buf_a[k * lanes]; im[k] = buf_b[k * lanes]; }
            t.fft_batch_row(re, im, out_re, out_im, log2_n, twiddles, inverse);
            long differ = 0;
            for (std::size_t k = 0; k < n; ++k) differ += out_re[k] != buf_c[k * lanes] || out_im[k] != buf_d[k * lanes];
            expect(differ == 0, "fft_batch_row", inverse ? "inverse, out of place" : "forward, out of place", long(n), double(differ));
            t.fft_batch_row(re, im, re, im, log2_n, twiddles, inverse);
            differ = 0;
            for (std::size_t k = 0; k < n; ++k) differ += re[k] != out_re[k] || im[k] != out_im[k];
            expect(differ == 0, "fft_batch_row", inverse ? "inverse, in place" : "forward, in place", long(n), double(differ));
        }
    }
    end_kernel("fft_batch_row");
}

// ---- butterfly: the network's definition in double (kernel_reference.hpp), as tests/kernels/butterfly_test.cpp;
// the angles' (cos, sin) live in `twiddles`
struct network {
    unsigned d, log2_d2;
};

network make_network(unsigned d, test_rng& rng) {
    const network net{d, kfm_test::butterfly_log2_d2(d)};
    kfm_test::random_rotations(rng, net.log2_d2, twiddles);
    kfm_test::random_permutation(rng, d, perm);
    return net;
}

void reference_butterfly(const network& net, double* x, double* scratch, unsigned repeats) {
    kfm_test::reference_butterfly(twiddles, perm, net.d, net.log2_d2, repeats, x, scratch);
}

const unsigned butterfly_sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 100};

void check_butterfly(const kernel_table& t, test_rng& rng) {
    for (unsigned d : butterfly_sizes) {
        const network net = make_network(d, rng);
        for (unsigned repeats : {1u, 3u}) {
            for (unsigned i = 0; i < d; ++i) buf_a[i] = buf_b[i] = rng.uniform(-1, 1);
            for (unsigned i = 0; i < d; ++i) ref_re[i] = buf_a[i];
            reference_butterfly(net, ref_re, ref_im, repeats);
            t.butterfly(buf_a, d, net.log2_d2, twiddles, perm, repeats, false, buf_c);
            double worst = 0, worst_inverse = 0;
            for (unsigned i = 0; i < d; ++i) worst = max_d(worst, std::fabs(buf_a[i] - ref_re[i]));
            expect(worst < 2e-6 * (net.log2_d2 + 1) * repeats * std::sqrt(double(d)), "butterfly", "forward", d, worst);
            t.butterfly(buf_a, d, net.log2_d2, twiddles, perm, repeats, true, buf_c);  // transpose == inverse
            for (unsigned i = 0; i < d; ++i) worst_inverse = max_d(worst_inverse, std::fabs(buf_a[i] - buf_b[i]));
            expect(worst_inverse < 4e-6 * (net.log2_d2 + 1) * repeats * std::sqrt(double(d)), "butterfly",
                   "transpose undoes forward", d, worst_inverse);
        }
    }
    end_kernel("butterfly");
}

// ---- butterfly_simplex_batch: per interleaved row, the forward butterfly (in double) then the simplex step
void check_butterfly_simplex_batch(const kernel_table& t, test_rng& rng) {
    const std::size_t rows = t.butterfly_simplex_batch_rows;
    float* r = buf_d;
    float* diag = buf_e;
    for (unsigned d : butterfly_sizes) {
        const network net = make_network(d, rng);
        kfm_test::simplex_coefficients(d, r, diag);
        for (unsigned repeats : {1u, 2u}) {
            for (std::size_t i = 0; i < d * rows; ++i) buf_a[i] = rng.uniform(-1, 1);
            t.butterfly_simplex_batch(buf_a, buf_b, d, net.log2_d2, twiddles, perm, repeats, r, diag, buf_c);
            double worst = 0;
            for (std::size_t v = 0; v < rows; ++v) {
                for (unsigned i = 0; i < d; ++i) ref_re[i] = buf_a[i * rows + v];
                reference_butterfly(net, ref_re, ref_im, repeats);
                double below = 0;  // sum_{i<j} r_i y_i
                for (unsigned j = 0; j <= d; ++j) {
                    const double want = j < d ? double(diag[j]) * ref_re[j] - below : -below;
                    worst = max_d(worst, std::fabs(buf_b[j * rows + v] - want));
                    if (j < d) below += double(r[j]) * ref_re[j];
                }
            }
            expect(worst < 4e-6 * (net.log2_d2 + 1) * repeats * std::sqrt(double(d)), "butterfly_simplex_batch",
                   "rows", d, worst);
        }
    }
    end_kernel("butterfly_simplex_batch");
}

// ---- butterfly_simplex_row: one vector through consecutive rules, bit for bit what butterfly_simplex_batch
// gives its lane 0 (the single-vector quadrature path must give every row its batch values), each rule of a
// multi-rule call exactly as if alone
void check_butterfly_simplex_row(const kernel_table& t, test_rng& rng) {
    const std::size_t rows = t.butterfly_simplex_batch_rows;
    float* r = buf_d;
    float* diag = buf_e;
    for (unsigned d : butterfly_sizes) {
        const network net = make_network(d, rng);  // rule 0; rule 1's angles and permutation follow it
        const std::size_t angles = 2 * ((std::size_t(1) << net.log2_d2) - 1);
        kfm_test::random_rotations(rng, net.log2_d2, twiddles + angles);
        kfm_test::random_permutation(rng, d, perm + d);
        kfm_test::simplex_coefficients(d, r, diag);
        for (unsigned repeats : {1u, 3u}) {
            for (std::size_t i = 0; i < d * rows; ++i) buf_a[i] = rng.uniform(-1, 1);
            t.butterfly_simplex_batch(buf_a, buf_b, d, net.log2_d2, twiddles, perm, repeats, r, diag, buf_c);
            float* x = buf_a + d * rows;           // lane 0, contiguous
            float* both = buf_b + (d + 1) * rows;  // rules 0 and 1 in one call
            float* alone = both + 2 * (d + 1);     // rule 1 alone
            for (unsigned i = 0; i < d; ++i) x[i] = buf_a[i * rows];
            t.butterfly_simplex_row(x, both, 2, d, net.log2_d2, twiddles, perm, false, repeats, r, diag, buf_c);
            t.butterfly_simplex_row(x, alone, 1, d, net.log2_d2, twiddles + angles, perm + d, false, repeats, r, diag,
                                    buf_c);
            long differ = 0;
            for (unsigned j = 0; j <= d; ++j) differ += both[j] != buf_b[j * rows] || both[d + 1 + j] != alone[j];
            expect(differ == 0, "butterfly_simplex_row", "rows of two rules", d, double(differ));
        }
    }
    end_kernel("butterfly_simplex_row");
}

// ---- fwht: the plain loop in double (bench/peers/fwht_naive.hpp)
void check_fwht(const kernel_table& t, test_rng& rng) {
    for (unsigned log2_n = 0; log2_n <= 10; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        for (bool with_signs : {false, true}) {
            for (std::size_t i = 0; i < n / 8 + 1; ++i) bits[i] = std::uint8_t(rng.next());
            for (std::size_t i = 0; i < n; ++i) ref_re[i] = buf_a[i] = rng.uniform(-1, 1);
            kfm::detail::naive_fwht(ref_re, log2_n, with_signs ? bits : nullptr);
            t.fwht(buf_a, log2_n, with_signs ? bits : nullptr);
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i) worst = max_d(worst, std::fabs(buf_a[i] - ref_re[i]));
            expect(worst < 1e-6 * (log2_n + 1), "fwht", with_signs ? "with signs" : "without signs", long(n), worst);
        }
    }
    end_kernel("fwht");
}

// ---- gemv and gemm: the naive product in double
const std::size_t dense_rows[] = {1, 2, 3, 4, 5, 13, 64};
const std::size_t dense_cols[] = {1, 3, 4, 8, 15, 16, 17, 37, 100};

void check_dense(const kernel_table& t, test_rng& rng) {
    for (std::size_t rows : dense_rows)
        for (std::size_t cols : dense_cols) {
            for (std::size_t i = 0; i < rows * cols; ++i) buf_a[i] = rng.uniform(-1, 1);
            for (std::size_t j = 0; j < cols; ++j) buf_b[j] = rng.uniform(-1, 1);
            buf_c[rows] = 777.0f;
            t.gemv(buf_a, rows, cols, buf_b, buf_c);
            double worst = 0;
            for (std::size_t i = 0; i < rows; ++i) {
                double ref = 0;
                for (std::size_t j = 0; j < cols; ++j) ref += double(buf_a[i * cols + j]) * buf_b[j];
                worst = max_d(worst, std::fabs(buf_c[i] - ref));
            }
            expect(worst < 1e-6 * double(cols + 4) && buf_c[rows] == 777.0f, "gemv", "product", long(rows * cols), worst);
        }
    end_kernel("gemv");
    for (std::size_t rows : dense_rows)
        for (std::size_t cols : dense_cols)
            for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(8)}) {
                const std::size_t ldx = cols + 1, ldy = rows + 2;
                for (std::size_t i = 0; i < rows * cols; ++i) buf_a[i] = rng.uniform(-1, 1);
                for (std::size_t i = 0; i < n * ldx; ++i) buf_b[i] = rng.uniform(-1, 1);
                for (std::size_t i = 0; i < n * ldy; ++i) buf_c[i] = 777.0f;
                t.gemm(buf_a, rows, cols, buf_b, ldx, n, buf_c, ldy);
                double worst = 0;
                bool untouched = true;
                for (std::size_t v = 0; v < n; ++v) {
                    for (std::size_t i = 0; i < rows; ++i) {
                        double ref = 0;
                        for (std::size_t j = 0; j < cols; ++j) ref += double(buf_a[i * cols + j]) * buf_b[v * ldx + j];
                        worst = max_d(worst, std::fabs(buf_c[v * ldy + i] - ref));
                    }
                    for (std::size_t i = rows; i < ldy; ++i) untouched = untouched && buf_c[v * ldy + i] == 777.0f;
                }
                expect(worst < 1e-6 * double(cols + 4) && untouched, "gemm", "strided product", long(n * rows * cols),
                       worst);
            }
    end_kernel("gemm");
}

// ---- features: every nonlinearity against its double definition (tolerances of tests/kernels/features_test.cpp)
using kfm_test::real_feature;

const nonlinearity feature_kinds[] = {nonlinearity::cos_sin, nonlinearity::cos_phase, nonlinearity::relu,
                                      nonlinearity::step,    nonlinearity::relu2,     nonlinearity::identity};

void check_features(const kernel_table& t, test_rng& rng) {
    float* tv = buf_a;
    float* scale = buf_b;
    float* weight = buf_c;
    float* phase = buf_d;
    float* out0 = buf_e;
    float* out1 = buf_e + max_n;
    for (nonlinearity kind : feature_kinds)
        for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(17), std::size_t(100)})
            for (int form = 0; form < 8; ++form) {
                const bool per_scale = form & 1, per_weight = form & 2;
                const bool reflect = (form & 4) && kind != nonlinearity::cos_sin && kind != nonlinearity::cos_phase;
                const bool two_outputs = kind == nonlinearity::cos_sin || reflect;
                const float scale_scalar = (form & 4) ? 1.0f : 0.75f, weight_scalar = (form & 4) ? 1.0f : 1.25f;
                for (std::size_t i = 0; i < n; ++i) {
                    tv[i] = rng.uniform(-4.0f, 4.0f);
                    scale[i] = rng.uniform(0.5f, 2.0f);
                    weight[i] = rng.uniform(-1.5f, 1.5f);
                    phase[i] = rng.uniform(0.0f, 6.2831853f);
                }
                out0[n] = out1[n] = 12345.0f;  // nothing written past n
                feature_args f{};
                f.kind = kind;
                f.t = tv;
                f.n = n;
                f.scale = per_scale ? scale : nullptr;
                f.scale_scalar = scale_scalar;
                f.weight = per_weight ? weight : nullptr;
                f.weight_scalar = weight_scalar;
                f.phase = kind == nonlinearity::cos_phase ? phase : nullptr;
                f.out0 = out0;
                f.out1 = two_outputs ? out1 : nullptr;
                t.features(f);
                bool ok = out0[n] == 12345.0f && out1[n] == 12345.0f;
                double worst = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    const float a = (per_scale ? scale[i] : scale_scalar) * tv[i];
                    const double w = (per_weight ? double(weight[i]) : 1.0) * weight_scalar;
                    double r0 = 0, r1 = 0, tol = 0;
                    if (kind == nonlinearity::cos_sin) {
                        r0 = w * std::cos(double(a));
                        r1 = w * std::sin(double(a));
                        tol = 2.5e-7 * max_d(1.0, std::fabs(w));
                    } else if (kind == nonlinearity::cos_phase) {
                        const double arg = double(per_scale ? scale[i] : scale_scalar) * tv[i] + phase[i];
                        r0 = w * std::cos(arg);
                        tol = max_d(1.0, std::fabs(w)) * (2.5e-7 + 0x1p-23 * std::fabs(arg));
                    } else {
                        r0 = w * real_feature(kind, a);
                        r1 = w * real_feature(kind, -double(a));
                        tol = 4e-7 * max_d(1.0, std::fabs(r0) + std::fabs(r1));
                    }
                    const double e0 = std::fabs(out0[i] - r0), e1 = two_outputs ? std::fabs(out1[i] - r1) : 0.0;
                    ok = ok && e0 <= tol && e1 <= tol;
                    worst = max_d(worst, max_d(e0, e1));
                }
                static const char* const names[] = {"", "cos_sin", "cos_phase", "relu", "step", "relu2", "identity"};
                expect(ok, "features", names[int(kind)], long(n), worst);
            }
    end_kernel("features");
}

// ---- block_product: the double product of the same float inputs within 2k float roundings
// (src/kernels/block_product.hpp, as tests/kernels/block_product_test.cpp)
void check_block_product(const kernel_table& t, test_rng& rng) {
    for (unsigned factors = 1; factors <= 8; ++factors)
        for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(17), std::size_t(100)}) {
            for (std::size_t wider : {std::size_t(0), std::size_t(3)}) {  // a full block (wrapped rows) and a wider stride
                const std::size_t stride = n + wider;
                for (std::size_t i = 0; i < stride * factors; ++i) buf_a[i] = rng.uniform(-2, 2);
                buf_b[n] = 12345.0f;  // nothing written past n
                const float scale = 1.4142135f, weight = -0.35f;
                t.block_product(buf_a, stride, factors, n, scale, weight, buf_b);
                double worst = 0;
                bool ok = buf_b[n] == 12345.0f;
                for (std::size_t j = 0; j < n; ++j) {
                    double want = weight;
                    for (unsigned l = 0; l < factors; ++l) want *= double(scale) * buf_a[l * stride + (j + l) % stride];
                    const double error = std::fabs(buf_b[j] - want);
                    worst = max_d(worst, error);
                    ok = ok && error <= 2.0 * factors * 0x1p-24 * 1.001 * std::fabs(want);
                }
                expect(ok, "block_product", "product of rotated factor rows", long(n * factors), worst);
            }
        }
    end_kernel("block_product");
}

// ---- complex_block_product: the double complex product of the same float inputs within gamma_(3k - 1) of the
// factors' magnitudes (src/kernels/complex_block_product.hpp, as tests/kernels/complex_block_product_test.cpp)
void check_complex_block_product(const kernel_table& t, test_rng& rng) {
    for (unsigned factors = 1; factors <= 8; ++factors)
        for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(17), std::size_t(100)}) {
            for (std::size_t wider : {std::size_t(0), std::size_t(3)}) {  // a full block (wrapped rows) and a wider stride
                const std::size_t stride = n + wider;
                for (std::size_t i = 0; i < 2 * stride * factors; ++i) buf_a[i] = rng.uniform(-2, 2);
                buf_b[2 * n] = 12345.0f;  // [re | im], nothing written past them
                const float scale = 1.4142135f, weight = -0.35f;
                t.complex_block_product(buf_a, stride, factors, n, scale, weight, buf_b, buf_b + n);
                const double m = 3.0 * factors - 1.0, gamma = m * 0x1p-24 / (1.0 - m * 0x1p-24) * 1.001;
                double worst = 0;
                bool ok = buf_b[2 * n] == 12345.0f;
                for (std::size_t j = 0; j < n; ++j) {
                    double re = weight, im = 0, magnitudes = std::fabs(double(weight));
                    for (unsigned l = 0; l < factors; ++l) {
                        const std::size_t column = (j + l) % stride;
                        const double c = double(scale) * buf_a[2 * l * stride + column];
                        const double d = double(scale) * buf_a[(2 * l + 1) * stride + column];
                        const double next_re = re * c - im * d;
                        im = re * d + im * c;
                        re = next_re;
                        magnitudes *= std::fabs(c) + std::fabs(d);
                    }
                    const double error = std::fabs(buf_b[j] - re) + std::fabs(buf_b[n + j] - im);
                    worst = max_d(worst, error);
                    ok = ok && error <= gamma * magnitudes;
                }
                expect(ok, "complex_block_product", "complex product of rotated factor rows", long(n * factors), worst);
            }
        }
    end_kernel("complex_block_product");
}

// ---- flip_signs and expand: exact definitions
bool bit_set(std::size_t i) { return (bits[i >> 3] >> (i & 7)) & 1u; }

void check_flip_signs(const kernel_table& t, test_rng& rng) {
    for (std::size_t r : {std::size_t(1), std::size_t(t.fft_batch_lanes)})
        for (std::size_t first = 0; first <= 40; first += 3)
            for (std::size_t n : {0, 1, 2, 7, 8, 9, 31, 33, 100, 256}) {
                for (std::size_t i = 0; i < (first + n + 7) / 8; ++i) bits[i] = std::uint8_t(rng.next());
                for (std::size_t i = 0; i < n * r; ++i) buf_a[i] = buf_c[i] = rng.uniform(-2.0f, 2.0f);
                t.flip_signs(buf_a, bits, first, n, r, buf_b);
                t.flip_signs(buf_c, bits, first, n, r, buf_c);  // in place
                bool ok = true;
                for (std::size_t i = 0; i < n * r; ++i) {
                    const float want = bit_set(first + i / r) ? -buf_a[i] : buf_a[i];
                    ok = ok && std::memcmp(&buf_b[i], &want, sizeof want) == 0 && std::memcmp(&buf_c[i], &want, sizeof want) == 0;
                }
                expect(ok, "flip_signs", r == 1 ? "one vector" : "interleaved", long(n));
            }
    end_kernel("flip_signs");
}

// expand: both halves (inputs buf_a[0 .. 2 set)), the block's signs from signs[] at bit `first`.
std::uint8_t signs[max_n / 4 + 16];
bool sign_set(std::size_t i) { return (signs[i >> 3] >> (i & 7)) & 1u; }

void check_expand(const kernel_table& t, test_rng& rng) {
    for (std::size_t n : {0, 1, 5, 8, 9, 31, 64, 100, 256})
        for (double density : {0.0, 0.1, 0.5, 0.9, 1.0})
            for (std::size_t first : {0, 3, 16}) {
                std::memset(bits, 0, (n + 7) / 8);
                std::size_t set = 0;
                for (std::size_t k = 0; k < n; ++k)
                    if (rng.uniform() < density) {
                        bits[k >> 3] |= std::uint8_t(1u << (k & 7));
                        ++set;
                    }
                for (std::size_t i = 0; i < (first + 2 * n + 7) / 8; ++i) signs[i] = std::uint8_t(rng.next());
                for (std::size_t i = 0; i < 2 * set; ++i) buf_a[i] = rng.uniform(-2.0f, 2.0f);
                for (std::size_t k = 0; k < 2 * n; ++k) buf_b[k] = 1234.5f;  // every element must be written
                const float scale = 0.37f;
                t.expand(buf_a, set, bits, n, scale, signs, first, buf_b);
                bool ok = true;
                for (std::size_t h = 0; h < 2; ++h) {
                    std::size_t rank = 0;
                    for (std::size_t k = 0; k < n; ++k) {
                        const float v = scale * (bit_set(k) ? buf_a[h * set + rank++] : 0.0f);
                        const float want = sign_set(first + h * n + k) ? -v : v;
                        ok = ok && std::memcmp(&buf_b[h * n + k], &want, sizeof want) == 0;
                    }
                }
                expect(ok, "expand", "packed inputs at the set bits, with signs", long(n));
            }
    end_kernel("expand");
}

// ---- kernel_of_dots: each radial kernel of the squared distance (kernel_reference.hpp, as
// tests/kernels/kernel_of_dots_test.cpp)
void check_kernel_of_dots(const kernel_table& t, test_rng& rng) {
    float* dot = buf_a;
    float* l_sq = buf_b;
    float* out = buf_c;
    float* io = buf_d;
    for (const landmark_kernel& k : kfm_test::reference_landmark_kernels)
        for (std::size_t n = 0; n <= 40; n += 3) {
            const float x_sq = rng.uniform(0.0f, 4.0f);
            for (std::size_t j = 0; j < n; ++j) {
                l_sq[j] = rng.uniform(0.0f, 4.0f);
                dot[j] = io[j] = rng.uniform(-1.0f, 1.0f) * std::sqrt(x_sq * l_sq[j]);
            }
            t.kernel_of_dots(dot, l_sq, x_sq, k, n, out);
            t.kernel_of_dots(io, l_sq, x_sq, k, n, io);  // in place
            bool ok = true;
            double worst = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const double d2 = std::fmax(double(x_sq) + l_sq[j] - 2.0 * dot[j], 0.0);
                const double want = kfm_test::landmark_kernel_value(k, d2);
                const double tol = kfm_test::landmark_kernel_tolerance(k, x_sq, l_sq[j], dot[j], d2);
                ok = ok && std::fabs(out[j] - want) <= tol && io[j] == out[j];
                worst = max_d(worst, std::fabs(out[j] - want));
            }
            expect(ok, "kernel_of_dots", "kernel of the squared distance", long(n), worst);
        }
    end_kernel("kernel_of_dots");
}

// ---- the registry: the automatic choice is mve on a core with MVE-F (the build's -mcpu says so), else
// scalar; the scalar table is there too, and no other ISA is available
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
constexpr kfm::isa expected_isa = kfm::isa::mve;
#else
constexpr kfm::isa expected_isa = kfm::isa::scalar;
#endif

void check_registry(const kernel_table* t) {
    table_name = "registry";
    expect(t != nullptr && t->id == expected_isa && kfm::detail::best_isa() == expected_isa, "choice",
           kfm::isa_name(expected_isa), 0);
    for (std::size_t i = 0; i < kfm::isa_count(); ++i) {
        const kfm::isa id = kfm::isa_at(i);
        expect(kfm::isa_available(id) == (id == expected_isa || id == kfm::isa::scalar), "available",
               kfm::isa_name(id), 0);
    }
    end_kernel("isas");
}

void check_table(const kernel_table& t) {
    table_name = kfm::isa_name(t.id);
    test_rng rng{2026};
    check_fft(t, rng);
    check_fft_batch(t, rng);
    check_fft_batch_row(t, rng);
    check_butterfly(t, rng);
    check_butterfly_simplex_batch(t, rng);
    check_butterfly_simplex_row(t, rng);
    check_fwht(t, rng);
    check_dense(t, rng);
    check_features(t, rng);
    check_block_product(t, rng);
    check_complex_block_product(t, rng);
    check_flip_signs(t, rng);
    check_expand(t, rng);
    check_kernel_of_dots(t, rng);
}

}  // namespace

int main() {
    const kernel_table* t = kfm::detail::kernels_for(kfm::isa::automatic);
    check_registry(t);
    if (t == nullptr || !kfm::detail::is_complete(*t)) {
        sh_puts("FAIL the runtime's kernel table is missing or incomplete\n");
        return 1;
    }
    sh_puts("isa ");
    sh_puts(kfm::isa_name(t->id));
    sh_puts("\n");
    for (std::size_t i = 0; i < kfm::isa_count(); ++i) {
        const kernel_table* table = kfm::detail::kernels_for(kfm::isa_at(i));
        if (table == nullptr) continue;
        if (!kfm::detail::is_complete(*table)) {
            sh_puts("FAIL an incomplete kernel table\n");
            return 1;
        }
        check_table(*table);
    }
    sh_puts("kernels: ");
    sh_put_int(total_passed);
    sh_puts(" passed, ");
    sh_put_int(total_failed);
    sh_puts(" failed\n");
    return total_failed == 0 ? 0 : 1;
}
