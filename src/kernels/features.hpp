// Fused feature stage, written once over the architecture A: a_i = s_i t_i, then the nonlinearity, then
// the weight, stored straight into the output (one pass, no temporary). `product` segments are the
// runtime's (groups section), not a kernel.
// Accuracy (tests/kernels/features_test.cpp), for arguments up to |a| <= 1e5 on every ISA:
//  - cos_sin: w cos a and w sin a for the float argument a = fl(s t) are within 2.5e-7 * max(1, |w|) of
//    their double values (kernels/trig.hpp: same algorithm on every ISA, scalar included);
//  - cos_phase: the argument s t + b is one fused multiply-add where the ISA has FMA (else two roundings),
//    so the result is within |w| (2.5e-7 + 2^-23 |s t + b|) of w cos(s t + b) evaluated in double.
// The rounding of a float argument (2^-24 |a|, about 6e-4 at 1e4) is the inherent limit of float inputs.
// Beyond 1e5 see kernels/trig.hpp (finite arguments always give finite outputs, at most |w| (1 + 2^-21)).
#pragma once
#include "kernels/kernel_table.hpp"
#include "kernels/nonlinearity_selection.hpp"
#include "kernels/trig.hpp"
#include "kernels/vec.hpp"

namespace kfm::detail::kern {
namespace {

// f(a) for relu, relu2 and identity (step is a select of the weight, below).
template <format::nonlinearity K, class A>
inline vf<A> real_feature(const vf<A>& a) noexcept {
    if constexpr (K == format::nonlinearity::relu) return max0<A>(a);
    else if constexpr (K == format::nonlinearity::relu2) {
        const vf<A> r = max0<A>(a);
        return r * r;
    } else return a;  // identity
}

// w where a > 0, else 0.
template <class A>
inline vf<A> weight_where_positive(const vf<A>& a, const vf<A>& w) noexcept {
    if constexpr (lanes<A> == 1) return a > 0.0f ? w : 0.0f;
    else return xsimd::select(a > vf<A>(0.0f), w, vf<A>(0.0f));
}

constexpr bool is_trig(format::nonlinearity k) noexcept {
    return k == format::nonlinearity::cos_sin || k == format::nonlinearity::cos_phase;
}

// How a segment's scale and weight come. The unit forms skip a multiply by 1: the real kinds' maps fold
// their scales into the weights offline (scale 1, per-argument weights times 1), and with only two or
// three operations per loaded vector a redundant multiply shows. Trigonometric kinds use only the other
// forms (one multiply is noise next to their polynomials).
enum class scale_form { per_argument, scalar, unit };
enum class weight_form { per_argument_times_scalar, per_argument, scalar };

// A segment's form, and whether a second output block is written (f(-a) for reflected real kinds; cos_sin
// always has its sin block). Template parameters, so the loop body carries no branch.
template <scale_form S, weight_form W, bool Two>
struct feature_form {
    static constexpr scale_form scale = S;
    static constexpr weight_form weight = W;
    static constexpr bool two = Two;
};

// Elements [i, i + lanes<V>) of the segment with kind K.
template <format::nonlinearity K, class F, class V>
inline void feature_block(const feature_args& f, std::size_t i) noexcept {
    vf<V> s, w;
    if constexpr (F::scale == scale_form::per_argument) s = load_f<V>(f.scale + i);
    else s = splat<V>(f.scale_scalar);  // 1 for the unit form (unused there)
    if constexpr (F::weight == weight_form::per_argument_times_scalar)
        w = load_f<V>(f.weight + i) * splat<V>(f.weight_scalar);
    else if constexpr (F::weight == weight_form::per_argument) w = load_f<V>(f.weight + i);
    else w = splat<V>(f.weight_scalar);
    const vf<V> t = load_f<V>(f.t + i);
    if constexpr (K == format::nonlinearity::cos_phase) {
        store_f<V>(f.out0 + i, cos_weighted<V>(trig_fma<V>(s, t, load_f<V>(f.phase + i)), w));
    } else if constexpr (K == format::nonlinearity::cos_sin) {
        vf<V> sn, cs;
        sin_cos_weighted<V>(s * t, w, sn, cs);
        store_f<V>(f.out0 + i, cs);
        store_f<V>(f.out1 + i, sn);
    } else if constexpr (K == format::nonlinearity::step) {
        // w step(a) is w or 0: a select, no multiply
        const vf<V> a = F::scale == scale_form::unit ? t : s * t;
        store_f<V>(f.out0 + i, weight_where_positive<V>(a, w));
        if constexpr (F::two) store_f<V>(f.out1 + i, weight_where_positive<V>(-a, w));
    } else {
        const vf<V> a = F::scale == scale_form::unit ? t : s * t;
        store_f<V>(f.out0 + i, w * real_feature<K, V>(a));
        if constexpr (F::two) store_f<V>(f.out1 + i, w * real_feature<K, V>(-a));
    }
}

// For the real kinds two vectors per iteration (a few operations per load: the loop overhead shows; the
// trigonometric kinds have enough work per vector, and unrolled they spill constants), then one, then a
// scalar tail (the same arithmetic on one lane). The arguments are copied to a local first:
// through the caller's reference, every float store could alias them, and the compiler would reload every
// pointer and scalar after each store.
template <format::nonlinearity K, class F, class A>
inline void feature_loop(const feature_args& args) noexcept {
    const feature_args f = args;
    constexpr std::size_t W = lanes<A>;
    constexpr bool unroll = !is_trig(K);
    std::size_t i = 0;
    if constexpr (unroll) {
        for (; i + 2 * W <= f.n; i += 2 * W) {
            feature_block<K, F, A>(f, i);
            feature_block<K, F, A>(f, i + W);
        }
    }
    for (; i + W <= f.n; i += W) feature_block<K, F, A>(f, i);
    if constexpr (W > 1)
        for (; i < f.n; ++i) feature_block<K, F, scalar_arch>(f, i);
}

// Chooses the weight form for scale form S (the unit weight form only for the real kinds).
template <format::nonlinearity K, scale_form S, bool Two, class A>
inline void feature_loop_weighted(const feature_args& f) noexcept {
    if (!f.weight) return feature_loop<K, feature_form<S, weight_form::scalar, Two>, A>(f);
    if constexpr (!is_trig(K))
        if (f.weight_scalar == 1.0f) return feature_loop<K, feature_form<S, weight_form::per_argument, Two>, A>(f);
    feature_loop<K, feature_form<S, weight_form::per_argument_times_scalar, Two>, A>(f);
}

// Chooses the scale form (the unit scale form only for the real kinds).
template <format::nonlinearity K, bool Two, class A>
inline void feature_loop(const feature_args& f) noexcept {
    if (f.scale) return feature_loop_weighted<K, scale_form::per_argument, Two, A>(f);
    if constexpr (!is_trig(K))
        if (f.scale_scalar == 1.0f) return feature_loop_weighted<K, scale_form::unit, Two, A>(f);
    feature_loop_weighted<K, scale_form::scalar, Two, A>(f);
}

// Real-valued kinds: with or without the reflected block.
template <format::nonlinearity K, class A>
inline void real_feature_loop(const feature_args& f) noexcept {
    if (f.out1) feature_loop<K, true, A>(f);
    else feature_loop<K, false, A>(f);
}

// A kind this build leaves out (nonlinearity_selection.hpp) has no loop: open refuses its maps.
template <class A>
void features(const feature_args& f) noexcept {
    using N = format::nonlinearity;
    switch (f.kind) {
        case N::cos_sin:
            if constexpr (nonlinearity_built(N::cos_sin)) feature_loop<N::cos_sin, true, A>(f);
            break;
        case N::cos_phase:
            if constexpr (nonlinearity_built(N::cos_phase)) feature_loop<N::cos_phase, false, A>(f);
            break;
        case N::relu:
            if constexpr (nonlinearity_built(N::relu)) real_feature_loop<N::relu, A>(f);
            break;
        case N::step:
            if constexpr (nonlinearity_built(N::step)) real_feature_loop<N::step, A>(f);
            break;
        case N::relu2:
            if constexpr (nonlinearity_built(N::relu2)) real_feature_loop<N::relu2, A>(f);
            break;
        case N::identity:
            if constexpr (nonlinearity_built(N::identity)) real_feature_loop<N::identity, A>(f);
            break;
        case N::product: break;  // evaluated by the runtime from the groups section
    }
}

}  // namespace
}  // namespace kfm::detail::kern
