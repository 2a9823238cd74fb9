// open(): verifies a whole .kfm buffer once (container, map, projection-specific sections), chooses
// the compute kernels and the projection, and only then publishes the state into the caller's map.
#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"
#include "runtime/output_bound.hpp"
#include "runtime/projection.hpp"
#include "runtime/verify.hpp"
#include "runtime/work_bound.hpp"

namespace kfm {

status open(const void* bytes, std::size_t size, map* out, isa requested) noexcept {
    if (bytes == nullptr || out == nullptr) return status::null_argument;
    if (size < sizeof(format::file_header)) return status::file_too_small;
    if (reinterpret_cast<std::uintptr_t>(bytes) % 8 != 0) return status::misaligned_buffer;

    detail::map_state state;
    const auto* base = static_cast<const std::uint8_t*>(bytes);
    if (status s = detail::verify_container(base, size, &state); s != status::ok) return s;
    if (status s = detail::verify_map(state); s != status::ok) return s;
    state.ops = detail::projection_ops_for(state.meta->projection);  // known: verify_map checked it
    if (status s = state.ops->verify(state); s != status::ok) return s;
    if (status s = detail::verify_model(state); s != status::ok) return s;
    // Belt and braces over the per-field bounds: no map may ask for more work than the documented bound.
    if (detail::transform_work(state) > detail::work_limit(state, size)) return status::bad_meta;
    if (!detail::magnitudes_within_contract(state)) return status::value_too_large;

    isa chosen = isa::automatic;
    const detail::kernel_table* kernels = nullptr;
    if (status s = detail::resolve_isa(requested, &chosen, &kernels); s != status::ok) return s;
    state.kernels = kernels;
    state.active_isa = chosen;
    detail::map_access::publish(out, state);
    return status::ok;
}

}  // namespace kfm
