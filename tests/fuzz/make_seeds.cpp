// Writes the fuzz seed corpus: one small map of every builder configuration (tests/common/builder_configs)
// into <dir>/map and <dir>/open, and a few .npy files (float32 rows, a vector, an empty array) into
// <dir>/npy. Generated at build time rather than committed: the seeds follow the format.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/builder_configs.hpp"
#include "kfm/offline.hpp"
#include "offline/npy.hpp"

namespace {

void write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: kfm_fuzz_seeds DIR\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    for (const char* target : {"map", "open", "npy"}) std::filesystem::create_directories(dir / target);
    std::size_t n = 0;
    for (unsigned d : {3u, 6u}) {
        for (const auto& config : kfm::test::builder_configs(d, 16)) {
            const auto bytes = kfm::offline::serialize(kfm::offline::build_map(config.options));
            std::string name = config.label + "-d" + std::to_string(d);
            for (char& c : name)
                if (c == '/') c = '_';
            write(dir / "map" / name, bytes);
            write(dir / "open" / name, bytes);
            ++n;
        }
    }
    const std::vector<float> values = {1.0f, -2.5f, 0.0f, 3.0e38f, 1e-40f, 7.0f};
    write(dir / "npy" / "rows", kfm::offline::encode_npy_f32(2, 3, values.data()));
    write(dir / "npy" / "vector", kfm::offline::encode_npy_f32(1, 6, values.data()));
    write(dir / "npy" / "empty", kfm::offline::encode_npy_f32(0, 3, values.data()));
    std::printf("wrote %zu map seeds and 3 npy seeds into %s\n", n, dir.c_str());
    return 0;
}
