// FFT: every ISA against a naive O(n^2) DFT in double for n = 2 .. 4096, sampled bins for n = 8192 .. 65536, the
// inverse round trip, in-place and out-of-place, unaligned pointers, and the twiddle table itself.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"
#include "kernels/fft_bit_reversal.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

namespace {

const double pi = 3.14159265358979323846;

std::vector<float> twiddles(unsigned log2_n) {
    std::vector<float> tw(kfm::detail::fft_twiddle_floats(log2_n));
    kfm::detail::fft_make_twiddles(log2_n, tw.data());
    return tw;
}

// Naive DFT in double (sign -1 forward, +1 inverse), exact angles from an index table.
std::vector<std::complex<double>> naive_dft(const std::vector<float>& re, const std::vector<float>& im,
                                            bool inverse) {
    const std::size_t n = re.size();
    std::vector<std::complex<double>> root(n), out(n);
    for (std::size_t k = 0; k < n; ++k)
        root[k] = std::polar(1.0, (inverse ? 2.0 : -2.0) * pi * double(k) / double(n));
    for (std::size_t k = 0; k < n; ++k) {
        std::complex<double> s = 0;
        for (std::size_t j = 0; j < n; ++j) s += std::complex<double>(re[j], im[j]) * root[(j * k) % n];
        out[k] = s;
    }
    return out;
}

// sqrt(sum |y - ref|^2 / sum |ref|^2)
double relative_rms(const float* re, const float* im, const std::vector<std::complex<double>>& ref) {
    double num = 0, den = 0;
    for (std::size_t k = 0; k < ref.size(); ++k) {
        num += std::norm(std::complex<double>(re[k], im[k]) - ref[k]);
        den += std::norm(ref[k]);
    }
    return std::sqrt(num / den);
}

}  // namespace

TEST_CASE("fft matches the naive DFT for n = 2 .. 4096, forward and inverse, in and out of place") {
    test_rng rng(42);
    for (unsigned log2_n = 1; log2_n <= 12; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        std::vector<float> re(n), im(n);
        for (std::size_t i = 0; i < n; ++i) { re[i] = rng.uniform(-1, 1); im[i] = rng.uniform(-1, 1); }
        const auto tw = twiddles(log2_n);
        const double bound = 2e-7 * (log2_n + 2);  // float rounding grows like log2 n per stage
        for (bool inverse : {false, true}) {
            if (inverse && n > 1024) continue;  // the round-trip test covers the large inverses
            const auto ref = naive_dft(re, im, inverse);
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(n);
                CAPTURE(inverse);
                unaligned_buffer in_re(n), in_im(n), out_re(n), out_im(n);
                for (std::size_t i = 0; i < n; ++i) { in_re[i] = re[i]; in_im[i] = im[i]; }
                t->fft(in_re.data(), in_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), inverse);
                CHECK(relative_rms(out_re.data(), out_im.data(), ref) < bound);
                for (std::size_t i = 0; i < n; ++i) {  // out of place leaves the input alone
                    REQUIRE(in_re[i] == re[i]);
                    REQUIRE(in_im[i] == im[i]);
                }
                t->fft(in_re.data(), in_im.data(), in_re.data(), in_im.data(), log2_n, tw.data(), inverse);
                CHECK(relative_rms(in_re.data(), in_im.data(), ref) < bound);
            }
        }
    }
}

TEST_CASE("fft inverse undoes forward up to the factor n, n = 2 .. 65536") {
    test_rng rng(7);
    for (unsigned log2_n = 1; log2_n <= 16; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        const auto tw = twiddles(log2_n);
        for (const auto* t : available_tables()) {
            const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
            CAPTURE(n);
            std::vector<float> re(n), im(n), fr(n), fi(n);
            for (std::size_t i = 0; i < n; ++i) { re[i] = rng.uniform(-1, 1); im[i] = rng.uniform(-1, 1); }
            t->fft(re.data(), im.data(), fr.data(), fi.data(), log2_n, tw.data(), false);
            t->fft(fr.data(), fi.data(), fr.data(), fi.data(), log2_n, tw.data(), true);
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i)
                worst = std::max(worst, std::max(std::abs(fr[i] / double(n) - re[i]), std::abs(fi[i] / double(n) - im[i])));
            CHECK(worst < 1e-6 * (log2_n + 2));
        }
    }
}

