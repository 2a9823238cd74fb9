// Which nonlinearities a build's feature stage contains. CMake's KFM_NONLINEARITIES defines
// KFM_LEAVE_OUT_NONLINEARITY_<KIND>=1 for each one left out (cmake/kfm_projections.cmake); without a
// definition a kind is built, so every translation unit outside a trimmed runtime-only build sees them all.
// The feature stage drops the loops of left-out kinds (their code is then not linked: each loop is several
// KB per ISA) and open refuses a map that uses one with status::unknown_nonlinearity.
#pragma once
#include "kfm/format.hpp"

#ifndef KFM_LEAVE_OUT_NONLINEARITY_COS_SIN
#define KFM_LEAVE_OUT_NONLINEARITY_COS_SIN 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_COS_PHASE
#define KFM_LEAVE_OUT_NONLINEARITY_COS_PHASE 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_RELU
#define KFM_LEAVE_OUT_NONLINEARITY_RELU 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_STEP
#define KFM_LEAVE_OUT_NONLINEARITY_STEP 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_RELU2
#define KFM_LEAVE_OUT_NONLINEARITY_RELU2 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_IDENTITY
#define KFM_LEAVE_OUT_NONLINEARITY_IDENTITY 0
#endif
#ifndef KFM_LEAVE_OUT_NONLINEARITY_PRODUCT
#define KFM_LEAVE_OUT_NONLINEARITY_PRODUCT 0
#endif

namespace kfm::detail {

// product is evaluated by the runtime (transform.cpp's product segments: groups and block products), not by
// the feature stage's loops; leaving it out drops that code and the block product kernels.
constexpr bool nonlinearity_built(format::nonlinearity k) noexcept {
    using N = format::nonlinearity;
    switch (k) {
        case N::cos_sin: return !KFM_LEAVE_OUT_NONLINEARITY_COS_SIN;
        case N::cos_phase: return !KFM_LEAVE_OUT_NONLINEARITY_COS_PHASE;
        case N::relu: return !KFM_LEAVE_OUT_NONLINEARITY_RELU;
        case N::step: return !KFM_LEAVE_OUT_NONLINEARITY_STEP;
        case N::relu2: return !KFM_LEAVE_OUT_NONLINEARITY_RELU2;
        case N::identity: return !KFM_LEAVE_OUT_NONLINEARITY_IDENTITY;
        case N::product: return !KFM_LEAVE_OUT_NONLINEARITY_PRODUCT;
    }
    return false;
}

}  // namespace kfm::detail
