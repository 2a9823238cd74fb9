// The verified state of an opened map, kept inside kfm::map's storage block. Only the runtime, the
// offline tooling, the CLI and the tests include this header: users see the opaque kfm::map.
// Every pointer is a typed view into the caller's file bytes (no copy); counts are element counts.
#pragma once
#include <cstdint>
#include <new>
#include <type_traits>

#include "kfm/kfm.hpp"

namespace kfm::detail {

struct kernel_table;
struct projection_ops;

struct map_state {
    const format::map_meta* meta = nullptr;  // non-null exactly when the map is open
    const format::feature_segment* segments = nullptr;
    std::uint32_t segment_count = 0;
    const double* kernel_params = nullptr;   // mixture weights then sigmas (delta-gaussian)
    std::uint64_t kernel_param_count = 0;
    const float* dense = nullptr;            // projection_dim x work_dim
    std::uint64_t dense_count = 0;
    const float* scales = nullptr;
    std::uint64_t scale_count = 0;
    const float* weights = nullptr;
    std::uint64_t weight_count = 0;
    const float* phases = nullptr;
    std::uint64_t phase_count = 0;
    const float* constants = nullptr;
    std::uint64_t constant_count = 0;
    const std::uint8_t* signs = nullptr;     // packed bits, 1 means -1
    std::uint64_t sign_count = 0;
    const std::uint32_t* indices = nullptr;
    std::uint64_t index_count = 0;
    const std::uint8_t* frequencies = nullptr;  // packed membership bits (SSF index set)
    std::uint64_t frequency_count = 0;          // number of bits
    const float* twiddles = nullptr;
    std::uint64_t twiddle_count = 0;
    const float* butterfly = nullptr;        // (cos, sin) pairs
    std::uint64_t butterfly_count = 0;       // number of floats
    const std::uint32_t* permutation = nullptr;
    std::uint64_t permutation_count = 0;
    const std::uint32_t* groups = nullptr;
    std::uint64_t group_count = 0;
    const float* gaussian_diagonal = nullptr;  // Fastfood G, block_count x block_size
    std::uint64_t gaussian_diagonal_count = 0;
    const float* landmark_norms = nullptr;       // |l_j|^2 of the DENS rows (kernel_landmarks)
    std::uint64_t landmark_norm_count = 0;
    const float* kernel_inverse_root = nullptr;  // projection_dim x projection_dim (kernel_landmarks)
    std::uint64_t kernel_inverse_root_count = 0;
    // Model sections (all optional; verify_model.cpp): input shift/scale, task, linear head, class labels.
    const float* prep = nullptr;             // input_dim shifts then input_dim scales
    std::uint64_t prep_count = 0;
    const format::model_task* task = nullptr;
    std::uint64_t task_count = 0;
    const float* head = nullptr;             // k x output_dim
    std::uint64_t head_count = 0;
    const std::int8_t* head_int8 = nullptr;  // k x output_dim, in place of head (scaled per output by head_scales)
    std::uint64_t head_int8_count = 0;
    const float* head_scales = nullptr;      // k
    std::uint64_t head_scale_count = 0;
    const float* bias = nullptr;             // k
    std::uint64_t bias_count = 0;
    const std::int32_t* labels = nullptr;    // class_count, strictly increasing
    std::uint64_t label_count = 0;

    // Resolved once at open.
    const projection_ops* ops = nullptr;
    const kernel_table* kernels = nullptr;
    isa active_isa = isa::automatic;
};

static_assert(sizeof(map_state) <= map_storage_bytes, "kfm::map_storage_bytes must hold a map_state");
static_assert(alignof(map_state) <= 8, "kfm::map's storage is 8-byte aligned");
static_assert(std::is_trivially_copyable_v<map_state> && std::is_trivially_destructible_v<map_state>,
              "a map is copied and dropped as plain bytes");

// The only door into a map's storage.
struct map_access {
    static const map_state& state(const map& m) noexcept {
        return *std::launder(reinterpret_cast<const map_state*>(m.storage_));
    }
    // open() writes the verified state in one go.
    static void publish(map* m, const map_state& s) noexcept { ::new (static_cast<void*>(m->storage_)) map_state(s); }
};

// The state of an open map, or null when it is not open (default-constructed: all bytes zero, so meta is
// null; and open never publishes a state with a null meta).
inline const map_state* state_of(const map& m) noexcept {
    const map_state& s = map_access::state(m);
    return s.meta != nullptr ? &s : nullptr;
}

}  // namespace kfm::detail
