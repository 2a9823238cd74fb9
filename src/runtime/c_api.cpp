// The C API (include/kfm/kfm.h): thin wrappers that keep a kfm::map_view inside the caller's kfm_map.
#include "kfm/kfm.h"

#include <limits>
#include <new>

#include "kfm/kfm.hpp"

namespace {

static_assert(sizeof(kfm::map_view) <= sizeof(kfm_map), "kfm_map must hold a map_view");
static_assert(alignof(kfm::map_view) <= alignof(kfm_map), "kfm_map must be aligned for a map_view");
static_assert(KFM_NON_FINITE_INPUT == static_cast<int>(kfm::status::non_finite_input), "C and C++ statuses agree");
static_assert(KFM_WRONG_DIMENSION == static_cast<int>(kfm::status::wrong_dimension), "C and C++ statuses agree");
static_assert(KFM_ISA_UNAVAILABLE == static_cast<int>(kfm::status::isa_unavailable), "C and C++ statuses agree");

// The view of an opened map, or null for a null handle or one kfm_open never filled.
const kfm::map_view* view_of(const kfm_map* map) {
    if (map == nullptr) return nullptr;
    const auto* v = std::launder(reinterpret_cast<const kfm::map_view*>(map->opaque));
    return v->meta != nullptr ? v : nullptr;
}

kfm_status to_c(kfm::status s) { return static_cast<kfm_status>(s); }

}  // namespace

extern "C" {

kfm_status kfm_open(const void* bytes, size_t size, const char* isa_name, kfm_map* map) {
    if (map == nullptr) return KFM_NULL_ARGUMENT;
    kfm::isa requested = kfm::isa::automatic;
    if (isa_name != nullptr) {
        if (kfm::status s = kfm::isa_from_name(isa_name, &requested); s != kfm::status::ok) return to_c(s);
    }
    kfm::map_view view;
    if (kfm::status s = kfm::open(bytes, size, &view, requested); s != kfm::status::ok) return to_c(s);
    new (map->opaque) kfm::map_view(view);
    return KFM_OK;
}

uint32_t kfm_input_dim(const kfm_map* map) {
    const kfm::map_view* v = view_of(map);
    return v ? v->input_dim() : 0;
}

uint32_t kfm_output_dim(const kfm_map* map) {
    const kfm::map_view* v = view_of(map);
    return v ? v->output_dim() : 0;
}

uint32_t kfm_negative_dim(const kfm_map* map) {
    const kfm::map_view* v = view_of(map);
    return v ? v->negative_dim() : 0;
}

const char* kfm_isa(const kfm_map* map) {
    const kfm::map_view* v = view_of(map);
    return kfm::isa_name(v ? v->active_isa : kfm::isa::automatic);
}

size_t kfm_workspace_bytes(const kfm_map* map, size_t batch) {
    const kfm::map_view* v = view_of(map);
    return v ? kfm::workspace_bytes(*v, batch) : 0;
}

kfm_status kfm_transform(const kfm_map* map, const float* x, size_t x_dim, float* out, size_t out_dim,
                         void* workspace, size_t workspace_size) {
    const kfm::map_view* v = view_of(map);
    if (v == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::transform(*v, x, x_dim, out, out_dim, workspace, workspace_size));
}

kfm_status kfm_transform_batch(const kfm_map* map, const float* x, size_t n, size_t x_stride, size_t x_dim,
                               float* out, size_t out_stride, void* workspace, size_t workspace_size) {
    const kfm::map_view* v = view_of(map);
    if (v == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::transform_batch(*v, x, n, x_stride, x_dim, out, out_stride, workspace, workspace_size));
}

double kfm_kernel_estimate(const kfm_map* map, const float* phi_x, const float* phi_y) {
    const kfm::map_view* v = view_of(map);
    if (v == nullptr) return std::numeric_limits<double>::quiet_NaN();
    return kfm::kernel_estimate(*v, phi_x, phi_y);
}

const char* kfm_status_string(kfm_status status) {
    if (status < 0 || status > KFM_NON_FINITE_INPUT) return "unknown status";
    return kfm::status_string(static_cast<kfm::status>(status));
}

size_t kfm_isa_count(void) { return kfm::isa_count(); }

const char* kfm_isa_name_at(size_t i) { return i < kfm::isa_count() ? kfm::isa_name(kfm::isa_at(i)) : nullptr; }

int kfm_isa_available(const char* name) {
    kfm::isa i = kfm::isa::automatic;
    return kfm::isa_from_name(name, &i) == kfm::status::ok && kfm::isa_available(i) ? 1 : 0;
}

}  // extern "C"