// n = 8192 .. 65536 is too large for the naive DFT above, and the round trip is blind to a transform that
// is consistently wrong both ways (e.g. conjugated): 64 bins per size and direction (0, 1, n/2, n - 1 and
// 60 random ones) against a direct O(n) sum in double with exact angles. Cheap enough for qemu: about 16 M
// complex multiply-adds in all, shared by every ISA.
TEST_CASE("fft n = 8192 .. 65536: sampled bins against a direct DFT, forward and inverse, every ISA") {
    test_rng rng(99);
    for (unsigned log2_n = 13; log2_n <= 16; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        std::vector<float> re(n), im(n);
        for (std::size_t i = 0; i < n; ++i) { re[i] = rng.uniform(-1, 1); im[i] = rng.uniform(-1, 1); }
        const auto tw = twiddles(log2_n);
        std::vector<std::size_t> bins = {0, 1, n / 2, n - 1};
        while (bins.size() < 64) bins.push_back(rng.below(std::uint32_t(n)));
        std::vector<std::complex<double>> root(n);  // exp(-2 pi i k / n)
        for (std::size_t k = 0; k < n; ++k) root[k] = std::polar(1.0, -2.0 * pi * double(k) / double(n));
        // Each bin sums n terms of size <= sqrt(2); float rounding gives |error| ~ eps sqrt(n) log2 n, and
        // a wrong transform errs by ~|bin| ~ sqrt(n): the bound sits between them by 10x either way.
        const double bound = 1e-6 * std::sqrt(double(n)) * log2_n;
        for (bool inverse : {false, true}) {
            std::vector<std::complex<double>> ref;
            for (std::size_t k : bins) {
                std::complex<double> s = 0;
                for (std::size_t j = 0; j < n; ++j) {
                    const std::complex<double> w = root[(j * k) % n];
                    s += std::complex<double>(re[j], im[j]) * (inverse ? std::conj(w) : w);
                }
                ref.push_back(s);
            }
            for (const auto* t : available_tables()) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                CAPTURE(n);
                CAPTURE(inverse);
                std::vector<float> fr(n), fi(n);
                t->fft(re.data(), im.data(), fr.data(), fi.data(), log2_n, tw.data(), inverse);
                double worst = 0;
                for (std::size_t b = 0; b < bins.size(); ++b)
                    worst = std::max(worst, std::abs(std::complex<double>(fr[bins[b]], fi[bins[b]]) - ref[b]));
                CHECK(worst < bound);
            }
        }
    }
}

// n = 16 and 32 take AVX2's 4-lane kernel, n = 64 the 8-lane one; re aliased alone, then im alone. The
// scalar table's in-place path (pair swaps, a radix-2 stage for odd log2 n, radix-4 passes) from n = 2.
TEST_CASE("fft in place on only one of re / im") {
    for (unsigned log2_n : {1u, 2u, 3u, 4u, 5u, 6u, 7u}) {
        const std::size_t n = std::size_t(1) << log2_n;
        test_rng rng(3);
        std::vector<float> re(n), im(n);
        for (std::size_t i = 0; i < n; ++i) { re[i] = rng.uniform(-1, 1); im[i] = rng.uniform(-1, 1); }
        const auto tw = twiddles(log2_n);
        const auto ref = naive_dft(re, im, false);
        for (const auto* t : available_tables()) {
            CAPTURE(n);
            std::vector<float> r = re, i = im, out_re(n), out_im(n);
            t->fft(r.data(), im.data(), r.data(), out_im.data(), log2_n, tw.data(), false);
            CHECK(relative_rms(r.data(), out_im.data(), ref) < 2e-6);
            t->fft(re.data(), i.data(), out_re.data(), i.data(), log2_n, tw.data(), false);
            CHECK(relative_rms(out_re.data(), i.data(), ref) < 2e-6);
        }
    }
}

// On Armv7 and AArch64 (the qemu runs) reverse_bits is the rbit instruction, elsewhere the portable swaps.
TEST_CASE("fft bit reversal: reverse_bits against a bit-by-bit loop, 1 .. 16 bits") {
    for (unsigned bits = 1; bits <= 16; ++bits) {
        for (std::uint32_t i = 0; i < (std::uint32_t(1) << bits); i += 1 + (i >> 6)) {
            std::uint32_t expected = 0;
            for (unsigned k = 0; k < bits; ++k) expected |= ((i >> k) & 1u) << (bits - 1 - k);
            CAPTURE(bits);
            CAPTURE(i);
            CHECK(kfm::detail::kern::reverse_bits<kfm::detail::kern::scalar_arch>(i, bits) == expected);
        }
    }
}

