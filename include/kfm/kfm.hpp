// Public runtime API: open a verified map file in place and apply it. Nothing here allocates, throws,
// prints or aborts; every buffer belongs to the caller.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/format.hpp"

namespace kfm {

enum class [[nodiscard]] status : int {
    ok = 0,
    null_argument,          // a required pointer was null
    file_too_small,         // fewer bytes than a header
    misaligned_buffer,      // the file buffer is not 8-byte aligned
    bad_magic,
    unsupported_version,    // unknown major version
    wrong_endianness,
    bad_header,             // header fields inconsistent (sizes, flags, reserved bytes)
    file_size_mismatch,     // buffer size differs from the recorded file size (e.g. truncation)
    header_checksum,        // header or section table CRC-32C mismatch
    bad_section_table,      // overlapping, unaligned or out-of-range sections, bad dtype/count
    section_checksum,       // a section's CRC-32C mismatch
    nonzero_padding,        // bytes between sections are not zero
    missing_section,        // a section the map needs is absent or duplicated
    bad_meta,               // map_meta fields invalid or inconsistent
    bad_section_size,       // a section's count does not match the map's dimensions
    index_out_of_range,     // an index stored in a section is out of range
    bad_parameter_value,    // a stored value is not finite or outside its domain
    unknown_method,
    unknown_kernel,
    unknown_projection,
    unknown_nonlinearity,
    isa_unavailable,        // the requested ISA is not built in or the CPU lacks it
    unknown_isa,            // KFM_ISA or the requested name is not an ISA name
    wrong_dimension,        // the input dimension passed does not match the map
    workspace_too_small,
    output_too_small,
    non_finite_input,       // x contains NaN or Inf: nothing is written
};

// A short, static, human-readable description. Never null.
const char* status_string(status s) noexcept;

enum class isa : std::uint32_t { automatic = 0, scalar = 1, avx2 = 2, avx512 = 3, neon64 = 4, neon32 = 5 };

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

namespace detail { struct kernel_table; }

// Typed read-only views into a verified map file. Valid while the file bytes are alive and unchanged.
struct map_view {
    const format::map_meta* meta = nullptr;
    const format::feature_segment* segments = nullptr;
    std::uint32_t segment_count = 0;
    const double* kernel_params = nullptr;  // mixture weights then sigmas (delta-gaussian)
    const float* dense = nullptr;           // projection_dim x work_dim
    const float* scales = nullptr;
    std::uint64_t scale_count = 0;
    const float* weights = nullptr;
    std::uint64_t weight_count = 0;
    const float* phases = nullptr;
    std::uint64_t phase_count = 0;
    const float* constants = nullptr;
    std::uint64_t constant_count = 0;
    const std::uint8_t* signs = nullptr;    // packed bits, 1 means -1
    std::uint64_t sign_count = 0;
    const std::uint32_t* indices = nullptr;
    std::uint64_t index_count = 0;
    const std::uint8_t* frequencies = nullptr;  // packed membership bits (SSF index set)
    std::uint64_t frequency_count = 0;          // number of bits
    const float* twiddles = nullptr;
    std::uint64_t twiddle_count = 0;
    const float* butterfly = nullptr;       // (cos, sin) pairs
    std::uint64_t butterfly_count = 0;      // number of floats
    const std::uint32_t* permutation = nullptr;
    std::uint64_t permutation_count = 0;
    const std::uint32_t* groups = nullptr;
    std::uint64_t group_count = 0;
    const detail::kernel_table* kernels = nullptr;  // chosen at open
    isa active_isa = isa::automatic;
    std::uint64_t dense_count = 0;          // number of floats in dense
    std::uint64_t kernel_param_count = 0;   // number of doubles in kernel_params

    std::uint32_t input_dim() const noexcept { return meta->input_dim; }
    std::uint32_t output_dim() const noexcept { return meta->output_dim; }
    std::uint32_t negative_dim() const noexcept { return meta->negative_dim; }
};

// Verifies the whole file once (header, section table, checksums, padding, sizes against dims, index
// ranges, parameter domains) and fills *out with views into `bytes` (no copy). On any error *out is
// left unchanged. `bytes` must be 8-byte aligned. The ISA is chosen from `requested`; with
// isa::automatic, the environment variable KFM_ISA (x86 only) overrides CPU detection.
status open(const void* bytes, std::size_t size, map_view* out, isa requested = isa::automatic) noexcept;

// Scratch bytes transform_batch needs for `batch` vectors (transform uses batch = 1).
std::size_t workspace_bytes(const map_view& map, std::size_t batch = 1) noexcept;

// out[0 .. output_dim) = phi(x). x has input_dim values. Returns an error and writes nothing when the
// dimension is wrong, the workspace is too small, or x holds NaN/Inf. A zero x with a normalising map is
// left at zero (no division by its norm).
status transform(const map_view& map, const float* x, std::size_t x_dim, float* out, std::size_t out_dim,
                 void* workspace, std::size_t workspace_size) noexcept;

// Rows i < n: out[i * out_stride ...] = phi(x[i * x_stride ...]). Checks every row before writing any.
status transform_batch(const map_view& map, const float* x, std::size_t n, std::size_t x_stride,
                       std::size_t x_dim, float* out, std::size_t out_stride, void* workspace,
                       std::size_t workspace_size) noexcept;

// sum_{i < D-N} phi_x[i] phi_y[i] - sum_{i >= D-N} phi_x[i] phi_y[i], accumulated in double.
double kernel_estimate(const map_view& map, const float* phi_x, const float* phi_y) noexcept;

}  // namespace kfm
