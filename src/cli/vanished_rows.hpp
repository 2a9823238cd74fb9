// Rows whose features all vanish: far from the data a map was built from, nystroem's features (far from
// every landmark) and maclaurin-opt's gaussian prefactor (far from the training mean) go to 0, so the map
// estimates k(x, x) = 0 where its kernel's is 1. `kfm map`, `kfm predict` and `kfm score` warn about them.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

// Whether the map's features can all vanish for a row under a kernel with k(x, x) = 1 (the maps above).
bool rows_can_vanish(const kfm::map& map);

// How many rows of phi (rows x map.output_dim(), row-major) are all 0; 0 unless rows_can_vanish(map).
std::size_t vanished_rows(const kfm::map& map, const float* phi, std::size_t rows);

// The same for the rows of x, mapped block by block (0 without mapping unless rows_can_vanish(map)).
// std::runtime_error when the runtime refuses a block, as offline::map_rows_parallel.
std::size_t vanished_rows(const kfm::map& map, const offline::npy_array& x);

// The same for the rows of x a model predicted `scores` for (rows x head_outputs): a row whose features are
// all 0 scores the head's bias exactly, so only the rows that do are mapped (predicting costs no second
// pass over every row).
std::size_t vanished_rows(const kfm::map& model, const offline::npy_array& x, const std::vector<float>& scores);

// Writes "kfm <command>: warning: <vanished> of <rows> rows of <path> have all-zero features, ..." on
// stderr, with `consequence` (may be empty) before the closing explanation; nothing when vanished is 0.
void warn_vanished_rows(const std::string& command, const kfm::map& map, std::size_t vanished, std::size_t rows,
                        const std::string& path, const std::string& consequence);

}  // namespace kfm::cli
