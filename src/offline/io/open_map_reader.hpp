// What an open map holds that the public kfm::map accessors do not give: the META record, the kernel
// parameters, the segments, PREP, whether the head is int8, its bias (and, for include/kfm/offline/model.hpp,
// label_type_of: LTYP). open_map_reader.cpp is the one place
// the offline library and the kfm tool read an open map's state, so no other file of theirs includes the
// runtime's private headers. Every function here throws std::invalid_argument for a map that is not open.
#pragma once
#include <span>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"

namespace kfm::offline {

const format::map_meta& map_meta_of(const kfm::map& map);
// KPRM: the delta-gaussian weights then sigmas (empty for the other kernels).
std::span<const double> kernel_params_of(const kfm::map& map);
// SEGS, in file order.
std::span<const format::feature_segment> segments_of(const kfm::map& map);
// GRPS: the product segments' group offsets (empty without product segments).
std::span<const std::uint32_t> groups_of(const kfm::map& map);
// Whether the head is stored as int8 weights with a scale per output (HDI8, HSCL).
bool has_int8_head(const kfm::map& map);
// PREP: input_dim shifts then input_dim scales (empty without one).
std::span<const float> preprocess_of(const kfm::map& map);
// BIAS: a model's k biases, what it scores for a row whose features are all 0 (empty without a head).
std::span<const float> head_bias_of(const kfm::map& map);

}  // namespace kfm::offline
