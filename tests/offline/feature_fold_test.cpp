// Folding per-argument scales into weights for the positively homogeneous real kinds
// (offline/methods/sections.hpp): the folded segment must give the same features as the unfolded one when both
// run through the runtime's own feature stage, and scales for which the identity fails are not folded.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/sections.hpp"

using namespace kfm;
using namespace kfm::offline;
using format::nonlinearity;

namespace {

constexpr nonlinearity real_kinds[] = {nonlinearity::step, nonlinearity::relu, nonlinearity::relu2,
                                       nonlinearity::identity};

// out = [f-block | reflected block] of one reflected segment on the scalar reference kernels.
std::vector<float> features(nonlinearity kind, const std::vector<float>& t, const float* scale,
                            const float* weight) {
    const auto* table = detail::kernels_for(isa::scalar);
    REQUIRE(table != nullptr);
    std::vector<float> out(2 * t.size());
    detail::feature_args a{};
    a.kind = kind;
    a.t = t.data();
    a.n = t.size();
    a.scale = scale;
    a.scale_scalar = 1.0f;
    a.weight = weight;
    a.weight_scalar = 1.0f;
    a.out0 = out.data();
    a.out1 = out.data() + t.size();
    table->features(a);
    return out;
}

std::vector<float> to_f32(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace

TEST_CASE("homogeneity degrees of the feature kinds") {
    CHECK(homogeneity_degree(nonlinearity::step) == 0);
    CHECK(homogeneity_degree(nonlinearity::relu) == 1);
    CHECK(homogeneity_degree(nonlinearity::identity) == 1);
    CHECK(homogeneity_degree(nonlinearity::relu2) == 2);
    CHECK(homogeneity_degree(nonlinearity::cos_sin) < 0);
    CHECK(homogeneity_degree(nonlinearity::cos_phase) < 0);
    CHECK(homogeneity_degree(nonlinearity::product) < 0);
}

TEST_CASE("folded weights give w f(s t) = (w s^b) f(t) through the runtime feature stage") {
    const std::size_t n = 37;  // leaves a tail on every ISA the kernels vectorise for
    for (nonlinearity kind : real_kinds) {
        CAPTURE(int(kind));
        rng r(derive(41, unsigned(kind)));
        std::vector<double> scales(n), weights(n);
        std::vector<float> t(n);
        for (std::size_t i = 0; i < n; ++i) {
            scales[i] = std::exp(r.uniform() * 6.0 - 3.0);  // 0.05 .. 20
            weights[i] = 4.0 * r.uniform() - 2.0;
            t[i] = static_cast<float>(20.0 * r.uniform() - 10.0);
        }
        t[3] = 0.0f;
        std::vector<double> folded = weights;
        REQUIRE(fold_scales_into_weights(kind, scales, folded));
        const auto s32 = to_f32(scales), w32 = to_f32(weights), f32 = to_f32(folded);
        const auto plain = features(kind, t, s32.data(), w32.data());
        const auto fast = features(kind, t, nullptr, f32.data());
        // A few float roundings on each side (s t, its square, the weight products): 1e-6 relative.
        for (std::size_t i = 0; i < plain.size(); ++i) {
            CAPTURE(i);
            CHECK(std::fabs(double(plain[i]) - fast[i]) <= 1e-6 * std::fabs(double(plain[i])));
        }
        // The folded weights are exactly w s^b in double.
        const int b = homogeneity_degree(kind);
        for (std::size_t i = 0; i < n; ++i)
            CHECK(folded[i] == doctest::Approx(weights[i] * std::pow(scales[i], b)).epsilon(1e-14));
    }
}

TEST_CASE("scales that are not positive and finite, trig kinds and size mismatches are not folded") {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> weights = {0.5, -1.0, 2.0};
    for (nonlinearity kind : real_kinds) {
        for (double bad : {0.0, -0.0, -1.5, inf, -inf, nan}) {
            CAPTURE(bad);
            std::vector<double> w = weights;
            CHECK_FALSE(fold_scales_into_weights(kind, {1.0, bad, 2.0}, w));
            CHECK(w == weights);
        }
        std::vector<double> w = weights;
        CHECK_FALSE(fold_scales_into_weights(kind, {1.0, 2.0}, w));
        CHECK(w == weights);
    }
    for (nonlinearity kind : {nonlinearity::cos_sin, nonlinearity::cos_phase, nonlinearity::product}) {
        std::vector<double> w = weights;
        CHECK_FALSE(fold_scales_into_weights(kind, {1.0, 2.0, 3.0}, w));
        CHECK(w == weights);
    }
}

TEST_CASE("same_f32 finds one float for values equal in float rounding, and only then") {
    float common = 0.0f;
    CHECK(same_f32({0.1, 0.1 * (1.0 + 1e-12), 0.1 * (1.0 - 1e-12)}, &common));
    CHECK(common == 0.1f);
    CHECK_FALSE(same_f32({0.1, 0.1 * (1.0 + 1e-6)}, &common));
    CHECK_FALSE(same_f32({}, &common));
    CHECK_FALSE(same_f32({std::numeric_limits<double>::quiet_NaN()}, &common));
}
