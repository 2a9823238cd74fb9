// The feature pipeline of transform.cpp as seen by predict.cpp: workspace sizing, input checks and the
// run over already-checked rows. A model map's workspace is the pipeline's part followed by the head's.
#pragma once
#include <cstddef>

#include "runtime/map_state.hpp"

namespace kfm::detail {

// Rows the pipeline handles per pass for a batch of `batch` (1 for projections without a batched path).
std::size_t pipeline_rows_per_pass(const map_state& map, std::size_t batch) noexcept;
// Bytes of the pipeline's part of the workspace for `rows` rows per pass.
std::size_t pipeline_bytes(const map_state& map, std::size_t rows) noexcept;
// One vector: x (input_dim values) finite, before and after the PREP shift/scale, checked in the step that
// also leaves it pre-processed in the workspace (of pipeline_bytes(map, 1)). Writes only the workspace.
bool pipeline_check_one(const map_state& map, const float* x, void* workspace) noexcept;
// out = phi(x) (output_dim values) for the x that pipeline_check_one passed with the same workspace.
void pipeline_run_one(const map_state& map, const float* x, float* out, void* workspace) noexcept;
// Batches: every row of x (n rows of input_dim values, x_stride apart) finite, before and after the PREP
// shift/scale (rows per pass: pipeline_rows_per_pass, or fewer that fit). Writes only the workspace.
bool pipeline_check(const map_state& map, const float* x, std::size_t n, std::size_t x_stride, std::size_t rows,
                    void* workspace) noexcept;
// out rows = phi of the rows from `begin` (a multiple of rows) on, up to `rows` of them, of a batch that
// pipeline_check passed with the same n, x_stride, rows and workspace.
void pipeline_run(const map_state& map, const float* x, std::size_t n, std::size_t x_stride, std::size_t rows,
                  std::size_t begin, float* out, std::size_t out_stride, void* workspace) noexcept;

// Bytes of the head's part for `rows` rows per pass: phi (rows x output_dim) and k scores; 0 without a head.
std::size_t head_bytes(const map_state& map, std::size_t rows) noexcept;

}  // namespace kfm::detail