TEST_CASE("fft twiddle table: size and a few exact entries") {
    for (unsigned log2_n = 1; log2_n <= 16; ++log2_n)
        CHECK(kfm::detail::fft_twiddle_floats(log2_n) == 128 + 2 * ((std::size_t(1) << log2_n) - 1));
    const auto tw = twiddles(3);
    CHECK(tw[128] == 1.0f);          // stage h = 1: w_0 = 1
    CHECK(tw[129] == 0.0f);
    CHECK(tw[130] == 1.0f);          // stage h = 2: re {1, ~0}, im {0, -1}
    CHECK(tw[133] == -1.0f);
}

// Interleaved batch FFT: every one of the L vectors (element k of vector v at k * L + v) equals the naive
// DFT of that vector and, to rounding, the single-vector fft of the same table, n = 2 .. 4096, forward and inverse, out of place, fully in place and with only re aliased.
TEST_CASE("fft_batch: each interleaved vector matches the naive DFT, n = 2 .. 4096, every ISA") {
    const auto tables = available_tables();
    std::size_t max_lanes = 1;
    for (const auto* t : tables) {
        const std::string isa_label = kfm_test::name(t->id);
        CAPTURE(isa_label);
        REQUIRE((t->fft_batch != nullptr));
        const std::size_t lanes = t->fft_batch_lanes;
        // one lane on scalar; a SIMD table fills a 128-, 256- or 512-bit register of floats
        if (t->id == kfm::isa::scalar) CHECK(lanes == 1);
        else CHECK((lanes == 4 || lanes == 8 || lanes == 16));
        max_lanes = std::max<std::size_t>(max_lanes, lanes);
    }
    test_rng rng(11);
    for (unsigned log2_n = 1; log2_n <= 12; ++log2_n) {
        const std::size_t n = std::size_t(1) << log2_n;
        CAPTURE(n);
        const auto tw = twiddles(log2_n);
        const double bound = 2e-7 * (log2_n + 2);
        std::vector<std::vector<float>> re(max_lanes, std::vector<float>(n)), im(max_lanes, std::vector<float>(n));
        for (std::size_t v = 0; v < max_lanes; ++v)
            for (std::size_t k = 0; k < n; ++k) { re[v][k] = rng.uniform(-1, 1); im[v][k] = rng.uniform(-1, 1); }
        for (bool inverse : {false, true}) {
            if (inverse && n > 1024) continue;  // the round-trip test covers the large inverses
            CAPTURE(inverse);
            // the naive DFT is O(n^2) (slow under qemu): all vectors up to n = 256, vector 0 up to 2048; the
            // rest are held to the single fft, which the first test case checks against the naive DFT
            const std::size_t checked = n <= 256 ? max_lanes : n <= 2048 ? 1 : 0;
            std::vector<std::vector<std::complex<double>>> ref;
            for (std::size_t v = 0; v < checked; ++v) ref.push_back(naive_dft(re[v], im[v], inverse));
            for (const auto* t : tables) {
                const std::string isa_label = kfm_test::name(t->id);
                CAPTURE(isa_label);
                const std::size_t lanes = t->fft_batch_lanes;
                unaligned_buffer in_re(n * lanes), in_im(n * lanes);
                for (std::size_t v = 0; v < lanes; ++v)
                    for (std::size_t k = 0; k < n; ++k) { in_re[k * lanes + v] = re[v][k]; in_im[k * lanes + v] = im[v][k]; }
                auto check_all = [&](float* out_re, float* out_im, const char* mode) {
                    CAPTURE(mode);
                    for (std::size_t v = 0; v < lanes; ++v) {
                        CAPTURE(v);
                        std::vector<float> vr(n), vi(n), sr(n), si(n);
                        for (std::size_t k = 0; k < n; ++k) { vr[k] = out_re[k * lanes + v]; vi[k] = out_im[k * lanes + v]; }
                        if (v < checked) CHECK(relative_rms(vr.data(), vi.data(), ref[v]) < bound);
                        // the single-vector fft of the same table (checked against the naive DFT in the first test case)
                        t->fft(re[v].data(), im[v].data(), sr.data(), si.data(), log2_n, tw.data(), inverse);
                        double worst = 0, scale = 0;
                        for (std::size_t k = 0; k < n; ++k) {
                            worst = std::max({worst, double(std::abs(sr[k] - vr[k])), double(std::abs(si[k] - vi[k]))});
                            scale = std::max(scale, double(std::abs(sr[k])) + std::abs(si[k]));
                        }
                        CHECK(worst <= 1e-6 * (log2_n + 1) * scale);
                    }
                };
                unaligned_buffer out_re(n * lanes), out_im(n * lanes);
                t->fft_batch(in_re.data(), in_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), inverse);
                check_all(out_re.data(), out_im.data(), "out of place");
                for (std::size_t i = 0; i < n * lanes; ++i) {  // out of place leaves the input alone
                    REQUIRE(in_re[i] == re[i % lanes][i / lanes]);
                    REQUIRE(in_im[i] == im[i % lanes][i / lanes]);
                }
                unaligned_buffer io_re(n * lanes), io_im(n * lanes);
                for (std::size_t i = 0; i < n * lanes; ++i) { io_re[i] = in_re[i]; io_im[i] = in_im[i]; }
                t->fft_batch(io_re.data(), io_im.data(), io_re.data(), io_im.data(), log2_n, tw.data(), inverse);
                check_all(io_re.data(), io_im.data(), "in place");
                for (std::size_t i = 0; i < n * lanes; ++i) { io_re[i] = in_re[i]; out_im[i] = -1.0f; }
                t->fft_batch(io_re.data(), in_im.data(), io_re.data(), out_im.data(), log2_n, tw.data(), inverse);
                check_all(io_re.data(), out_im.data(), "re in place only");
            }
        }
    }
}

