// Data set location and loaders shared by the reproduction tests.
#include "common/datasets.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace kfm::test {
namespace {

// Function-local so that test registration (static initialisation in other files) can count safely.
struct data_counts {
    std::size_t skipped = 0;
    std::size_t with_data = 0;
};
data_counts& counts() {
    static data_counts c;
    return c;
}

}  // namespace

std::string data_dir() {
    const char* env = std::getenv("KFM_DATA_DIR");
    return env && *env ? std::string(env) : std::string(KFM_DEFAULT_DATA_DIR);
}

std::string dataset_file(const std::string& name, const std::string& file) {
    return data_dir() + "/" + name + "/" + file;
}

bool missing_data(std::initializer_list<const char*> names) {
    const bool any = std::any_of(names.begin(), names.end(),
                                 [](const char* n) { return std::filesystem::exists(dataset_file(n)); });
    ++(any ? counts().with_data : counts().skipped);
    return !any;
}

std::size_t cases_skipped_for_data() { return counts().skipped; }
std::size_t cases_with_data() { return counts().with_data; }

bool load_quffka_scaled(const std::string& name, offline::npy_array* out) {
    const std::string path = dataset_file(name);
    if (!std::filesystem::exists(path)) return false;
    *out = offline::read_npy(path);
    float max = 0.0f;
    for (float v : out->data) max = std::max(max, v);
    for (float& v : out->data) v = name == "letter" ? (v + 1.0f) / 2.0f : v / max;
    return true;
}

}  // namespace kfm::test
