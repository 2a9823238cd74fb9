// The C API (include/kfm/kfm.h): thin wrappers that keep a kfm::map inside the caller's kfm_map.
#include "kfm/kfm.h"

#include <limits>
#include <new>

#include "kfm/kfm.hpp"

namespace {

static_assert(sizeof(kfm::map) == sizeof(kfm_map), "kfm_map holds exactly a kfm::map");
static_assert(alignof(kfm::map) <= alignof(kfm_map), "kfm_map is aligned for a kfm::map");

// Both status enums come from kfm/status_list.h; check every value anyway, so an edit to either
// declaration that bypasses the list cannot compile.
#define KFM_CHECK_STATUS(name, c_name, text)                                            \
    static_assert(KFM_##c_name == static_cast<int>(kfm::status::name), "C and C++ status " #name " agree");
KFM_STATUS_LIST(KFM_CHECK_STATUS)
#undef KFM_CHECK_STATUS

// A zero-initialised kfm_map is a default-constructed (not open) kfm::map: all bytes zero.
const kfm::map* map_of(const kfm_map* handle) {
    return handle != nullptr ? std::launder(reinterpret_cast<const kfm::map*>(handle->opaque)) : nullptr;
}

kfm_status to_c(kfm::status s) { return static_cast<kfm_status>(s); }

}  // namespace

extern "C" {

const char* kfm_version(void) { return kfm::version(); }

kfm_status kfm_open(const void* bytes, size_t size, const char* isa_name, kfm_map* handle) {
    if (handle == nullptr) return KFM_NULL_ARGUMENT;
    kfm::isa requested = kfm::isa::automatic;
    if (isa_name != nullptr) {
        if (kfm::status s = kfm::isa_from_name(isa_name, &requested); s != kfm::status::ok) return to_c(s);
    }
    // Straight into the handle (as map_of reads it): open writes *out only on success, so on an error the
    // handle is unchanged, and no second 512-byte map sits on the stack (firmware counts those bytes).
    return to_c(kfm::open(bytes, size, std::launder(reinterpret_cast<kfm::map*>(handle->opaque)), requested));
}

int kfm_is_open(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m != nullptr && m->is_open() ? 1 : 0;
}

uint32_t kfm_input_dim(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? m->input_dim() : 0;
}

uint32_t kfm_output_dim(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? m->output_dim() : 0;
}

uint32_t kfm_negative_dim(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? m->negative_dim() : 0;
}

const char* kfm_isa(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return kfm::isa_name(m ? m->active_isa() : kfm::isa::automatic);
}

const char* kfm_method_name(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? kfm::method_name(m->method()) : "unknown";
}

const char* kfm_kernel_name(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? kfm::kernel_name(m->kernel()) : "unknown";
}

const char* kfm_projection_name(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? kfm::projection_name(m->projection()) : "unknown";
}

size_t kfm_workspace_bytes(const kfm_map* handle, size_t batch) {
    const kfm::map* m = map_of(handle);
    return m ? kfm::workspace_bytes(*m, batch) : 0;
}

kfm_status kfm_transform(const kfm_map* handle, const float* x, size_t x_dim, float* out, size_t out_dim,
                         void* workspace, size_t workspace_size) {
    const kfm::map* m = map_of(handle);
    if (m == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::transform(*m, x, x_dim, out, out_dim, workspace, workspace_size));
}

kfm_status kfm_transform_batch(const kfm_map* handle, const float* x, size_t n, size_t x_stride, size_t x_dim,
                               float* out, size_t out_stride, void* workspace, size_t workspace_size) {
    const kfm::map* m = map_of(handle);
    if (m == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::transform_batch(*m, x, n, x_stride, x_dim, out, out_stride, workspace, workspace_size));
}

uint32_t kfm_task(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? static_cast<uint32_t>(m->task()) : 0;
}

uint32_t kfm_head_outputs(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? m->head_outputs() : 0;
}

uint32_t kfm_class_count(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m ? m->class_count() : 0;
}

int32_t kfm_class_label(const kfm_map* handle, uint32_t i) {
    const kfm::map* m = map_of(handle);
    return m ? m->class_label(i) : 0;
}

int kfm_has_preprocessing(const kfm_map* handle) {
    const kfm::map* m = map_of(handle);
    return m != nullptr && m->has_preprocessing() ? 1 : 0;
}

kfm_status kfm_predict(const kfm_map* handle, const float* x, size_t x_dim, float* scores, size_t scores_dim,
                       int32_t* label, void* workspace, size_t workspace_size) {
    const kfm::map* m = map_of(handle);
    if (m == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::predict(*m, x, x_dim, scores, scores_dim, label, workspace, workspace_size));
}

kfm_status kfm_predict_batch(const kfm_map* handle, const float* x, size_t n, size_t x_stride, size_t x_dim,
                             float* scores, size_t scores_stride, int32_t* labels, void* workspace,
                             size_t workspace_size) {
    const kfm::map* m = map_of(handle);
    if (m == nullptr) return KFM_NULL_ARGUMENT;
    return to_c(kfm::predict_batch(*m, x, n, x_stride, x_dim, scores, scores_stride, labels, workspace,
                                   workspace_size));
}

double kfm_kernel_estimate(const kfm_map* handle, const float* phi_x, const float* phi_y) {
    const kfm::map* m = map_of(handle);
    if (m == nullptr) return std::numeric_limits<double>::quiet_NaN();
    return kfm::kernel_estimate(*m, phi_x, phi_y);
}

const char* kfm_status_string(kfm_status status) {
    if (status < 0 || status >= KFM_STATUS_COUNT) return "unknown status";
    return kfm::status_string(static_cast<kfm::status>(status));
}

size_t kfm_isa_count(void) { return kfm::isa_count(); }

const char* kfm_isa_name_at(size_t i) { return i < kfm::isa_count() ? kfm::isa_name(kfm::isa_at(i)) : nullptr; }

int kfm_isa_available(const char* name) {
    kfm::isa i = kfm::isa::automatic;
    return kfm::isa_from_name(name, &i) == kfm::status::ok && kfm::isa_available(i) ? 1 : 0;
}

}  // extern "C"
