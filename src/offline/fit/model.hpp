// Model files on the offline side: the map part of an existing .kfm file, and the model sections
// (PREP input scaling, TASK/HEAD/BIAS linear head, LABL class labels) appended to it.
#pragma once
#include <cstdint>
#include <vector>

#include "kfm/offline.hpp"

namespace kfm::offline {

// x' = (x - shift) * scale per input; both empty: no pre-processing.
struct input_scaling {
    std::vector<float> shift;
    std::vector<float> scale;
};

// How HEAD's weights are stored: float32 (HEAD), or int8 with one float32 scale per output (HDI8 and
// HSCL, format minor 3: a quarter of the bytes).
enum class head_dtype { f32, int8 };

// scores = weights phi + bias over the map's D features.
struct linear_head {
    format::task_kind kind = format::task_kind::regression;
    std::uint32_t outputs = 0;          // k
    std::vector<float> weights;         // k x D, row-major
    std::vector<float> bias;            // k
    std::vector<std::int32_t> labels;   // classifiers: the class labels, strictly increasing
    head_dtype stored_as = head_dtype::f32;
};

// The int8 form of a k x D head: per output j, scale_j = max_i |w_ji| / 127 (1 for an all-zero row, or one
// whose scale underflows float) and q_ji = round(w_ji / scale_j), so every weight is within scale_j / 2.
struct int8_head {
    std::vector<std::int8_t> weights;  // k x D
    std::vector<float> scales;         // k
};
int8_head quantize_head(const std::vector<float>& weights, std::uint32_t outputs);

// Whether `tag` is one of the model sections (PREP, TASK, HEAD, HDI8, HSCL, BIAS, LABL).
bool is_model_section(std::uint32_t tag) noexcept;

// The map of a file kfm::open accepted (META and every section in file order), with its model sections
// dropped, so that a new model can be added to it.
map_contents map_part(const std::uint8_t* bytes, std::size_t size);

// Appends PREP (when `scaling` is not empty: input_dim shifts then scales).
void add_preprocessing(map_contents& map, const input_scaling& scaling);

// Appends TASK, HEAD (or HDI8 and HSCL, head.stored_as), BIAS and (classifiers) LABL.
void add_head(map_contents& map, const linear_head& head);

}  // namespace kfm::offline
