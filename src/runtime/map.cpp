// kfm::map's accessors: read-only views of the verified state (zero / automatic when not open).
#include "runtime/map_state.hpp"

namespace kfm {

bool map::is_open() const noexcept { return detail::state_of(*this) != nullptr; }

std::uint32_t map::input_dim() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return s ? s->meta->input_dim : 0;
}

std::uint32_t map::output_dim() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return s ? s->meta->output_dim : 0;
}

std::uint32_t map::negative_dim() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return s ? s->meta->negative_dim : 0;
}

format::method map::method() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return static_cast<format::method>(s ? s->meta->method : 0);
}

format::kernel map::kernel() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return static_cast<format::kernel>(s ? s->meta->kernel : 0);
}

format::projection map::projection() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return static_cast<format::projection>(s ? s->meta->projection : 0);
}

isa map::active_isa() const noexcept {
    const detail::map_state* s = detail::state_of(*this);
    return s ? s->active_isa : isa::automatic;
}

std::size_t map::workspace_bytes(std::size_t batch) const noexcept { return kfm::workspace_bytes(*this, batch); }

}  // namespace kfm
