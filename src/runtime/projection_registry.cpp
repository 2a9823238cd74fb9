// Maps each format::projection kind to its implementation.
#include "runtime/projection.hpp"

namespace kfm::detail {

extern const projection_ops dense_projection;

const projection_ops* projection_ops_for(std::uint32_t kind) noexcept {
    switch (static_cast<format::projection>(kind)) {
        case format::projection::dense: return &dense_projection;
        default: return nullptr;
    }
}

}  // namespace kfm::detail
