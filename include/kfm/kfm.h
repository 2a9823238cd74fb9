/* C API over the kfm runtime (include/kfm/kfm.hpp): open a verified .kfm buffer in place, size the
 * workspace, transform vectors, estimate the kernel, describe statuses. Like the C++ runtime it never
 * allocates, prints or aborts: the map handle is caller-owned storage and every buffer is the caller's. */
#ifndef KFM_KFM_H
#define KFM_KFM_H

#include <stddef.h>
#include <stdint.h>

#include "kfm/status_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: KFM_OK = 0, KFM_NULL_ARGUMENT, ... generated from kfm/status_list.h, the same list and
 * values as kfm::status. KFM_STATUS_COUNT is one past the last code. */
typedef int kfm_status;
enum {
#define KFM_C_STATUS(name, c_name, text) KFM_##c_name,
    KFM_STATUS_LIST(KFM_C_STATUS)
#undef KFM_C_STATUS
    KFM_STATUS_COUNT
};

/* An opened map: caller-owned storage holding the runtime's verified state (a kfm::map, valid while the
 * file bytes live). Its contents are private. Zero-initialise it (kfm_map m = {{0}};): a handle kfm_open
 * never filled is refused with KFM_NOT_OPEN (accessors return 0 / "auto" / "unknown"). */
typedef struct kfm_map {
    uint64_t opaque[64];
} kfm_map;

/* Verifies `bytes` (8-byte aligned, `size` bytes) and fills *map. isa_name: NULL or "auto" for automatic
 * selection (KFM_ISA may override on x86), or an ISA name (kfm_isa_name_at lists them).
 * On error *map is left unchanged. */
kfm_status kfm_open(const void* bytes, size_t size, const char* isa_name, kfm_map* map);

/* The library version, "major.minor.patch". */
const char* kfm_version(void);

/* Whether kfm_open filled this handle. */
int kfm_is_open(const kfm_map* map);
uint32_t kfm_input_dim(const kfm_map* map);
uint32_t kfm_output_dim(const kfm_map* map);
uint32_t kfm_negative_dim(const kfm_map* map);
/* The name of the ISA the map runs on ("auto" for a handle that is not open). */
const char* kfm_isa(const kfm_map* map);
/* The map's method, kernel and projection as the CLI spells them ("ssf", "gaussian", "ssf-fft");
 * "unknown" for a handle that is not open. */
const char* kfm_method_name(const kfm_map* map);
const char* kfm_kernel_name(const kfm_map* map);
const char* kfm_projection_name(const kfm_map* map);

/* Scratch bytes for transforming `batch` vectors at once (1 for kfm_transform). */
size_t kfm_workspace_bytes(const kfm_map* map, size_t batch);

/* out[0 .. output_dim) = phi(x); nothing is written on error. */
kfm_status kfm_transform(const kfm_map* map, const float* x, size_t x_dim, float* out, size_t out_dim,
                         void* workspace, size_t workspace_size);

/* Rows i < n: out[i * out_stride ..] = phi(x[i * x_stride ..]); every row is checked before any is written. */
kfm_status kfm_transform_batch(const kfm_map* map, const float* x, size_t n, size_t x_stride, size_t x_dim,
                               float* out, size_t out_stride, void* workspace, size_t workspace_size);

/* Model files (a map with a linear head): kfm_task is 0 without a head, 1 regression, 2 binary,
 * 3 multiclass; kfm_head_outputs is k (scores per prediction); kfm_class_count the number of classes
 * (0 for regression) and kfm_class_label(i) the label of class i (0 out of range); kfm_has_preprocessing
 * whether the raw input is shifted and scaled first (kfm_transform applies it too). */
uint32_t kfm_task(const kfm_map* map);
uint32_t kfm_head_outputs(const kfm_map* map);
uint32_t kfm_class_count(const kfm_map* map);
int32_t kfm_class_label(const kfm_map* map, uint32_t i);
int kfm_has_preprocessing(const kfm_map* map);

/* scores[0 .. k) = HEAD phi(x) + BIAS and *label the predicted class (classifiers). scores may be NULL
 * when only the label is wanted; label may be NULL (untouched for regression). The workspace
 * (kfm_workspace_bytes(map, 1)) holds phi. KFM_NO_HEAD for a map without a head; nothing written on error. */
kfm_status kfm_predict(const kfm_map* map, const float* x, size_t x_dim, float* scores, size_t scores_dim,
                       int32_t* label, void* workspace, size_t workspace_size);

/* Rows i < n: scores[i * scores_stride ..] and labels[i]; every row is checked before any is written. */
kfm_status kfm_predict_batch(const kfm_map* map, const float* x, size_t n, size_t x_stride, size_t x_dim,
                             float* scores, size_t scores_stride, int32_t* labels, void* workspace,
                             size_t workspace_size);

/* Signed inner product of two feature vectors (the last negative_dim features count negatively). */
double kfm_kernel_estimate(const kfm_map* map, const float* phi_x, const float* phi_y);

/* A static description of a status code ("unknown status" outside the list); never NULL. */
const char* kfm_status_string(kfm_status status);

/* The ISAs the library knows (built here or not), best first: kfm_isa_name_at(0 .. kfm_isa_count() - 1)
 * gives their names ("auto" is not among them); NULL for i >= kfm_isa_count(). */
size_t kfm_isa_count(void);
const char* kfm_isa_name_at(size_t i);
/* 1 when `name` is "auto" or an ISA this build contains and this CPU can run, else 0 (NULL and unknown
 * names included). */
int kfm_isa_available(const char* name);

#ifdef __cplusplus
}
#endif

#endif /* KFM_KFM_H */
