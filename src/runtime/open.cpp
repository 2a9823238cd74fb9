// open(): verifies a whole .kfm buffer once (container, map, projection-specific sections), chooses
// the compute kernels and the projection, and only then publishes the state into the caller's map.
#include <cstdlib>

#include "kernels/kernel_table.hpp"
#include "runtime/output_bound.hpp"
#include "runtime/projection.hpp"
#include "runtime/verify.hpp"
#include "runtime/work_bound.hpp"

namespace kfm {
namespace {

// The ISA to use: the requested one, or for isa::automatic the KFM_ISA override (x86) or the best one.
status choose_isa(isa requested, isa* chosen) {
    if (static_cast<std::uint32_t>(requested) > static_cast<std::uint32_t>(isa::neon32)) return status::unknown_isa;
    if (requested == isa::automatic) {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
        const char* env = std::getenv("KFM_ISA");
        if (env != nullptr && env[0] != '\0') {
            isa from_env = isa::automatic;
            if (status s = isa_from_name(env, &from_env); s != status::ok) return s;
            requested = from_env;
        }
#endif
        if (requested == isa::automatic) requested = detail::best_isa();
    }
    *chosen = requested;
    return status::ok;
}

}  // namespace

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
    // Belt and braces over the per-field bounds: no map may ask for more work than the documented bound.
    if (detail::transform_work(state) > detail::work_limit(state, size)) return status::bad_meta;
    if (!(detail::log2_magnitude_bound(state) <= detail::max_log2_magnitude)) return status::value_too_large;

    isa chosen = isa::automatic;
    if (status s = choose_isa(requested, &chosen); s != status::ok) return s;
    const detail::kernel_table* kernels = detail::kernels_for(chosen);
    if (kernels == nullptr) return status::isa_unavailable;
    state.kernels = kernels;
    state.active_isa = chosen;
    detail::map_access::publish(out, state);
    return status::ok;
}

}  // namespace kfm
