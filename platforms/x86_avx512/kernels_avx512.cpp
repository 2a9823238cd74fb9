// The AVX-512F/BW/DQ/VL kernel table: the templated kernels instantiated for xsimd::avx512bw, compiled with this
// platform's flags (platform.cmake) in its own namespace.
#include "kernels/make_table.hpp"

namespace kfm::avx512 {
extern const detail::kernel_table table = detail::kern::make_table<xsimd::avx512bw>(isa::avx512);
}  // namespace kfm::avx512
