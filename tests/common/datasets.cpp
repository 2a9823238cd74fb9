// Data set loaders shared by the reproduction tests.
#include "common/datasets.hpp"

#include <algorithm>
#include <filesystem>

namespace kfm::test {

bool load_quffka_scaled(const std::string& name, offline::npy_array* out) {
    const std::string path = std::string(KFM_SHARED_DATA_DIR) + "/" + name + "/X_train.npy";
    if (!std::filesystem::exists(path)) return false;
    *out = offline::read_npy(path);
    float max = 0.0f;
    for (float v : out->data) max = std::max(max, v);
    for (float& v : out->data) v = name == "letter" ? (v + 1.0f) / 2.0f : v / max;
    return true;
}

}  // namespace kfm::test
