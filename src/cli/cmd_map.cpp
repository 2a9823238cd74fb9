// `kfm map`: phi of every row of a .npy file through kfm::transform_batch on --threads host threads,
// written as float32 .npy.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {
namespace {

// Kernels with k(x, x) = 1 for every x: a row whose features are all 0 gets the estimate 0 there instead
// (maclaurin-opt's gaussian prefactor underflows for a row far from the mean of its training rows;
// nystroem's features vanish far from every landmark).
bool unit_diagonal(format::kernel k) {
    return k == format::kernel::gaussian || k == format::kernel::matern || k == format::kernel::rational_quadratic ||
           k == format::kernel::laplacian;
}

std::size_t all_zero_rows(const std::vector<float>& out, std::size_t rows, std::size_t out_dim) {
    std::size_t count = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        const float* row = out.data() + r * out_dim;
        count += std::all_of(row, row + out_dim, [](float v) { return v == 0.0f; }) ? 1 : 0;
    }
    return count;
}

}  // namespace

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
    if (const std::size_t zero = unit_diagonal(v.kernel()) ? all_zero_rows(out, x.rows, out_dim) : 0; zero != 0)
        std::fprintf(stderr,
                     "kfm map: warning: %zu of %zu rows of %s have all-zero features, so the map estimates k(x, x) = 0 "
                     "for them where the %s kernel's is 1 (rows far from the data the map was built from)\n",
                     zero, x.rows, in_path.c_str(), offline::kernel_name(v.kernel()));
    return 0;
}

}  // namespace kfm::cli
