// phi of many rows on several host threads: the rows are cut into contiguous blocks, each thread maps
// its blocks with the unchanged single-threaded runtime (its own workspace, kfm::transform_batch) and
// the map is shared read-only. Output is identical for every thread count: each row's phi depends only
// on that row.
#pragma once
#include <cstddef>

#include "kfm/kfm.hpp"

namespace kfm::offline {

// The thread count `threads = 0` means: std::thread::hardware_concurrency() (1 when unknown).
unsigned resolve_thread_count(unsigned threads) noexcept;

// out (n x map.output_dim(), row-major) = phi of every row of x (n x d, row-major, d = map.input_dim()).
// std::runtime_error with the runtime's status text and the first refused row range when the runtime
// refuses a block (d differs from input_dim, a non-finite value); out is then partly written.
// std::system_error when the system refuses a thread (the started ones are joined first).
void map_rows_parallel(const kfm::map& map, const float* x, std::size_t n, std::size_t d, float* out,
                       unsigned threads);

}  // namespace kfm::offline
