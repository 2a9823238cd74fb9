// open(): verifies a whole .kfm buffer once (container, map, projection-specific sections), chooses
// the compute kernels, and only then publishes the view to the caller.
#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"
#include "runtime/projection.hpp"
#include "runtime/verify.hpp"

namespace kfm {
status open(const void* bytes, std::size_t size, map_view* out, isa requested) noexcept {
    if (bytes == nullptr || out == nullptr) return status::null_argument;
    if (size < sizeof(format::file_header)) return status::file_too_small;
    if (reinterpret_cast<std::uintptr_t>(bytes) % 8 != 0) return status::misaligned_buffer;

    map_view view;
    const auto* base = static_cast<const std::uint8_t*>(bytes);
    if (status s = detail::verify_container(base, size, &view); s != status::ok) return s;
    if (status s = detail::verify_map(view); s != status::ok) return s;
    if (status s = detail::projection_ops_for(view.meta->projection)->verify(view); s != status::ok) return s;

    isa chosen = isa::automatic;
    const detail::kernel_table* kernels = nullptr;
    if (status s = detail::resolve_isa(requested, &chosen, &kernels); s != status::ok) return s;
    view.kernels = kernels;
    view.active_isa = chosen;
    *out = view;
    return status::ok;
}

}  // namespace kfm
