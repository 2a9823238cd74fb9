// libFuzzer target, structure-aware: the input is a map file (the seeds are builder maps) with the
// fuzzer's mutations; the checksums and file_bytes are recomputed before open, so mutations of the meta,
// the segments and the section values reach the semantic checks, the kernels and the feature stage.
#include <vector>

#include "map_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> bytes(data, data + size);
    kfm::fuzz::reseal(bytes.data(), bytes.size());
    kfm::fuzz::check_map_bytes(bytes.data(), bytes.size());
    return 0;
}
