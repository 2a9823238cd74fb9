// `kfm bench`: median nanoseconds per vector of kfm::transform (one vector per call) and
// kfm::transform_batch (B vectors per call), timed with steady_clock over repeated, interleaved runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <utility>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {
namespace {

constexpr int timed_samples = 101;
// Short samples: on a loaded machine a sample that spans a preemption is an outlier the median ignores,
// and short samples make such outliers rarer; 100 us is still far above steady_clock's resolution.
constexpr double min_sample_seconds = 0.0001;

using clock_type = std::chrono::steady_clock;

// One way of mapping `vectors` vectors, timed in samples of `passes` repetitions.
struct timed_pass {
    timed_pass(std::function<void()> p, std::size_t n) : pass(std::move(p)), vectors(n) {}

    std::function<void()> pass;
    std::size_t vectors = 1;
    std::size_t passes = 1;
    std::vector<double> ns_per_vector;

    double sample() const {
        const auto t0 = clock_type::now();
        for (std::size_t i = 0; i < passes; ++i) pass();
        return std::chrono::duration<double>(clock_type::now() - t0).count();
    }
    // Doubles the repetitions until one sample lasts at least min_sample_seconds.
    void calibrate() {
        pass();  // warm caches and page in the workspace
        while (sample() < min_sample_seconds && passes < (std::size_t(1) << 30)) passes *= 2;
    }
    void record() { ns_per_vector.push_back(sample() * 1e9 / double(passes * vectors)); }
    double median() {
        std::sort(ns_per_vector.begin(), ns_per_vector.end());
        return ns_per_vector[ns_per_vector.size() / 2];
    }
    double minimum() const { return *std::min_element(ns_per_vector.begin(), ns_per_vector.end()); }
};

// Samples of the two passes alternate so that a burst of load from other processes hits both alike.
void measure(timed_pass& a, timed_pass& b) {
    a.calibrate();
    b.calibrate();
    for (int i = 0; i < timed_samples; ++i) {
        a.record();
        b.record();
    }
}

}  // namespace

std::string isa_names(const char* separator, bool available_only) {
    std::string out;
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        const kfm::isa i = kfm::isa_at(k);
        if (available_only && !kfm::isa_available(i)) continue;
        if (!out.empty()) out += separator;
        out += kfm::isa_name(i);
    }
    return out;
}

int run_bench(const std::vector<std::string>& argv) {
    const arguments args("bench", argv, {{"--batch", true}, {"--isa", true}, {"--json", false}}, 1);
    if (args.positional().empty()) usage_error("'kfm bench' needs a FILE (see 'kfm help bench')");
    const unsigned batch = args.u32("--batch", 64, 1);
    if (batch > 65536) usage_error("--batch must be at most 65536");
    kfm::isa requested = kfm::isa::automatic;
    if (args.has("--isa")) {
        const std::string name = args.value("--isa");
        if (kfm::isa_from_name(name.c_str(), &requested) != kfm::status::ok)
            usage_error("unknown ISA '" + name + "' (" + isa_names(", ", false) + ")");
        if (!kfm::isa_available(requested))
            throw cli_error("ISA " + name + " is not available (not built into this kfm, or this CPU lacks it; available: " +
                            isa_names(", ", true) + ")");
    }
    const loaded_map file = load_map(args.positional()[0], requested);
    const kfm::map& v = file.view;
    const std::size_t d = v.input_dim(), out_dim = v.output_dim();

    // Fixed pseudo-random inputs in [-1, 1], the range the data sets are scaled to.
    const std::vector<float> x = offline::uniform_values(std::size_t(batch) * d, 12345);
    std::vector<float> out(std::size_t(batch) * out_dim);
    const aligned_buffer single_ws(kfm::workspace_bytes(v, 1));
    const aligned_buffer batch_ws(kfm::workspace_bytes(v, batch));

    kfm::status first = kfm::transform(v, x.data(), d, out.data(), out_dim, single_ws.data(), single_ws.size());
    if (first == kfm::status::ok)
        first = kfm::transform_batch(v, x.data(), batch, d, d, out.data(), out_dim, batch_ws.data(), batch_ws.size());
    if (first != kfm::status::ok) throw cli_error(file.path + ": transform failed: " + kfm::status_string(first));

    timed_pass single{[&] {
                          for (std::size_t i = 0; i < batch; ++i)
                              (void)kfm::transform(v, x.data() + i * d, d, out.data() + i * out_dim, out_dim,
                                                   single_ws.data(), single_ws.size());
                      },
                      batch};
    timed_pass batched{[&] {
                           (void)kfm::transform_batch(v, x.data(), batch, d, d, out.data(), out_dim,
                                                      batch_ws.data(), batch_ws.size());
                       },
                       batch};
    measure(single, batched);
    const double single_ns = single.median(), batch_ns = batched.median();

    const char* isa = kfm::isa_name(v.active_isa());
    if (args.has("--json")) {
        std::printf("{\"file\": %s, \"isa\": %s, \"input_dim\": %zu, \"output_dim\": %zu, \"single_ns\": %s, "
                    "\"batch\": %u, \"batch_ns_per_vector\": %s, \"single_ns_min\": %s, \"batch_ns_per_vector_min\": %s, "
                    "\"samples\": %d}\n",
                    json_string(file.path).c_str(), json_string(isa).c_str(), d, out_dim,
                    json_number(single_ns).c_str(), batch, json_number(batch_ns).c_str(),
                    json_number(single.minimum()).c_str(), json_number(batched.minimum()).c_str(), timed_samples);
        return 0;
    }
    std::printf("%s: isa %s, input_dim %zu, output_dim %zu (medians of %d timed runs)\n", file.path.c_str(), isa, d,
                out_dim, timed_samples);
    std::printf("transform         %.1f ns per vector (fastest run %.1f)\n", single_ns, single.minimum());
    std::printf("transform_batch   %.1f ns per vector (batch %u; fastest run %.1f)\n", batch_ns, batch,
                batched.minimum());
    return 0;
}

}  // namespace kfm::cli
