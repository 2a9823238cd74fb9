// predict against transform + a plain dot loop on an SSF map at (d, D) = (784, 8192) with k = 1 and
// k = 10 outputs: model/predict/<k> times kfm::predict, model/transform_dot/<k> times kfm::transform
// into a caller buffer followed by k plain float dot products (what a user would write by hand).
// The ratio of the two is in docs/benchmarks.md, "predict against transform + a dot loop".
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/model.hpp"

namespace {

constexpr unsigned input_dim = 784, features = 8192;

// The model file for k outputs (regression head with fixed pseudo-random weights), built once per k.
struct model_file {
    std::vector<std::uint64_t> words;
    std::size_t size = 0;
    kfm::map map;
    std::vector<float> weights, bias;
};

const model_file& model(std::uint32_t k) {
    static std::unique_ptr<model_file> cache[11];
    if (cache[k]) return *cache[k];
    kfm::offline::build_options o;
    o.method = kfm::format::method::ssf;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = 8.0;
    o.input_dim = input_dim;
    o.features = features;
    o.seed = 3;
    auto contents = kfm::offline::build_map(o);
    kfm::offline::linear_head head;
    head.kind = kfm::format::task_kind::regression;
    head.outputs = k;
    const std::size_t D = contents.meta.output_dim;
    for (std::size_t i = 0; i < k * D; ++i) head.weights.push_back(std::sin(0.37f * static_cast<float>(i)) * 0.01f);
    head.bias.assign(k, 0.5f);
    kfm::offline::add_head(contents, head);
    const auto bytes = kfm::offline::serialize(contents);
    auto f = std::make_unique<model_file>();
    f->words.resize((bytes.size() + 7) / 8);
    std::memcpy(f->words.data(), bytes.data(), bytes.size());
    f->size = bytes.size();
    if (kfm::open(f->words.data(), f->size, &f->map) != kfm::status::ok) std::abort();
    f->weights = head.weights;
    f->bias = head.bias;
    cache[k] = std::move(f);
    return *cache[k];
}

std::vector<float> input() {
    std::vector<float> x(input_dim);
    for (unsigned i = 0; i < input_dim; ++i) x[i] = 0.5f * std::sin(0.1f * static_cast<float>(i));
    return x;
}

void predict(benchmark::State& state, std::uint32_t k) {
    const model_file& f = model(k);
    const std::vector<float> x = input();
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(f.map, 1));
    std::vector<float> scores(k);
    for (auto _ : state) {
        if (kfm::predict(f.map, x.data(), x.size(), scores.data(), k, nullptr, ws.data(), ws.size()) != kfm::status::ok)
            state.SkipWithError("predict failed");
        benchmark::DoNotOptimize(scores.data());
        benchmark::ClobberMemory();
    }
    state.SetLabel(kfm::isa_name(f.map.active_isa()));
}

void transform_dot(benchmark::State& state, std::uint32_t k) {
    const model_file& f = model(k);
    const std::vector<float> x = input();
    const std::size_t D = f.map.output_dim();
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(f.map, 1));
    std::vector<float> phi(D), scores(k);
    for (auto _ : state) {
        if (kfm::transform(f.map, x.data(), x.size(), phi.data(), D, ws.data(), ws.size()) != kfm::status::ok)
            state.SkipWithError("transform failed");
        for (std::uint32_t j = 0; j < k; ++j) {
            float s = f.bias[j];
            const float* w = f.weights.data() + j * D;
            for (std::size_t i = 0; i < D; ++i) s += w[i] * phi[i];
            scores[j] = s;
        }
        benchmark::DoNotOptimize(scores.data());
        benchmark::ClobberMemory();
    }
    state.SetLabel(kfm::isa_name(f.map.active_isa()));
}

int register_all() {
    for (std::uint32_t k : {1u, 10u}) {
        const std::string suffix = "/784/8192/k" + std::to_string(k);
        benchmark::RegisterBenchmark(("model/predict" + suffix).c_str(), [k](benchmark::State& s) { predict(s, k); });
        benchmark::RegisterBenchmark(("model/transform_dot" + suffix).c_str(),
                                     [k](benchmark::State& s) { transform_dot(s, k); });
    }
    return 0;
}

const int registered = register_all();

}  // namespace
