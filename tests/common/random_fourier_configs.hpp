// The method x kernel pairs of the dense random-feature baselines (rff, rff-phase, orf), shared by the
// offline and statistical suites so both cover exactly the same list.
#pragma once
#include <string>

#include "kfm/format.hpp"
#include "kfm/offline.hpp"

namespace kfm::test {

struct random_fourier_config {
    format::method m;
    format::kernel k;
    unsigned order;
};

inline constexpr random_fourier_config random_fourier_configs[] = {
    {format::method::rff, format::kernel::gaussian, 0}, {format::method::rff_phase, format::kernel::gaussian, 0},
    {format::method::orf, format::kernel::gaussian, 0}, {format::method::rff, format::kernel::arccos, 0},
    {format::method::rff, format::kernel::arccos, 1},   {format::method::rff, format::kernel::arccos, 2},
    {format::method::orf, format::kernel::arccos, 0},   {format::method::orf, format::kernel::arccos, 1},
    {format::method::orf, format::kernel::arccos, 2},
};

inline std::string describe(const random_fourier_config& c) {
    return std::string(offline::method_name(c.m)) + "/" + offline::kernel_name(c.k) + "/" + std::to_string(c.order);
}

}  // namespace kfm::test
