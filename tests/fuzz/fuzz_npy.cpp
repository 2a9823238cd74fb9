// libFuzzer target: the .npy reader (src/offline/io/npy.cpp). Any input either parses into rows x cols
// values or throws std::runtime_error with the name as prefix; nothing else (no other exception, no read
// outside the buffer: AddressSanitizer).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "kfm/offline/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const kfm::offline::npy_array a = kfm::offline::parse_npy(data, size, "fuzz.npy");
        if (a.data.size() != a.rows * a.cols || (a.ndim != 1 && a.ndim != 2) || (a.ndim == 1 && a.rows != 1)) {
            std::fprintf(stderr, "npy: inconsistent array (%zu x %zu, %zu values)\n", a.rows, a.cols, a.data.size());
            std::abort();
        }
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).rfind("fuzz.npy", 0) != 0) {
            std::fprintf(stderr, "npy: error without the name: %s\n", e.what());
            std::abort();
        }
    }
    return 0;
}
