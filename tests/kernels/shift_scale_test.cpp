// shift_scale: every ISA gives the bits of (x - shift) * scale rounded step by step, for lengths 0 .. 40 (tails
// of every lane count), unaligned pointers, and values whose difference or product overflows or is not finite
// (the runtime checks x' after this step, so those must come out as the scalar formula gives them).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "kernel_test_util.hpp"

using kfm_test::available_tables;
using kfm_test::test_rng;
using kfm_test::unaligned_buffer;

TEST_CASE("shift_scale gives (x - shift) * scale, float step by float step, on every ISA") {
    test_rng rng(21);
    const float specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(), 3e38f, -3e38f, 1e-40f, -0.0f};
    for (const auto* t : available_tables())
        for (std::size_t n = 0; n <= 40; ++n) {
            unaligned_buffer x(n), shift(n), scale(n), out(n + 1);
            for (std::size_t i = 0; i < n; ++i) {
                x[i] = rng.uniform(-4.0f, 4.0f);
                shift[i] = rng.uniform(-1.0f, 1.0f);
                scale[i] = rng.uniform(0.1f, 3.0f);
                if (i % 7 == 3) x[i] = specials[(i + n) % 7];
                if (i % 11 == 5) scale[i] = 1e30f;  // (x - shift) * scale overflows for |x - shift| > 3.4e8
            }
            out[n] = 12345.0f;
            t->shift_scale(x.data(), shift.data(), scale.data(), n, out.data());
            CHECK(out[n] == 12345.0f);  // nothing written past n
            for (std::size_t i = 0; i < n; ++i) {
                const float difference = x[i] - shift[i];
                const float want = difference * scale[i];
                INFO(kfm_test::name(t->id) << " n " << n << " i " << i << " x " << x[i] << " got " << out[i]);
                if (std::isnan(want)) CHECK(std::isnan(out[i]));
                else CHECK(std::memcmp(&out[i], &want, sizeof want) == 0);
            }
        }
}
