// Small model files for the tests: a map from test_maps.hpp plus deterministic PREP and head sections.
#pragma once
#include <cstdint>
#include <vector>

#include "common/test_maps.hpp"
#include "kfm/offline/model.hpp"

namespace kfm::test {

// A head over `map`'s output_dim features: regression with k outputs, binary (k ignored: 1 output, labels
// {-3, 7}) or multiclass with k classes (labels 10, 20, ...). Weights and bias in [-1, 1).
offline::linear_head make_test_head(const offline::map_contents& map, format::task_kind kind, std::uint32_t k,
                                    std::uint64_t seed = 5);

// Shifts in [-0.5, 0.5), scales in [0.5, 2) (alternating sign) for `d` inputs.
offline::input_scaling make_test_scaling(std::uint32_t d, std::uint64_t seed = 6);

// make_dense_map(spec) with PREP (when `with_scaling`) and a head stored as `stored_as`.
offline::map_contents make_test_model(const dense_spec& spec, format::task_kind kind, std::uint32_t k,
                                      bool with_scaling = true,
                                      offline::head_dtype stored_as = offline::head_dtype::f32);

// The weights a file made from `head` applies, in double: head.weights, or for an int8 head q * scale of
// offline::quantize_head (the dequantised head).
std::vector<double> applied_weights(const offline::linear_head& head);

}  // namespace kfm::test
