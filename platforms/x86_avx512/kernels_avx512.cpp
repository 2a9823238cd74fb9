// The AVX-512F/BW/DQ/VL kernel table: the templated kernels instantiated for xsimd::avx512bw (the FFT
// for 8-lane AVX2+FMA, which measured faster on this hardware), compiled with this platform's flags
// (platform.cmake) in its own namespace.
#include "kernels/make_table.hpp"
#include "runtime/kernel_selection.hpp"

namespace kfm::avx512 {
extern const detail::kernel_table table;  // external linkage for the ISA registry
constexpr detail::kernel_table every_kernel = detail::kern::make_table<xsimd::avx512bw, xsimd::fma3<xsimd::avx2>>(isa::avx512);
KFM_CHECK_TABLE_COMPLETE(every_kernel);
constexpr detail::kernel_table table = detail::keep_selected_kernels(every_kernel);
}  // namespace kfm::avx512
