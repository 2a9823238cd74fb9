// The kernel table of one architecture, built from the templated kernels. Included only by
// platforms/<isa>/kernels_<isa>.cpp, each with its own compiler flags.
#pragma once
#include "kernels/butterfly.hpp"
#include "kernels/dense.hpp"
#include "kernels/expand.hpp"
#include "kernels/features.hpp"
#include "kernels/fft.hpp"
#include "kernels/fft_batch.hpp"
#include "kernels/flip_signs.hpp"
#include "kernels/fwht.hpp"
#include "kernels/kernel_table.hpp"

namespace kfm::detail::kern {
namespace {

// NarrowA lets an ISA take its FFT and expand from a narrower architecture compiled with its own flags
// (AVX-512 uses the 8-lane FFT: its 16 x 16 register transposes cost more than they save,
// docs/benchmarks.md; and the 8-lane expand: vexpandps measured 1.5x slower than vpermps here).
template <class A, class NarrowA = A>
constexpr kernel_table make_table(isa id) noexcept {
    return kernel_table{id,          &fft_r2_c2c<NarrowA>, &butterfly_apply<A>, &fwht<A>,
                        &gemv<A>,    &gemm<A>,          &features<A>,
                        unsigned(lanes<A>), &fft_batch_interleaved<A>,
                        &flip_signs<A>,      &expand<NarrowA>};
}

}  // namespace
}  // namespace kfm::detail::kern
