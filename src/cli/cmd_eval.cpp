// `kfm eval`: kernel-approximation error of a map on a data set against the exact kernel it records
// (relative Frobenius and relative max error, mean and 95% interval over independent runs).
#include <algorithm>
#include <cstdio>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

int run_eval(const std::vector<std::string>& argv) {
    const arguments args("eval", argv,
                         {{"--data", true}, {"--samples", true}, {"--runs", true}, {"--seed", true}, {"--json", false}},
                         1);
    if (args.positional().empty()) usage_error("'kfm eval' needs a FILE (see 'kfm help eval')");
    const std::string data_path = args.value("--data");
    const unsigned runs = args.u32("--runs", 10, 1);
    const std::uint64_t seed = args.u64("--seed", 1);
    const unsigned requested_samples = args.u32("--samples", 550, 1);

    const loaded_map file = load_map(args.positional()[0]);
    const kfm::map& v = file.view;
    const offline::npy_array x = offline::read_npy(data_path);
    if (x.cols != v.input_dim())
        throw cli_error(data_path + ": rows have " + std::to_string(x.cols) + " values but the map's input_dim is " +
                        std::to_string(v.input_dim()));
    if (x.rows == 0) throw cli_error(data_path + ": the data set has no rows");
    require_finite(data_path, x.data.data(), x.rows, x.cols);
    // The default sample size shrinks to small data sets; an explicit one must fit.
    unsigned samples = requested_samples;
    if (!args.has("--samples")) samples = unsigned(std::min<std::size_t>(samples, x.rows));
    if (samples > x.rows)
        usage_error("--samples " + std::to_string(samples) + " exceeds the " + std::to_string(x.rows) + " rows of " +
                    data_path);

    const offline::evaluation e =
        offline::evaluate(v, x.data.data(), x.rows, v.input_dim(), samples, runs, seed);
    const std::string method = offline::method_name(v.method());
    const std::string kernel = offline::kernel_name(v.kernel());

    if (args.has("--json")) {
        const auto iv = [](const offline::interval& i) {
            return "{\"mean\": " + json_number(i.mean) + ", \"low\": " + json_number(i.low) +
                   ", \"high\": " + json_number(i.high) + "}";
        };
        std::string j = "{\"file\": " + json_string(file.path) + ", \"data\": " + json_string(data_path);
        j += ", \"method\": " + json_string(method) + ", \"kernel\": " + json_string(kernel);
        j += ", \"input_dim\": " + std::to_string(v.input_dim()) + ", \"output_dim\": " + std::to_string(v.output_dim());
        j += ", \"samples\": " + std::to_string(e.samples) + ", \"runs\": " + std::to_string(e.runs);
        j += ", \"seed\": " + std::to_string(seed);
        j += ", \"rel_frobenius\": " + iv(e.rel_frobenius) + ", \"rel_max\": " + iv(e.rel_max);
        j += ", \"rel_frobenius_runs\": " + json_array(e.rel_frobenius_runs);
        j += ", \"rel_max_runs\": " + json_array(e.rel_max_runs) + "}\n";
        std::fputs(j.c_str(), stdout);
        return 0;
    }
    const auto half = [](const offline::interval& i) { return (i.high - i.low) / 2; };
    std::printf("%s %s, input_dim %u, output_dim %u; %u runs of two %u-row samples of %s (seed %llu)\n",
                method.c_str(), kernel.c_str(), v.input_dim(), v.output_dim(), e.runs, e.samples, data_path.c_str(),
                static_cast<unsigned long long>(seed));
    std::printf("relative Frobenius error  %.6g +- %.2g (95%% interval [%.6g, %.6g])\n", e.rel_frobenius.mean,
                half(e.rel_frobenius), e.rel_frobenius.low, e.rel_frobenius.high);
    std::printf("relative max error        %.6g +- %.2g (95%% interval [%.6g, %.6g])\n", e.rel_max.mean,
                half(e.rel_max), e.rel_max.low, e.rel_max.high);
    return 0;
}

}  // namespace kfm::cli
