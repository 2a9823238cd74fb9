// The checks of open() that the firmware profile (KFM_FIRMWARE) computes without double-precision libm,
// evaluated both ways on one file, so that a native test proves both builds accept and refuse the same maps:
// the output bound (runtime/output_bound.hpp: double on the host, float in the profile).
#pragma once
#include <cstddef>
#include <cstdint>

namespace kfm::test {

// What each profile's check decided on a file (reached: open's earlier checks passed, so the check ran).
struct open_profile_decisions {
    bool bound_reached = false;
    double host_bound = 0.0;      // log2_magnitude_bound
    float firmware_bound = 0.0f;  // log2_magnitude_bound_float
    bool host_accepts_bound = false, firmware_accepts_bound = false;
};

// Runs open's checks on bytes (8-byte aligned) up to the output bound and evaluates it in both profiles.
open_profile_decisions open_profile_decisions_of(const std::uint8_t* bytes, std::size_t size);

// doctest CHECKs: every check both profiles reached decides alike, and the two bounds lie within the margin
// output_bound.hpp states (2^-6).
void check_open_profiles_agree(const std::uint8_t* bytes, std::size_t size);

}  // namespace kfm::test
