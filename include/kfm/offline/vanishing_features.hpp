// Rows whose features all vanish where the kernel's k(x, x) is positive, so the map estimates k(x, x) = 0
// for them: the one rule `kfm map`, `kfm predict`, `kfm score`, `kfm inspect --json` ("features_can_vanish")
// and the Python package (FeatureMap.transform, Model.predict, Model.score) share. A map's features can
// all be 0 on a region of inputs where its kernel's k(x, x) > 0 when
//  - its projection is nystroem's kernel against landmarks (every kernel it builds: gaussian, matern,
//    rational-quadratic): k(x, l) -> 0 far from every landmark and reaches 0 in float (the rational
//    quadratic, which decays only polynomially, at |x - l| ~ 1e15 l for alpha = 1.5, or where |x - l|^2
//    overflows), and K_mm^{-1/2} 0 = 0; k(x, x) = 1;
//  - it carries maclaurin-opt's gaussian prefactor exp(-|x'|^2 / 2), which underflows far from the
//    training mean; k(x, x) = 1;
//  - it has an arc-cosine segment without reflected pairs (`--arccos-pairs plain`): every row x != 0 with
//    w.x <= 0 for all of its directions w gets Theta_b(w.x) = 0, while k(x, x) = |x|^(2b) J_b(0) / pi > 0.
//    The cone of such rows is empty for some maps and not for others (any map with D <= d has one).
// Every other map keeps a feature away from 0 wherever k(x, x) > 0, or loses all of them only on a set
// of measure zero: cos/sin pairs sum to their weight squared; reflected arc-cosine pairs are both 0 only
// for x orthogonal to every direction, rff-phase's cos(w.x + b) only at inputs solving all D equations
// w.x + b = pi/2 (mod pi) at once (which exist only for D <= d), the polynomial maps' products of
// projections only on intersections of hyperplanes (beside their constant: the appended sqrt(q), or c_0).
// Under arc-cosine x = 0 has k(0, 0) = 0, as its features do, and is not counted.
#pragma once
#include <cstddef>

#include "kfm/kfm.hpp"

namespace kfm::offline {

// Whether the open map's features can all be 0 where its kernel's k(x, x) > 0 (the rule above). It is
// decided by how the map was built, not by its draws: an arc-cosine map without reflected pairs whose
// directions happen to leave no negative cone is still true (the counts below find no row then).
// std::invalid_argument for a map that is not open.
bool features_can_vanish(const kfm::map& map);

// How many rows of phi (rows x map.output_dim(), row-major), the features of the rows of x (rows x
// map.input_dim()), are all 0 where the kernel's k(x, x) > 0: 0 unless features_can_vanish(map). Under
// arc-cosine a row whose input is 0 after the map's PREP (a model's input scaling) has k(x, x) = 0 and
// does not count.
std::size_t vanished_rows(const kfm::map& map, const float* x, const float* phi, std::size_t rows);

// The same for the rows of x, mapped block by block with map_rows_parallel (no mapping unless
// features_can_vanish(map)); its std::runtime_error when the runtime refuses a block.
std::size_t vanished_rows(const kfm::map& map, const float* x, std::size_t rows);

// The same for the rows of x a model predicted `scores` for (rows x model.head_outputs()): a row whose
// features are all 0 scores exactly the head's bias, so only the rows that do are mapped again
// (predicting costs no second pass over every row).
std::size_t vanished_predictions(const kfm::map& model, const float* x, const float* scores, std::size_t rows);

}  // namespace kfm::offline
