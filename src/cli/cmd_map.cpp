// `kfm map`: phi of every row of a .npy file through kfm::transform_batch, written as float32 .npy.
#include <algorithm>

#include "cli/cli.hpp"
#include "offline/npy.hpp"

namespace kfm::cli {

int run_map(const std::vector<std::string>& argv) {
    const arguments args("map", argv, {{"--in", true}, {"--out", true}}, 1);
    if (args.positional().empty()) usage_error("'kfm map' needs a FILE (see 'kfm help map')");
    const std::string in_path = args.value("--in");
    const std::string out_path = args.value("--out");
    if (out_path.empty()) usage_error("--out needs a file name");
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
    // Chunks keep the workspace small for large inputs.
    const std::size_t chunk = std::min<std::size_t>(256, std::max<std::size_t>(x.rows, 1));
    const aligned_buffer workspace(kfm::workspace_bytes(v, chunk));
    for (std::size_t begin = 0; begin < x.rows; begin += chunk) {
        const std::size_t n = std::min(chunk, x.rows - begin);
        const kfm::status s = kfm::transform_batch(v, x.row(begin), n, x.cols, x.cols, out.data() + begin * out_dim,
                                                   out_dim, workspace.data(), workspace.size());
        if (s != kfm::status::ok)
            throw cli_error(in_path + ": rows " + std::to_string(begin) + ".." + std::to_string(begin + n - 1) + ": " +
                            kfm::status_string(s));
    }
    offline::write_npy_f32(out_path, x.rows, out_dim, out.data());
    return 0;
}

}  // namespace kfm::cli