TEST_CASE("fft_batch inverse undoes forward up to the factor n, n = 2 .. 65536") {
    test_rng rng(13);
    for (const auto* t : available_tables()) {
        const std::string isa_label = kfm_test::name(t->id);
        CAPTURE(isa_label);
        const std::size_t lanes = t->fft_batch_lanes;
        for (unsigned log2_n = 1; log2_n <= 16; log2_n += (log2_n < 12 ? 1 : 3)) {
            const std::size_t n = std::size_t(1) << log2_n;
            CAPTURE(n);
            const auto tw = twiddles(log2_n);
            std::vector<float> re(n * lanes), im(n * lanes), fr(n * lanes), fi(n * lanes);
            for (std::size_t i = 0; i < n * lanes; ++i) { re[i] = rng.uniform(-1, 1); im[i] = rng.uniform(-1, 1); }
            t->fft_batch(re.data(), im.data(), fr.data(), fi.data(), log2_n, tw.data(), false);
            t->fft_batch(fr.data(), fi.data(), fr.data(), fi.data(), log2_n, tw.data(), true);
            double worst = 0;
            for (std::size_t i = 0; i < n * lanes; ++i)
                worst = std::max(worst, std::max(std::abs(fr[i] / double(n) - re[i]), std::abs(fi[i] / double(n) - im[i])));
            CHECK(worst < 1e-6 * (log2_n + 2));
        }
    }
}

