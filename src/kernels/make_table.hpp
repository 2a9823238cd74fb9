// The kernel table of one architecture, built from the templated kernels, each entry assigned by name.
// Included only by platforms/<dir>/kernels_<isa>.cpp, each with its own compiler flags; each defines
//   constexpr detail::kernel_table table = make_table<...>(isa::<id>);  (declared extern first)
//   static_assert(detail::is_complete(table), ...);
#pragma once
#include "kernels/block_product.hpp"
#include "kernels/butterfly.hpp"
#include "kernels/complex_block_product.hpp"
#include "kernels/butterfly_simplex_batch.hpp"
#include "kernels/butterfly_simplex_row.hpp"
#include "kernels/dense.hpp"
#include "kernels/expand.hpp"
#include "kernels/features.hpp"
#include "kernels/fft.hpp"
#include "kernels/fft_batch.hpp"
#include "kernels/fft_batch_row.hpp"
#include "kernels/flip_signs.hpp"
#include "kernels/fwht.hpp"
#include "kernels/gaussian_factors.hpp"
#include "kernels/kernel_of_dots.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/shift_scale.hpp"

namespace kfm::detail::kern {
namespace {

// NarrowA lets an ISA take its FFT and expand from a narrower architecture compiled with its own flags
// (AVX-512 uses the 8-lane FFT: its 16 x 16 register transposes cost more than they save,
// docs/benchmarks.md, "FFT against FFTW"; and the 8-lane expand: vexpandps measured 1.5x slower than vpermps here), and the
// batched quadrature rule (8 rows: 10% faster than 16 at d = 1024, the same at d <= 256). fft_batch_row
// runs on NarrowA's vectors with A's batch FFT's operations (AVX2's 4-lane SSE form measured 1.15x slower
// at n = 16 and 32).
template <class A, class NarrowA = A>
constexpr kernel_table make_table(isa id) noexcept {
    kernel_table t{};
    t.id = id;
    t.fft = &fft_r2_c2c<NarrowA>;
    t.butterfly = &butterfly_apply<A>;
    t.fwht = &fwht<A>;
    t.gemv = &gemv<A>;
    t.gemm = &gemm<A>;
    t.features = &features<A>;
    t.block_product = &block_product<A>;
    t.complex_block_product = &complex_block_product<A>;
    t.fft_batch_lanes = unsigned(lanes<A>);
    t.fft_batch = &fft_batch_interleaved<A>;
    t.fft_batch_row = &fft_batch_row<NarrowA, A>;
    t.flip_signs = &flip_signs<A>;
    t.expand = &expand<NarrowA>;
    constexpr std::size_t batch_rows = lanes<NarrowA> > 1 ? lanes<NarrowA> : 4;  // scalar: 4, so it interleaves too
    t.butterfly_simplex_batch_rows = unsigned(batch_rows);
    t.butterfly_simplex_batch = &butterfly_simplex_batch<NarrowA, batch_rows>;
    t.butterfly_simplex_row = &butterfly_simplex_row<A>;
    t.kernel_of_dots = &kernel_of_dots<A>;
    t.gaussian_factors = &gaussian_factors<A>;
    t.shift_scale = &shift_scale<A>;
    return t;
}

}  // namespace
}  // namespace kfm::detail::kern
