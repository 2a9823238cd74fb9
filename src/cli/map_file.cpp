// Reading a .kfm file into aligned memory and opening it with the runtime, the buffers and input checks
// the commands that run a map share.
#include <cmath>
#include <new>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

loaded_map load_map(const std::string& path, kfm::isa requested) {
    try {
        return offline::read_map_file(path, requested);
    } catch (const std::runtime_error& e) {
        throw cli_error(e.what());
    }
}

void refuse_overwriting_inputs(const std::string& out_option, const std::string& out,
                               const std::vector<std::pair<std::string, std::string>>& inputs) {
    for (const auto& [option, path] : inputs)
        if (offline::same_file(out, path))
            usage_error(out_option + " " + out + " is the same file as " + option + " " + path +
                        " (kfm never overwrites an input)");
}

aligned_buffer::aligned_buffer(std::size_t bytes)
    : data_(::operator new(bytes == 0 ? 1 : bytes, std::align_val_t(64))), size_(bytes) {}

aligned_buffer::~aligned_buffer() { ::operator delete(data_, std::align_val_t(64)); }

void require_finite(const std::string& name, const float* x, std::size_t rows, std::size_t cols) {
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            if (!std::isfinite(x[i * cols + j]))
                throw cli_error(name + ": row " + std::to_string(i) + ", column " + std::to_string(j) + " is " +
                                (std::isnan(x[i * cols + j]) ? "NaN" : "infinite") +
                                " (the map needs finite inputs)");
}

}  // namespace kfm::cli