// Large batches go depth first: leaves of 2048 / L elements, then radix-2 / radix-4 joins. Every size from
// the first join (n = 2 leaves) up to 65536, each lane equal to the single fft of that vector, forward out
// of place and inverse in place. Covers the leaf boundary of each ISA (256 on AVX2, 128 on AVX-512, 512 on
// NEON, 2048 on scalar), odd and even join counts, and radix-2 and radix-8 leaf first passes.
TEST_CASE("fft_batch depth-first sizes: every lane equals the single fft, n = 128 .. 65536") {
    test_rng rng(17);
    for (const auto* t : available_tables()) {
        const std::string isa_label = kfm_test::name(t->id);
        CAPTURE(isa_label);
        const std::size_t lanes = t->fft_batch_lanes;
        for (unsigned log2_n = 7; log2_n <= 16; ++log2_n) {
            const std::size_t n = std::size_t(1) << log2_n;
            CAPTURE(n);
            const auto tw = twiddles(log2_n);
            unaligned_buffer in_re(n * lanes), in_im(n * lanes), out_re(n * lanes), out_im(n * lanes);
            for (std::size_t i = 0; i < n * lanes; ++i) { in_re[i] = rng.uniform(-1, 1); in_im[i] = rng.uniform(-1, 1); }
            for (bool inverse : {false, true}) {
                CAPTURE(inverse);
                if (inverse) {  // in place
                    for (std::size_t i = 0; i < n * lanes; ++i) { out_re[i] = in_re[i]; out_im[i] = in_im[i]; }
                    t->fft_batch(out_re.data(), out_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), true);
                } else {
                    t->fft_batch(in_re.data(), in_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), false);
                }
                std::vector<float> vr(n), vi(n), sr(n), si(n);
                double worst = 0, scale = 0;
                for (std::size_t v = 0; v < lanes; ++v) {
                    for (std::size_t k = 0; k < n; ++k) { vr[k] = in_re[k * lanes + v]; vi[k] = in_im[k * lanes + v]; }
                    t->fft(vr.data(), vi.data(), sr.data(), si.data(), log2_n, tw.data(), inverse);
                    for (std::size_t k = 0; k < n; ++k) {
                        worst = std::max({worst, double(std::abs(sr[k] - out_re[k * lanes + v])),
                                          double(std::abs(si[k] - out_im[k * lanes + v]))});
                        scale = std::max(scale, double(std::abs(sr[k])) + std::abs(si[k]));
                    }
                }
                CHECK(worst <= 1e-6 * (log2_n + 1) * scale);
            }
        }
    }
}

TEST_CASE("fft_batch: a vector's output does not depend on the other lanes or its lane, n = 2 .. 128, every ISA") {
    // The SSF projection maps a single row, and the rows left after the whole lane groups, as a group padded
    // with zero rows; a row's features must not depend on its batch, so each lane's bits are its own.
    test_rng rng(17);
    for (const auto* t : available_tables()) {
        const std::string isa_label = kfm_test::name(t->id);
        CAPTURE(isa_label);
        const std::size_t lanes = t->fft_batch_lanes;
        for (unsigned log2_n = 1; log2_n <= 7; ++log2_n) {
            const std::size_t n = std::size_t(1) << log2_n;
            CAPTURE(n);
            const auto tw = twiddles(log2_n);
            for (bool inverse : {false, true}) {
                CAPTURE(inverse);
                // one scale per lane, from 1e-3 to 1e6, so large and small values meet in the sums
                unaligned_buffer in_re(n * lanes), in_im(n * lanes), out_re(n * lanes), out_im(n * lanes);
                for (std::size_t v = 0; v < lanes; ++v) {
                    const float scale = float(std::pow(10.0, -3.0 + 9.0 * double(v) / double(lanes)));
                    for (std::size_t k = 0; k < n; ++k) {
                        in_re[k * lanes + v] = scale * rng.uniform(-1, 1);
                        in_im[k * lanes + v] = scale * rng.uniform(-1, 1);
                    }
                }
                t->fft_batch(in_re.data(), in_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), inverse);
                for (std::size_t v = 0; v < lanes; ++v) {
                    CAPTURE(v);
                    // vector v alone, in lane (v + 1) mod lanes, the other lanes zero
                    const std::size_t u = (v + 1) % lanes;
                    unaligned_buffer a_re(n * lanes), a_im(n * lanes), b_re(n * lanes), b_im(n * lanes);
                    for (std::size_t i = 0; i < n * lanes; ++i) { a_re[i] = 0.0f; a_im[i] = 0.0f; }
                    for (std::size_t k = 0; k < n; ++k) {
                        a_re[k * lanes + u] = in_re[k * lanes + v];
                        a_im[k * lanes + u] = in_im[k * lanes + v];
                    }
                    t->fft_batch(a_re.data(), a_im.data(), b_re.data(), b_im.data(), log2_n, tw.data(), inverse);
                    bool same = true;
                    for (std::size_t k = 0; k < n; ++k)
                        same = same && std::memcmp(&b_re[k * lanes + u], &out_re[k * lanes + v], sizeof(float)) == 0 &&
                               std::memcmp(&b_im[k * lanes + u], &out_im[k * lanes + v], sizeof(float)) == 0;
                    CHECK(same);
                }
            }
        }
    }
}

