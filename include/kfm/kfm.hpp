// Public runtime API: open a verified map file in place and apply it. Nothing here allocates, throws,
// prints or aborts; every buffer belongs to the caller.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/format.hpp"
#include "kfm/status_list.h"

namespace kfm {

// Every status the runtime returns, with its description, is listed once in kfm/status_list.h.
enum class [[nodiscard]] status : int {
#define KFM_STATUS_ENUMERATOR(name, c_name, text) name,
    KFM_STATUS_LIST(KFM_STATUS_ENUMERATOR)
#undef KFM_STATUS_ENUMERATOR
};

// A short, static, human-readable description. Never null.
const char* status_string(status s) noexcept;

enum class isa : std::uint32_t { automatic = 0, scalar = 1, avx2 = 2, avx512 = 3, neon64 = 4, neon32 = 5, mve = 6 };

// Every ISA the library knows (built here or not), best first, isa::automatic excluded:
// isa_at(0) .. isa_at(isa_count() - 1); isa_at returns isa::automatic for i >= isa_count().
std::size_t isa_count() noexcept;
isa isa_at(std::size_t i) noexcept;
// The ISA's name, as used by KFM_ISA and `kfm bench --isa` ("auto" for automatic, "unknown" for a value
// outside the enum).
const char* isa_name(isa i) noexcept;
// Parses an ISA name; returns status::unknown_isa for anything else.
status isa_from_name(const char* name, isa* out) noexcept;
// Whether this build contains the ISA and this CPU can run it.
bool isa_available(isa i) noexcept;

// The library version ("major.minor.patch"), the same as the CMake package's.
const char* version() noexcept;

// Names as the CLI spells them ("rff", "gaussian", "dense", ...); "unknown" for a value out of range.
const char* method_name(format::method m) noexcept;
const char* kernel_name(format::kernel k) noexcept;
const char* projection_name(format::projection p) noexcept;
// Reverse lookups; status::unknown_method / unknown_kernel for anything else (out untouched).
status method_from_name(const char* name, format::method* out) noexcept;
status kernel_from_name(const char* name, format::kernel* out) noexcept;

namespace detail { struct map_access; }

// Bytes a map occupies: its verified state lives inside the object itself (no heap), so it can sit in
// static storage, on the stack or in a C kfm_map.
inline constexpr std::size_t map_storage_bytes = 512;

// A verified map: written once by open() and read-only afterwards. It borrows the file bytes (no copy),
// so they must stay alive and unchanged while the map is used. A default-constructed map is not open;
// every entry point refuses it with status::not_open (accessors return 0 / isa::automatic). Copies share
// the same borrowed bytes; a map may be used by several threads at once (each with its own workspace).
class map {
public:
    map() noexcept = default;

    bool is_open() const noexcept;
    std::uint32_t input_dim() const noexcept;     // d: floats transform reads per vector
    std::uint32_t output_dim() const noexcept;    // D: features transform writes per vector
    std::uint32_t negative_dim() const noexcept;  // the last negative_dim features count negatively
    format::method method() const noexcept;
    format::kernel kernel() const noexcept;
    format::projection projection() const noexcept;
    isa active_isa() const noexcept;              // the kernels open chose
    // Scratch bytes transform_batch / predict_batch need for `batch` vectors at once (batch = 1: transform,
    // predict). For a model file (one with a head) it includes phi and the scores, which predict keeps there.
    std::size_t workspace_bytes(std::size_t batch = 1) const noexcept;

    // The model sections (format minor 1). task() is task_kind::none for a map without a head.
    format::task_kind task() const noexcept;
    std::uint32_t head_outputs() const noexcept;          // k: scores per prediction (0 without a head)
    std::uint32_t class_count() const noexcept;           // 2 (binary), k (multiclass), 0 otherwise
    std::int32_t class_label(std::uint32_t i) const noexcept;  // the label of class i (0 when out of range)
    bool has_preprocessing() const noexcept;              // a PREP shift/scale is applied to the raw input

private:
    friend struct detail::map_access;
    alignas(8) unsigned char storage_[map_storage_bytes] = {};
};

// Verifies the whole file once (header, section table, checksums, padding, sizes against dims, index
// ranges, parameter domains) and writes the verified state into *out. On any error *out is left unchanged.
// `bytes` must be 8-byte aligned. The ISA is chosen from `requested`; with isa::automatic, the environment
// variable KFM_ISA (x86 only) overrides CPU detection.
status open(const void* bytes, std::size_t size, map* out, isa requested = isa::automatic) noexcept;

// Same as map.workspace_bytes(batch); 0 for a map that is not open.
std::size_t workspace_bytes(const map& m, std::size_t batch = 1) noexcept;

// out[0 .. output_dim) = phi(x). x has input_dim values (raw: a model file's PREP shift/scale is applied
// first, exactly as predict does). Returns an error and writes nothing when the map
// is not open, the dimension is wrong, the workspace is too small, or x holds NaN/Inf. A zero x with a
// normalising map is left at zero (no division by its norm).
status transform(const map& m, const float* x, std::size_t x_dim, float* out, std::size_t out_dim, void* workspace,
                 std::size_t workspace_size) noexcept;

// Rows i < n: out[i * out_stride ...] = phi(x[i * x_stride ...]). Checks every row before writing any. Each
// row's output is bit for bit transform's of that row, whatever the batch size or workspace.
status transform_batch(const map& m, const float* x, std::size_t n, std::size_t x_stride, std::size_t x_dim,
                       float* out, std::size_t out_stride, void* workspace, std::size_t workspace_size) noexcept;

// A model file's prediction for the raw input x (input_dim values): scores[0 .. k) = HEAD phi(x) + BIAS,
// and for a classifier *label = the class label (binary: labels[score > 0], multiclass: the first
// largest score's). scores may be null when only the label is wanted (classifiers); label may be null
// (and is left untouched for regression). phi and, without `scores`, the scores live in the workspace
// (workspace_bytes(m, 1)). Errors, nothing written: not_open, no_head (a map without a head),
// null_argument, wrong_dimension, output_too_small (scores_dim < k), workspace_too_small, non_finite_input.
status predict(const map& m, const float* x, std::size_t x_dim, float* scores, std::size_t scores_dim,
               std::int32_t* label, void* workspace, std::size_t workspace_size) noexcept;

// Rows i < n: predict(x[i * x_stride ..]) into scores[i * scores_stride ..] (k values; scores may be null)
// and labels[i] (may be null), bit for bit predict's. Checks every row before writing any;
// workspace_bytes(m, batch) for speed, workspace_bytes(m, 1) at least.
status predict_batch(const map& m, const float* x, std::size_t n, std::size_t x_stride, std::size_t x_dim,
                     float* scores, std::size_t scores_stride, std::int32_t* labels, void* workspace,
                     std::size_t workspace_size) noexcept;

// sum_{i < D-N} phi_x[i] phi_y[i] - sum_{i >= D-N} phi_x[i] phi_y[i], accumulated in double; NaN for a map
// that is not open or a null pointer.
double kernel_estimate(const map& m, const float* phi_x, const float* phi_y) noexcept;

}  // namespace kfm
