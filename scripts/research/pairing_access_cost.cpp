// What the degree-2 pairings of scripts/research/maclaurin_pairing.py would cost in maclaurin-opt's feature
// stage, on AVX2: one pass of d2 products (d2 = 16, 64, 256) with the second factor read contiguously (the
// rotated rows of src/kernels/block_product.hpp) or through an index (a random matching, bit-reversed rows;
// vgatherdps or scalar), a permuted copy of x' into a block's input, and one Householder reflection
// x <- x - 2 v (v.x). Median ns per call of 21 timings. docs/results-maclaurin.md ("What was tried at
// D = 2d") quotes it. Build and run (not part of the CMake build):
//   g++ -O2 -mavx2 -mfma -o /tmp/pairing_access_cost scripts/research/pairing_access_cost.cpp && /tmp/pairing_access_cost
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

volatile float sink;  // keeps every timed loop's result live

template <class F>
double median_ns(F f) {
    std::vector<double> t;
    for (int r = 0; r < 21; ++r) {
        constexpr int calls = 20000;
        const auto begin = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) f();
        t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begin).count() / calls);
    }
    std::nth_element(t.begin(), t.begin() + 10, t.end());
    return t[10];
}

std::vector<std::int32_t> bit_reversed(int n) {
    int bits = 0;
    while ((1 << bits) < n) ++bits;
    std::vector<std::int32_t> r(n, 0);
    for (int j = 0; j < n; ++j)
        for (int b = 0; b < bits; ++b)
            if (j >> b & 1) r[j] |= 1 << (bits - 1 - b);
    return r;
}

}  // namespace

int main() {
    // One page-aligned arena: two blocks of projections, then the outputs 2 KB past a 4 KB boundary (no
    // 4K aliasing between the stores and the gathered loads), then a block's input copy.
    alignas(4096) static float arena[3 * 4096];
    for (int d2 : {16, 64, 256}) {
        float* factor0 = arena;
        float* factor1 = arena + d2;
        float* out = arena + 4096 + 512;
        float* block_input = arena + 2 * 4096;
        std::vector<float> x(d2), v(d2);
        std::mt19937 g(1);
        std::normal_distribution<float> normal;
        for (int i = 0; i < 2 * d2; ++i) arena[i] = normal(g);
        for (float& e : x) e = normal(g);
        float squared = 0.0f;
        for (float& e : v) {
            e = normal(g);
            squared += e * e;
        }
        for (float& e : v) e /= std::sqrt(squared);  // a unit vector: the reflection keeps |x|
        std::vector<std::int32_t> matching(d2), reversed = bit_reversed(d2);
        std::iota(matching.begin(), matching.end(), 0);
        std::shuffle(matching.begin(), matching.end(), g);

        const __m256 scale = _mm256_set1_ps(1.5f), weight = _mm256_set1_ps(0.25f);
        const auto rotated = [&] {  // as the block product kernel: straight vectors, then the wrapped feature
            int j = 0;
            for (; j + 8 <= d2 - 1; j += 8) {
                const __m256 p = _mm256_mul_ps(scale, _mm256_loadu_ps(factor0 + j));
                const __m256 q = _mm256_mul_ps(scale, _mm256_loadu_ps(factor1 + j + 1));
                _mm256_storeu_ps(out + j, _mm256_mul_ps(weight, _mm256_mul_ps(p, q)));
            }
            for (; j < d2; ++j) out[j] = 0.25f * ((1.5f * factor0[j]) * (1.5f * factor1[(j + 1) % d2]));
            sink = out[d2 / 2];
        };
        const auto gathered = [&](const std::vector<std::int32_t>& rows) {
            return [&] {
                for (int j = 0; j < d2; j += 8) {
                    const __m256i index = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows.data() + j));
                    const __m256 p = _mm256_mul_ps(scale, _mm256_loadu_ps(factor0 + j));
                    const __m256 q = _mm256_mul_ps(scale, _mm256_i32gather_ps(factor1, index, 4));
                    _mm256_storeu_ps(out + j, _mm256_mul_ps(weight, _mm256_mul_ps(p, q)));
                }
                sink = out[d2 / 2];
            };
        };
        const auto scalar_gather = [&] {
            for (int j = 0; j < d2; ++j) out[j] = 0.25f * ((1.5f * factor0[j]) * (1.5f * factor1[matching[j]]));
            sink = out[d2 / 2];
        };
        const auto permuted_copy = [&] {
            for (int j = 0; j < d2; ++j) block_input[j] = x[reversed[j]];
            sink = block_input[d2 / 2];
        };
        const auto householder = [&] {
            __m256 sum = _mm256_setzero_ps();
            for (int j = 0; j < d2; j += 8) sum = _mm256_fmadd_ps(_mm256_loadu_ps(v.data() + j), _mm256_loadu_ps(x.data() + j), sum);
            float lanes[8];
            _mm256_storeu_ps(lanes, sum);
            const __m256 c = _mm256_set1_ps(-2.0f * (lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7]));
            for (int j = 0; j < d2; j += 8)
                _mm256_storeu_ps(x.data() + j, _mm256_fmadd_ps(c, _mm256_loadu_ps(v.data() + j), _mm256_loadu_ps(x.data() + j)));
            sink = x[d2 / 2];
        };
        const double t_rotated = median_ns(rotated), t_matching = median_ns(gathered(matching)),
                     t_reversed = median_ns(gathered(reversed)), t_scalar = median_ns(scalar_gather),
                     t_copy = median_ns(permuted_copy), t_householder = median_ns(householder);
        std::printf("d2 %3d: rotated rows %.1f ns, random matching (vgatherdps) %.1f, bit-reversed rows (vgatherdps) %.1f, "
                    "random matching (scalar) %.1f, permuted copy of x' %.1f, one Householder reflection %.1f\n",
                    d2, t_rotated, t_matching, t_reversed, t_scalar, t_copy, t_householder);
    }
}
