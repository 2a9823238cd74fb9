// Rows whose features all vanish (vanished_rows.hpp).
#include "cli/vanished_rows.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "offline/io/open_map_reader.hpp"

namespace kfm::cli {
namespace {

// Kernels with k(x, x) = 1 for every x.
bool unit_diagonal(format::kernel k) {
    return k == format::kernel::gaussian || k == format::kernel::matern || k == format::kernel::rational_quadratic ||
           k == format::kernel::laplacian;
}

std::size_t all_zero_rows(const float* phi, std::size_t rows, std::size_t out_dim) {
    std::size_t count = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        const float* row = phi + r * out_dim;
        count += std::all_of(row, row + out_dim, [](float v) { return v == 0.0f; }) ? 1 : 0;
    }
    return count;
}

}  // namespace

bool rows_can_vanish(const kfm::map& map) {
    const format::method m = map.method();
    return unit_diagonal(map.kernel()) && (m == format::method::nystroem || m == format::method::maclaurin_opt);
}

std::size_t vanished_rows(const kfm::map& map, const float* phi, std::size_t rows) {
    return rows_can_vanish(map) ? all_zero_rows(phi, rows, map.output_dim()) : 0;
}

std::size_t vanished_rows(const kfm::map& map, const offline::npy_array& x) {
    if (!rows_can_vanish(map)) return 0;
    // Blocks bound the memory: a block's features, not the whole file's.
    const std::size_t out_dim = map.output_dim(), block = std::max<std::size_t>(1, (std::size_t(1) << 22) / out_dim);
    std::vector<float> phi(std::min(block, x.rows) * out_dim);
    std::size_t count = 0;
    for (std::size_t begin = 0; begin < x.rows; begin += block) {
        const std::size_t n = std::min(block, x.rows - begin);
        offline::map_rows_parallel(map, x.data.data() + begin * x.cols, n, x.cols, phi.data(), 0);
        count += all_zero_rows(phi.data(), n, out_dim);
    }
    return count;
}

std::size_t vanished_rows(const kfm::map& model, const offline::npy_array& x, const std::vector<float>& scores) {
    if (!rows_can_vanish(model)) return 0;
    const std::span<const float> bias = offline::head_bias_of(model);
    const std::size_t k = bias.size();
    offline::npy_array candidates;
    candidates.cols = x.cols;
    for (std::size_t r = 0; r < x.rows; ++r)
        if (std::equal(bias.begin(), bias.end(), scores.begin() + std::ptrdiff_t(r * k))) {
            candidates.data.insert(candidates.data.end(), x.data.begin() + std::ptrdiff_t(r * x.cols),
                                   x.data.begin() + std::ptrdiff_t((r + 1) * x.cols));
            ++candidates.rows;
        }
    return vanished_rows(model, candidates);
}

void warn_vanished_rows(const std::string& command, const kfm::map& map, std::size_t vanished, std::size_t rows,
                        const std::string& path, const std::string& consequence) {
    if (vanished == 0) return;
    std::fprintf(stderr,
                 "kfm %s: warning: %zu of %zu rows of %s have all-zero features, so the map estimates k(x, x) = 0 "
                 "for them where the %s kernel's is 1%s (rows far from the data the map was built from)\n",
                 command.c_str(), vanished, rows, path.c_str(), offline::kernel_name(map.kernel()), consequence.c_str());
}

}  // namespace kfm::cli
