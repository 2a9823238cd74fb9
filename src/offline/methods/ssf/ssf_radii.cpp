#include "offline/methods/ssf/ssf_radii.hpp"

#include <cmath>
#include <stdexcept>

#include "kfm/build_registry.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {

ssf_radial_choice ssf_choose_radial_rule(radial_rule_kind rule, unsigned radial_points, unsigned work_dim,
                                         std::uint64_t features, std::uint64_t block_points, format::kernel kind,
                                         spelling option_names) {
    // One quantile per direction, the map's quantiles stratified: measured better than independent
    // quantiles, and those better than antithetic pairs, for Matérn 3/2 on LETTER at D = 4d
    // (docs/results-kernels.md); midpoint is a large bias for these wide laws.
    using r = radial_rule_kind;
    if (rule == r::automatic && kind != format::kernel::gaussian) return {r::stratified, radial_points != 0 ? radial_points : 1};
    if (rule == r::automatic) {
        // Antithetic pairs halve the directions: worth it only when they still fill a whole block, and only
        // in low dimension, where chi(2m) is wide enough for the midpoint bias to dominate (measured
        // in docs/results-accuracy.md: gains at 2m = 16 and 32, a loss at 64 and 256).
        const unsigned m = radial_points != 0 ? radial_points : 2;
        const bool fills_block = m >= 2 && work_dim <= ssf_auto_antithetic_max_work_dim && features / (2ull * m) >= block_points;
        return fills_block ? ssf_radial_choice{r::antithetic, m} : ssf_radial_choice{r::midpoint, radial_points != 0 ? m : 1};
    }
    if (rule == r::midpoint || rule == r::shifted || rule == r::stratified) return {rule, radial_points != 0 ? radial_points : 1};
    if (rule == r::antithetic) {
        if (radial_points == 1)
            throw std::invalid_argument("ssf: the antithetic radial rule needs " +
                                        option_text(option::radial_points, option_names) + " >= 2");
        return {rule, radial_points != 0 ? radial_points : 2};
    }
    throw std::invalid_argument("ssf: radial rule " + std::to_string(static_cast<int>(rule)) +
                                " is not auto, midpoint, shifted, antithetic or stratified");
}

std::vector<double> ssf_radial_quantiles(radial_rule_kind rule, std::uint32_t points, unsigned radial,
                                         std::uint64_t seed) {
    using r = radial_rule_kind;
    if (rule != r::shifted && rule != r::antithetic && rule != r::stratified)
        throw std::invalid_argument("ssf: radial rule '" + std::string(choice_name(rule) != nullptr ? choice_name(rule) : "?") +
                                    "' has no per-direction radii");
    const bool fold = rule == r::antithetic;
    rng shifts(seed);
    if (rule == r::stratified) return stratified_uniforms(std::size_t(points) * radial, shifts);
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
