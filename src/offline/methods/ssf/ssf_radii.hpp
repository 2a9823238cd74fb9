// SSF radial rules for the gaussian kernel: which radii r = F^{-1}(u) / sigma of the chi(2m) radial law
// each direction gets (docs/methods.md, "SSF"); matern and rational-quadratic use the same rules on their
// own radial law F (radial_laws.hpp, docs/kernels.md). The rules:
//   midpoint    u_j = (j + 1/2) / M, the same for every direction (biased: a floor on the error)
//   shifted     u_ij = (j + U_i) / M, one uniform U_i per direction (unbiased)
//   antithetic  u_ij = tent((j + U_i) / M), tent(t) = 1 - |2t - 1| (unbiased; for M = 2 the antithetic
//               pair U_i, 1 - U_i, which cancels the part of the radial integrand that is odd about the
//               median quantile)
//   stratified  u_k = (pi(k) + U_k) / N over all N = P M radii of the map, pi a uniform random permutation
//               of the strata [0, N) (unbiased: each u_k alone is uniform and independent of its
//               direction; together the map's radii are a Latin sample of the radial law, exactly one per
//               stratum of probability 1/N, which removes most of the radial variance)
//   auto        gaussian: antithetic with M = 2 when 2m <= 32 and its directions fill a whole FFT block;
//               otherwise midpoint with M = 1 (where one radius per direction and more directions win).
//               matern, rational-quadratic: stratified with M = 1, one radius per direction (never
//               midpoint: their radial law does not concentrate as d grows, so one radius for every
//               direction is a large bias at every d)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kfm/offline.hpp"

namespace kfm::offline {

struct ssf_radial_choice {
    radial_rule_kind rule = radial_rule_kind::midpoint;  // midpoint | shifted | antithetic | stratified (never auto)
    unsigned radial = 0;  // M >= 1
};

inline constexpr unsigned ssf_auto_antithetic_max_work_dim = 32;

// Resolves "auto" and radial_points = 0 (the rule's own M: 2 for antithetic, else 1) for a map of
// `features` outputs in work dimension 2m whose FFT blocks hold `block_points` directions, for the
// kernel `kind` (gaussian, matern or rational-quadratic). Throws std::invalid_argument for an unknown rule
// or antithetic with M = 1 (naming the option in `option_names`' spelling).
ssf_radial_choice ssf_choose_radial_rule(radial_rule_kind rule, unsigned radial_points, unsigned work_dim,
                                         std::uint64_t features, std::uint64_t block_points,
                                         format::kernel kind = format::kernel::gaussian,
                                         spelling option_names = spelling::command_line);

// Quantile positions u in (0, 1) of the per-direction rules (shifted, antithetic, stratified): `points` directions
// with `radial` radii each, row j holding u[j * points + i]. Deterministic in `seed`.
std::vector<double> ssf_radial_quantiles(radial_rule_kind rule, std::uint32_t points, unsigned radial,
                                         std::uint64_t seed);

}  // namespace kfm::offline
