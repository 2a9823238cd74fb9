// `kfm synth`: a documented synthetic data set so the demo and the tests need no user data.
// A mixture of 10 isotropic Gaussian clusters, centres uniform in [-0.6, 0.6]^d, standard deviations
// uniform in [0.1, 0.3], equal weights: values mostly in [-1, 1] like the (rescaled) real data sets, with
// enough structure that kernel values spread over (0, 1) for sigma^2 = d/2. --labels also writes a
// classification target: which of the row's first three values (all of them when d < 3) is largest.
#include "cli/cli.hpp"
#include "kfm/offline.hpp"
#include "offline/io/npy.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::cli {

int run_synth(const std::vector<std::string>& argv) {
    const arguments args("synth", argv, {{"--rows", true}, {"--dim", true}, {"--seed", true}, {"-o", true}, {"--labels", true}}, 0);
    args.value("--rows");  // usage errors when absent
    args.value("--dim");
    const unsigned rows = args.u32("--rows", 0, 1);
    const unsigned dim = args.u32("--dim", 0, 1);
    const std::uint64_t seed = args.u64("--seed", 1);
    const std::string out = args.value("-o");
    if (out.empty()) usage_error("-o needs a file name");
    const std::string labels_path = args.value_or("--labels", "");
    if (args.has("--labels") && labels_path.empty()) usage_error("--labels needs a file name");
    if (!labels_path.empty() && offline::same_destination(labels_path, out))
        usage_error("--labels " + labels_path + " is the same file as -o " + out + " (each output needs a file of its own)");
    if (std::uint64_t(rows) * dim > (std::uint64_t(1) << 31))
        usage_error("--rows x --dim must be at most 2^31 values");

    constexpr unsigned clusters = 10;
    offline::rng centre_rng(offline::derive(seed, 0));
    std::vector<double> centre(std::size_t(clusters) * dim), spread(clusters);
    for (double& c : centre) c = 1.2 * centre_rng.uniform() - 0.6;
    for (double& s : spread) s = 0.1 + 0.2 * centre_rng.uniform();

    offline::rng point_rng(offline::derive(seed, 1));
    std::vector<float> x(std::size_t(rows) * dim);
    for (std::size_t i = 0; i < rows; ++i) {
        const std::size_t k = point_rng.below(clusters);
        for (std::size_t j = 0; j < dim; ++j)
            x[i * dim + j] = float(centre[k * dim + j] + spread[k] * point_rng.normal());
    }
    offline::output_files outputs;
    outputs.add(out, offline::encode_npy_f32(rows, dim, x.data()));
    if (!labels_path.empty()) {
        std::vector<std::int64_t> labels(rows);
        const std::size_t considered = dim < 3 ? dim : 3;
        for (std::size_t i = 0; i < rows; ++i) {
            std::size_t best = 0;
            for (std::size_t j = 1; j < considered; ++j)
                if (x[i * dim + j] > x[i * dim + best]) best = j;
            labels[i] = std::int64_t(best);
        }
        outputs.add(labels_path, offline::encode_npy_i64_vector(rows, labels.data()));
    }
    outputs.commit();
    return 0;
}

}  // namespace kfm::cli
