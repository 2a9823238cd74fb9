// libFuzzer target: raw bytes straight into kfm::open (checksums as they are, so most inputs stop at the
// container checks), then the map contract on whatever opens.
#include "map_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    kfm::fuzz::check_map_bytes(data, size);
    return 0;
}
