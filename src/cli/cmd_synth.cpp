// `kfm synth`: the documented synthetic data set (offline::synthetic_rows) so the demo and the tests need
// no user data; --labels also writes its classification target (offline::synthetic_labels).
#include "cli/cli.hpp"
#include "kfm/offline.hpp"

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

    const std::vector<float> x = offline::synthetic_rows(rows, dim, seed);
    offline::output_files outputs;
    outputs.add(out, offline::encode_npy_f32(rows, dim, x.data()));
    if (!labels_path.empty()) {
        const std::vector<std::int64_t> labels = offline::synthetic_labels(x.data(), rows, dim);
        outputs.add(labels_path, offline::encode_npy_i64_vector(rows, labels.data()));
    }
    outputs.commit();
    return 0;
}

}  // namespace kfm::cli
