// Small build options for one map of every method and every projection kind (structured directions
// included), shared by the suites that check a property of the runtime on all of them (batched paths,
// zero allocations).
#pragma once
#include <string>
#include <vector>

#include "kfm/offline.hpp"

namespace kfm::test {

struct builder_config {
    std::string label;
    offline::build_options options;
};

// input_dim d (odd values exercise padding) and about `features` outputs per map.
std::vector<builder_config> builder_configs(unsigned d, unsigned features);

}  // namespace kfm::test
