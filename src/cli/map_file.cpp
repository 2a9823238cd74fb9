// Reading a .kfm file into aligned memory and opening it with the runtime, the buffers and input checks
// the commands that run a map share, and the names of the format's enums used in reports.
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

const char* projection_name(std::uint32_t p) { return kfm::projection_name(static_cast<format::projection>(p)); }

const char* output_convention_name(std::uint32_t c) {
    switch (static_cast<format::output_convention>(c)) {
        case format::output_convention::paired_cos_sin: return "paired-cos-sin";
        case format::output_convention::cos_phase: return "cos-phase";
        case format::output_convention::real: return "real";
    }
    return "?";
}

const char* nonlinearity_name(std::uint32_t n) {
    switch (static_cast<format::nonlinearity>(n)) {
        case format::nonlinearity::cos_sin: return "cos-sin";
        case format::nonlinearity::cos_phase: return "cos-phase";
        case format::nonlinearity::relu: return "relu";
        case format::nonlinearity::step: return "step";
        case format::nonlinearity::relu2: return "relu2";
        case format::nonlinearity::identity: return "identity";
        case format::nonlinearity::product: return "product";
    }
    return "?";
}

const char* dtype_name(std::uint32_t t) {
    switch (static_cast<format::dtype>(t)) {
        case format::dtype::u8: return "u8";
        case format::dtype::u16: return "u16";
        case format::dtype::u32: return "u32";
        case format::dtype::i32: return "i32";
        case format::dtype::f32: return "f32";
        case format::dtype::f64: return "f64";
        case format::dtype::bits: return "bits";
        case format::dtype::record: return "record";
        case format::dtype::i8: return "i8";
    }
    return "?";
}

std::string tag_name(std::uint32_t tag) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const char c = static_cast<char>((tag >> (8 * i)) & 0xff);
        s.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return s;
}

}  // namespace kfm::cli
