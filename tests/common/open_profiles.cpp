#include "common/open_profiles.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "runtime/output_bound.hpp"
#include "runtime/projection.hpp"
#include "runtime/verify.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::test {

open_profile_decisions open_profile_decisions_of(const std::uint8_t* bytes, std::size_t size) {
    open_profile_decisions d;
    detail::map_state state;
    if (detail::verify_container(bytes, size, &state) != status::ok || detail::verify_map(state) != status::ok)
        return d;
    state.ops = detail::projection_ops_for(state.meta->projection);
    if (state.ops->verify(state) != status::ok || detail::verify_model(state) != status::ok ||
        detail::transform_work(state) > detail::work_limit(state, size))
        return d;
    d.bound_reached = true;
    d.host_bound = detail::log2_magnitude_bound(state);
    d.firmware_bound = detail::log2_magnitude_bound_float(state);
    d.host_accepts_bound = d.host_bound <= detail::max_log2_magnitude;
    d.firmware_accepts_bound = d.firmware_bound <= float(detail::max_log2_magnitude);
    return d;
}

void check_open_profiles_agree(const std::uint8_t* bytes, std::size_t size) {
    const open_profile_decisions d = open_profile_decisions_of(bytes, size);
    if (!d.bound_reached) return;
    INFO("output bound: host " << d.host_bound << ", firmware profile " << d.firmware_bound);
    CHECK(d.host_accepts_bound == d.firmware_accepts_bound);
    if (std::isfinite(d.host_bound)) {
        CHECK(std::fabs(double(d.firmware_bound) - d.host_bound) <= 0x1p-6);
    } else {
        CHECK(double(d.firmware_bound) == d.host_bound);
    }
}

}  // namespace kfm::test
