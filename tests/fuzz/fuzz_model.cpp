// libFuzzer target, structure-aware: the input is a model file (the seeds are builder maps with PREP and
// a regression, binary or multiclass head) with the fuzzer's mutations, checksums re-sealed before open,
// so mutations of the scaling, the head, the bias and the labels reach the verifier and predict.
#include <vector>

#include "map_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> bytes(data, data + size);
    kfm::fuzz::reseal(bytes.data(), bytes.size());
    kfm::fuzz::check_map_bytes(bytes.data(), bytes.size());
    kfm::fuzz::check_model_bytes(bytes.data(), bytes.size());
    return 0;
}
