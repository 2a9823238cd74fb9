// The projection stage: how a pre-processed input x (work_dim floats) becomes the projection vector t
// (projection_dim floats). One implementation per format::projection kind, each in its own file
// (projection_<kind>.cpp) defining everything open and transform need of it; the kinds are listed once, in
// projection_list.def, which projection_registry.cpp iterates.
#pragma once
#include <cstddef>
#include <cstdint>

#include "runtime/map_state.hpp"
#include "format/bits.hpp"
#include "runtime/output_bound_math.hpp"

namespace kfm::detail {

struct projection_ops {
    // Checks, once at open, that the sections this projection needs are present with counts that
    // match the meta dims, that indices are in range and values finite. The view is fully populated.
    status (*verify)(const map_state& map);
    // Scratch floats apply needs beyond x and t (for one vector).
    std::size_t (*scratch_floats)(const format::map_meta& meta);
    // t[0 .. projection_dim) from x[0 .. work_dim). scratch has scratch_floats(meta) floats, 64-byte aligned.
    void (*apply)(const map_state& map, const float* x, float* t, float* scratch);
    // Optional batched path; null: transform_batch calls apply row by row. x holds rows x work_dim and
    // t rows x projection_dim floats, both contiguous; scratch has batch_scratch_floats(meta, rows) floats,
    // 64-byte aligned. rows >= 2.
    std::size_t (*batch_scratch_floats)(const format::map_meta& meta, std::size_t rows);
    void (*apply_batch)(const map_state& map, const float* x, std::size_t rows, float* t, float* scratch);
    // The operations apply performs (runtime/work_bound.hpp's model, with transform_cost for each FFT or
    // Walsh-Hadamard transform), on a map that passed verify. Every count is bounded at open (dims by
    // max_dim, repeats and sketches by the format's limits, blocks by projection_dim): no product overflows.
    std::uint64_t (*work)(const map_state& map);
    // log2 of the largest |t_j| and of any intermediate of apply (runtime/output_bound.hpp) for an input
    // whose log2 norms are x, on a map that passed verify: in double (the host) and in float (the firmware
    // profile), from one template over the arithmetic (runtime/output_bound_math.hpp): KFM_OUTPUT_BOUNDS.
    double (*log2_output_bound)(const map_state& map, const input_norms<double>& x);
    float (*log2_output_bound_float)(const map_state& map, const input_norms<float>& x);
    // Floats of x and t a pass of the batched path keeps under (0: transform.cpp's general limit): a
    // batched path that runs its rows one by one gains from a pass only while its rows stay in cache.
    std::size_t batch_pass_floats = 0;
};

// The batched path's two entries of a projection_ops: (batch_scratch_floats, apply_batch), or both null in
// the firmware profile (KFM_FIRMWARE), where transform_batch and predict_batch run apply row by row.
#if KFM_FIRMWARE
#define KFM_BATCH_PATH(batch_scratch_floats, apply_batch) nullptr, nullptr
#else
#define KFM_BATCH_PATH(batch_scratch_floats, apply_batch) batch_scratch_floats, apply_batch
#endif

// The two output-bound entries of a projection_ops from a template bound<M> over the arithmetic M: both, or
// the float one alone in the firmware profile, whose open has no double-precision libm.
#if KFM_FIRMWARE
#define KFM_OUTPUT_BOUNDS(bound) nullptr, bound<float_math>
#else
#define KFM_OUTPUT_BOUNDS(bound) bound<double_math>, bound<float_math>
#endif

// The most lanes any table's batch FFT holds (16 floats, AVX-512): a batch's scratch is sized for that many,
// whatever the ISA, so a workspace size never depends on the CPU.
inline constexpr unsigned max_batch_lanes = 16;

// Null for an unknown projection kind.
const projection_ops* projection_ops_for(std::uint32_t kind) noexcept;

}  // namespace kfm::detail
