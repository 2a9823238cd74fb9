// `kfm map`: phi of every row of a .npy file through kfm::transform_batch on --threads host threads,
// written as float32 .npy.
#include <stdexcept>

#include "cli/cli.hpp"
#include "cli/vanished_rows.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

int run_map(const std::vector<std::string>& argv) {
    const arguments args("map", argv, {{"--in", true}, {"--out", true}, {"--threads", true}}, 1);
    if (args.positional().empty()) usage_error("'kfm map' needs a FILE (see 'kfm help map')");
    const std::string in_path = args.value("--in");
    const std::string out_path = args.value("--out");
    if (out_path.empty()) usage_error("--out needs a file name");
    const unsigned threads = args.u32("--threads", 0, 1);  // absent: every core
    if (threads > 1024) usage_error("--threads must be at most 1024, got " + args.value("--threads"));
    refuse_overwriting_inputs("--out", out_path, {{"FILE", args.positional()[0]}, {"--in", in_path}});

    const loaded_map file = load_map(args.positional()[0]);
    const kfm::map& v = file.view;
    const offline::npy_array x = offline::read_npy(in_path);
    if (x.cols != v.input_dim())
        throw cli_error(in_path + ": rows have " + std::to_string(x.cols) + " values but the map's input_dim is " +
                        std::to_string(v.input_dim()));
    require_finite(in_path, x.data.data(), x.rows, x.cols);

    const std::size_t out_dim = v.output_dim();
    std::vector<float> out(x.rows * out_dim);
    try {
        offline::map_rows_parallel(v, x.data.data(), x.rows, x.cols, out.data(), threads);
    } catch (const std::runtime_error& e) {
        throw cli_error(in_path + ": " + e.what());
    }
    offline::write_npy_f32(out_path, x.rows, out_dim, out.data());
    warn_vanished_rows("map", v, offline::vanished_rows(v, x.data.data(), out.data(), x.rows), x.rows, in_path, "");
    return 0;
}

}  // namespace kfm::cli
