// Rows whose features all vanish where the kernel's k(x, x) > 0 (kfm/offline/vanishing_features.hpp).
#include "kfm/offline/vanishing_features.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "kfm/offline/parallel_map.hpp"
#include "offline/io/open_map_reader.hpp"

namespace kfm::offline {
namespace {

bool is_arccos_feature(std::uint32_t nonlinearity) {
    const auto n = static_cast<format::nonlinearity>(nonlinearity);
    return n == format::nonlinearity::step || n == format::nonlinearity::relu || n == format::nonlinearity::relu2;
}

bool all_zero(const float* values, std::size_t n) {
    return std::all_of(values, values + n, [](float v) { return v == 0.0f; });
}

// Whether the map sees a zero input for the row x: PREP's x' = (x - shift) * scale in float, as the runtime
// computes it, or x itself without PREP.
bool input_is_zero(std::span<const float> prep, const float* x, std::size_t d) {
    if (prep.empty()) return all_zero(x, d);
    for (std::size_t i = 0; i < d; ++i)
        if ((x[i] - prep[i]) * prep[d + i] != 0.0f) return false;
    return true;
}

}  // namespace

bool features_can_vanish(const kfm::map& map) {
    const format::map_meta& meta = map_meta_of(map);
    if (static_cast<format::projection>(meta.projection) == format::projection::kernel_landmarks) return true;
    if ((meta.flags & format::meta_flag_gaussian_prefactor) != 0) return true;
    const std::span<const format::feature_segment> segments = segments_of(map);
    return std::any_of(segments.begin(), segments.end(), [](const format::feature_segment& s) {
        return is_arccos_feature(s.nonlinearity) && (s.flags & format::segment_flag_reflect) == 0;
    });
}

std::size_t vanished_rows(const kfm::map& map, const float* x, const float* phi, std::size_t rows) {
    if (!features_can_vanish(map)) return 0;
    const std::size_t d = map.input_dim(), out_dim = map.output_dim();
    // Only arc-cosine has a k(x, x) of 0 anywhere (at x' = 0); the other kernels' is 1.
    const bool zero_input_is_exact = map.kernel() == format::kernel::arccos;
    const std::span<const float> prep = preprocess_of(map);
    std::size_t count = 0;
    for (std::size_t r = 0; r < rows; ++r)
        if (all_zero(phi + r * out_dim, out_dim) && !(zero_input_is_exact && input_is_zero(prep, x + r * d, d)))
            ++count;
    return count;
}

std::size_t vanished_rows(const kfm::map& map, const float* x, std::size_t rows) {
    if (!features_can_vanish(map) || rows == 0) return 0;
    // Blocks bound the memory: a block's features, not all rows'.
    const std::size_t d = map.input_dim(), out_dim = map.output_dim();
    const std::size_t block = std::max<std::size_t>(1, (std::size_t(1) << 22) / std::max<std::size_t>(1, out_dim));
    std::vector<float> phi(std::min(block, rows) * out_dim);
    std::size_t count = 0;
    for (std::size_t begin = 0; begin < rows; begin += block) {
        const std::size_t n = std::min(block, rows - begin);
        map_rows_parallel(map, x + begin * d, n, d, phi.data(), 0);
        count += vanished_rows(map, x + begin * d, phi.data(), n);
    }
    return count;
}

std::size_t vanished_predictions(const kfm::map& model, const float* x, const float* scores, std::size_t rows) {
    if (!features_can_vanish(model)) return 0;
    const std::span<const float> bias = head_bias_of(model);
    const std::size_t k = bias.size(), d = model.input_dim();
    std::vector<float> candidates;
    for (std::size_t r = 0; r < rows; ++r)
        if (std::equal(bias.begin(), bias.end(), scores + r * k))
            candidates.insert(candidates.end(), x + r * d, x + (r + 1) * d);
    return vanished_rows(model, candidates.data(), candidates.size() / std::max<std::size_t>(1, d));
}

}  // namespace kfm::offline
