// PREP's input scaling of one row: out[i] = (x[i] - shift[i]) * scale[i] for i < n, in float (the difference
// rounded, then the product: the same bits on every ISA as in the scalar reference). A kernel rather than a
// runtime loop so that out is written in the ISA's full registers: the kernels that read it right after (the
// prefactor's squared norm, the projections' loads and copies) load whole registers, and a load spanning
// several narrower stores waits until they reach the cache instead of taking their data (store forwarding).
// Only AVX2 and AVX-512 take the vector form: elsewhere the scalar loop is what the runtime ran before (on
// AArch64 compiled to NEON registers already, the width of the loads after it; ARMv7's NEON flushes subnormals
// to zero), and the size-limited firmware builds keep its smaller code.
#pragma once
#include <cstddef>

#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

template <class A>
void shift_scale(const float* x, const float* shift, const float* scale, std::size_t n, float* out) noexcept {
    constexpr std::size_t W = lanes<A>;
    std::size_t i = 0;
    if constexpr (is_avx2_or_avx512<A>())
        for (; i + W <= n; i += W)
            store_f<A>(out + i, (load_f<A>(x + i) - load_f<A>(shift + i)) * load_f<A>(scale + i));
    for (; i < n; ++i) out[i] = (x[i] - shift[i]) * scale[i];
}

}  // namespace
}  // namespace kfm::detail::kern
