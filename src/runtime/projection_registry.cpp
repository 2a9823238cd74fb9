// Maps each format::projection kind to its implementation, one row per kind of projection_list.def. A build
// may leave projections out (CMake KFM_PROJECTIONS, which defines KFM_PROJECTION_<KIND> as 1 for each kept one
// and 0 for each left out): a left-out kind's projection_ops is neither referenced nor linked, and maps using
// it fail open with status::unknown_projection.
#include "runtime/projection.hpp"

namespace kfm::detail {

#define KFM_PROJECTION(kind, KIND, name, file, kernels) extern const projection_ops kind##_projection;
#include "runtime/projection_list.def"
#undef KFM_PROJECTION

// KFM_IF_KEPT(flag, ops): ops when the flag KFM_PROJECTION_<KIND> is 1, nullptr when it is 0; a left-out
// projection's ops is then never named. An undefined flag (a build without CMake's definitions) leaves
// KFM_IF_KEPT_KFM_PROJECTION_<KIND> undeclared: a compile error, not a silently empty registry.
#define KFM_IF_KEPT(flag, ops) KFM_IF_KEPT_EXPANDED(flag, ops)
#define KFM_IF_KEPT_EXPANDED(flag, ops) KFM_IF_KEPT_##flag(ops)
#define KFM_IF_KEPT_1(ops) &ops
#define KFM_IF_KEPT_0(ops) nullptr

const projection_ops* projection_ops_for(std::uint32_t kind) noexcept {
    switch (static_cast<format::projection>(kind)) {
#define KFM_PROJECTION(kind, KIND, name, file, kernels) \
    case format::projection::kind: return KFM_IF_KEPT(KFM_PROJECTION_##KIND, kind##_projection);
#include "runtime/projection_list.def"
#undef KFM_PROJECTION
        default: return nullptr;
    }
}

#undef KFM_IF_KEPT_0
#undef KFM_IF_KEPT_1
#undef KFM_IF_KEPT_EXPANDED
#undef KFM_IF_KEPT

}  // namespace kfm::detail
