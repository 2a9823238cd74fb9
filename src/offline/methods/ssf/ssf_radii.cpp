#include "offline/methods/ssf/ssf_radii.hpp"

#include <cmath>
#include <stdexcept>

#include "offline/sampling/random.hpp"

namespace kfm::offline {

ssf_radial_choice ssf_choose_radial_rule(const std::string& rule, unsigned radial_points, unsigned work_dim,
                                         std::uint64_t features, std::uint64_t block_points, format::kernel kind) {
    // One quantile per direction, the map's quantiles stratified: measured better than independent
    // quantiles, and those better than antithetic pairs, for Matérn 3/2 on LETTER at D = 4d
    // (docs/results-kernels.md); midpoint is a large bias for these wide laws.
    if (rule == "auto" && kind != format::kernel::gaussian) return {"stratified", radial_points != 0 ? radial_points : 1};
    if (rule == "auto") {
        // Antithetic pairs halve the directions: worth it only when they still fill a whole block, and only
        // in low dimension, where chi(2m) is wide enough for the midpoint bias to dominate (measured
        // in docs/results-accuracy.md: gains at 2m = 16 and 32, a loss at 64 and 256).
        const unsigned m = radial_points != 0 ? radial_points : 2;
        const bool fills_block = m >= 2 && work_dim <= ssf_auto_antithetic_max_work_dim && features / (2ull * m) >= block_points;
        return fills_block ? ssf_radial_choice{"antithetic", m} : ssf_radial_choice{"midpoint", radial_points != 0 ? m : 1};
    }
    if (rule == "midpoint" || rule == "shifted" || rule == "stratified") return {rule, radial_points != 0 ? radial_points : 1};
    if (rule == "antithetic") {
        if (radial_points == 1) throw std::invalid_argument("ssf: the antithetic radial rule needs --radial-points >= 2");
        return {rule, radial_points != 0 ? radial_points : 2};
    }
    throw std::invalid_argument("ssf: radial rule '" + rule + "' is not auto, midpoint, shifted, antithetic or stratified");
}

std::vector<double> ssf_radial_quantiles(const std::string& rule, std::uint32_t points, unsigned radial,
                                         std::uint64_t seed) {
    if (rule != "shifted" && rule != "antithetic" && rule != "stratified")
        throw std::invalid_argument("ssf: radial rule '" + rule + "' has no per-direction radii");
    const bool fold = rule == "antithetic";
    rng shifts(seed);
    if (rule == "stratified") return stratified_uniforms(std::size_t(points) * radial, shifts);
    std::vector<double> u(std::size_t(points) * radial);
    for (std::uint32_t i = 0; i < points; ++i) {
        const double shift = shifts.uniform_open();
        for (unsigned j = 0; j < radial; ++j) {
            const double t = (j + shift) / radial;
            u[std::size_t(j) * points + i] = fold ? 1.0 - std::fabs(2.0 * t - 1.0) : t;
        }
    }
    return u;
}

}  // namespace kfm::offline
