// Writes the fuzz seed corpus: one small map of every builder configuration (tests/common/builder_configs)
// into <dir>/map and <dir>/open, the same maps with scaling and a head into <dir>/model, and a few .npy files (float32 rows, a vector, an empty array) into
// <dir>/npy. Generated at build time rather than committed: the seeds follow the format.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/builder_configs.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/model.hpp"
#include "kfm/offline/npy.hpp"

namespace {

void write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// A head over the map's outputs with weights and biases in (-1, 1): regression with 2 outputs, binary
// (labels -3, 7) or multiclass with classes 10, 20, 30. (Not tests/common/test_models: that part of the
// test library needs doctest's main.)
kfm::offline::linear_head seed_head(kfm::format::task_kind kind, std::uint32_t features) {
    kfm::offline::linear_head h;
    h.kind = kind;
    h.outputs = kind == kfm::format::task_kind::binary ? 1 : (kind == kfm::format::task_kind::regression ? 2 : 3);
    if (kind == kfm::format::task_kind::binary) h.labels = {-3, 7};
    if (kind == kfm::format::task_kind::multiclass) h.labels = {10, 20, 30};
    h.weights.resize(std::size_t(h.outputs) * features);
    for (std::size_t i = 0; i < h.weights.size(); ++i) h.weights[i] = float(int(i * 37 % 19) - 9) / 10.0f;
    for (std::uint32_t j = 0; j < h.outputs; ++j) h.bias.push_back(0.25f * float(j) - 0.3f);
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: kfm_fuzz_seeds DIR\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    for (const char* target : {"map", "open", "model", "npy"}) std::filesystem::create_directories(dir / target);
    const kfm::format::task_kind heads[] = {kfm::format::task_kind::regression, kfm::format::task_kind::binary,
                                            kfm::format::task_kind::multiclass};
    std::size_t n = 0, int8_seeds = 0;
    for (unsigned d : {3u, 6u}) {
        for (const auto& config : kfm::test::builder_configs(d, 16)) {
            const auto bytes = kfm::offline::serialize(kfm::offline::build_map(config.options));
            std::string name = config.label + "-d" + std::to_string(d);
            for (char& c : name)
                if (c == '/') c = '_';
            write(dir / "map" / name, bytes);
            write(dir / "open" / name, bytes);
            // The same map as a model: scaling and, in turn, a regression, binary or multiclass head.
            auto model = kfm::offline::build_map(config.options);
            kfm::offline::input_scaling scaling;
            for (unsigned j = 0; j < d; ++j) {
                scaling.shift.push_back(0.1f * float(j) - 0.2f);
                scaling.scale.push_back(j % 2 ? -1.5f : 0.75f);
            }
            // A map that owns its PREP (maclaurin-opt's centring) keeps it.
            if ((model.meta.flags & kfm::format::meta_flag_gaussian_prefactor) == 0) kfm::offline::add_preprocessing(model, scaling);
            const auto plain = model;
            kfm::offline::linear_head head = seed_head(heads[n % 3], model.meta.output_dim);
            kfm::offline::add_head(model, head);
            write(dir / "model" / name, kfm::offline::serialize(model));
            // For d = 3, the same model with the int8 head (HDI8, HSCL).
            if (d == 3) {
                auto int8_model = plain;
                head.stored_as = kfm::offline::head_dtype::int8;
                kfm::offline::add_head(int8_model, head);
                write(dir / "model" / (name + "-int8"), kfm::offline::serialize(int8_model));
                ++int8_seeds;
            }
            ++n;
        }
    }
    const std::vector<float> values = {1.0f, -2.5f, 0.0f, 3.0e38f, 1e-40f, 7.0f};
    write(dir / "npy" / "rows", kfm::offline::encode_npy_f32(2, 3, values.data()));
    write(dir / "npy" / "vector", kfm::offline::encode_npy_f32(1, 6, values.data()));
    write(dir / "npy" / "empty", kfm::offline::encode_npy_f32(0, 3, values.data()));
    std::printf("wrote %zu map and model seeds, %zu int8-head model seeds and 3 npy seeds into %s\n", n, int8_seeds,
                dir.c_str());
    return 0;
}
