// What tensor-srht and ctr-srht share: their option checks, the sizes of the work vector x~ = (x/|x|, sqrt(q)),
// the projection limit, and the map they write (hadamard projection with repeats = 1, normalised input with
// sqrt(q) appended, the blocks' signs and the given product segments).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "offline/methods/builders.hpp"

namespace kfm::offline {

// Refuses what neither method supports, naming `method` ("tensor-srht", "ctr-srht") in the message.
void check_tensor_srht_options(const build_options& o, const std::string& method);

// The polynomial-sphere kernel as alpha (q + x.y)^p, and d2 = 2^ceil(log2(d + 1)), the padded x~.
struct tensor_srht_kernel {
    std::uint32_t degree = 0;
    std::uint32_t d2 = 0;
    double q = 0.0;
    double alpha = 0.0;
};
tensor_srht_kernel tensor_srht_kernel_of(const build_options& o);

// Refuses `passes` passes of `blocks` blocks of d2 projections above the format's limit.
void check_tensor_srht_projections(const std::string& method, std::uint64_t passes, std::uint32_t degree,
                                   std::uint64_t blocks, std::uint32_t d2);

// The map: `blocks` independent sign-flipped blocks (signs from the seed's stream) read by `segments`.
map_contents tensor_srht_map(const build_options& o, format::method method, const tensor_srht_kernel& k,
                             std::uint64_t blocks, std::uint32_t output_dim,
                             const std::vector<format::feature_segment>& segments);

}  // namespace kfm::offline