// A row alone must get the bits it gets in any batch (the SSF projection runs single rows through
// fft_batch_row and batches through fft_batch): every vector through fft_batch_row equals, bit for bit,
// the same vector in any lane of fft_batch, n = 2 .. 4096, forward and inverse, out of place, in place and
// with only re aliased. The vectors mix scales from 1e-3 to 1e6, inputs half made of zeros of either sign
// (as SSF's sign-flipped buffers are: the multiply-free twiddles keep a zero's sign where a product by
// (1, 0) would not), all-zero inputs and exact powers of two.
TEST_CASE("fft_batch_row: a vector gets the bits of every lane of fft_batch, n = 2 .. 4096, every ISA") {
    test_rng rng(23);
    for (const auto* t : available_tables()) {
        const std::string isa_label = kfm_test::name(t->id);
        CAPTURE(isa_label);
        REQUIRE((t->fft_batch_row != nullptr));
        const std::size_t lanes = t->fft_batch_lanes;
        for (unsigned log2_n = 1; log2_n <= 12; ++log2_n) {
            const std::size_t n = std::size_t(1) << log2_n;
            CAPTURE(n);
            const auto tw = twiddles(log2_n);
            for (unsigned round = 0; round < 4; ++round) {
                unaligned_buffer in_re(n * lanes), in_im(n * lanes), out_re(n * lanes), out_im(n * lanes);
                for (std::size_t v = 0; v < lanes; ++v) {
                    const unsigned kind = unsigned(v + round) % 4;
                    const float scale = float(std::pow(10.0, -3.0 + 9.0 * double((v + round) % 7) / 6.0));
                    for (std::size_t k = 0; k < n; ++k) {
                        float re = scale * rng.uniform(-1, 1), im = scale * rng.uniform(-1, 1);
                        if (kind == 1 && rng.uniform() < 0.5) re = im = 0.0f;
                        if (kind == 2) re = im = 0.0f;
                        if (kind == 3) {
                            re = std::ldexp(1.0f, int(rng.below(40)) - 20);
                            im = -std::ldexp(1.0f, int(rng.below(40)) - 20);
                        }
                        if (kind != 0 && rng.uniform() < 0.5) re = -re;
                        if (kind != 0 && rng.uniform() < 0.5) im = -im;
                        in_re[k * lanes + v] = re;
                        in_im[k * lanes + v] = im;
                    }
                }
                for (bool inverse : {false, true}) {
                    CAPTURE(round);
                    CAPTURE(inverse);
                    t->fft_batch(in_re.data(), in_im.data(), out_re.data(), out_im.data(), log2_n, tw.data(), inverse);
                    for (std::size_t v = 0; v < lanes; ++v) {
                        CAPTURE(v);
                        unaligned_buffer x_re(n), x_im(n), y_re(n), y_im(n), want_re(n), want_im(n);
                        for (std::size_t k = 0; k < n; ++k) {
                            x_re[k] = in_re[k * lanes + v];
                            x_im[k] = in_im[k * lanes + v];
                            want_re[k] = out_re[k * lanes + v];
                            want_im[k] = out_im[k * lanes + v];
                        }
                        auto same = [&](float* re, float* im) {
                            return std::memcmp(re, want_re.data(), n * sizeof(float)) == 0 &&
                                   std::memcmp(im, want_im.data(), n * sizeof(float)) == 0;
                        };
                        t->fft_batch_row(x_re.data(), x_im.data(), y_re.data(), y_im.data(), log2_n, tw.data(), inverse);
                        CHECK_MESSAGE(same(y_re.data(), y_im.data()), "out of place");
                        for (std::size_t k = 0; k < n; ++k) {  // out of place leaves the input alone
                            REQUIRE(x_re[k] == in_re[k * lanes + v]);
                            REQUIRE(x_im[k] == in_im[k * lanes + v]);
                        }
                        for (std::size_t k = 0; k < n; ++k) { y_re[k] = x_re[k]; y_im[k] = x_im[k]; }
                        t->fft_batch_row(y_re.data(), y_im.data(), y_re.data(), y_im.data(), log2_n, tw.data(), inverse);
                        CHECK_MESSAGE(same(y_re.data(), y_im.data()), "in place");
                        for (std::size_t k = 0; k < n; ++k) { y_re[k] = x_re[k]; y_im[k] = -1.0f; }
                        t->fft_batch_row(y_re.data(), x_im.data(), y_re.data(), y_im.data(), log2_n, tw.data(), inverse);
                        CHECK_MESSAGE(same(y_re.data(), y_im.data()), "re in place only");
                    }
                }
            }
        }
    }
}
