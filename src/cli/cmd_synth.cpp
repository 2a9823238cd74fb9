// `kfm synth`: a documented synthetic data set so the demo and the tests need no user data.
// A mixture of 10 isotropic Gaussian clusters, centres uniform in [-0.6, 0.6]^d, standard deviations
// uniform in [0.1, 0.3], equal weights: values mostly in [-1, 1] like the (rescaled) real data sets, with
// enough structure that kernel values spread over (0, 1) for sigma^2 = d/2.
#include "cli/cli.hpp"
#include "offline/npy.hpp"
#include "offline/random.hpp"

namespace kfm::cli {

int run_synth(const std::vector<std::string>& argv) {
    const arguments args("synth", argv, {{"--rows", true}, {"--dim", true}, {"--seed", true}, {"-o", true}}, 0);
    args.value("--rows");  // usage errors when absent
    args.value("--dim");
    const unsigned rows = args.u32("--rows", 0, 1);
    const unsigned dim = args.u32("--dim", 0, 1);
    const std::uint64_t seed = args.u64("--seed", 1);
    const std::string out = args.value("-o");
    if (out.empty()) usage_error("-o needs a file name");
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
    offline::write_npy_f32(out, rows, dim, x.data());
    return 0;
}

}  // namespace kfm::cli
