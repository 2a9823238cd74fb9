// The runtime pipeline on a verified map: input checks, pre-processing (PREP shift/scale, normalise, pad, append),
// projection, the feature stage per segment, constants; plus workspace sizing and kernel_estimate.
// Everything works in the caller's workspace: no heap, no I/O.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/accumulator.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/nonlinearity_selection.hpp"
#include "kernels/squared_norm.hpp"
#include "runtime/kernel_selection.hpp"
#include "runtime/map_state.hpp"
#include "runtime/pipeline.hpp"
#include "runtime/projection.hpp"

namespace kfm {
namespace {

namespace fmt = kfm::format;
using detail::accumulator;
using detail::map_state;
using detail::section;
using detail::section_view;
using detail::projection_ops;

constexpr std::size_t alignment = 64;
// Rows a batched projection handles per call.
constexpr std::size_t max_batch_rows = 64;

constexpr std::size_t aligned_bytes(std::size_t floats) {
    return (floats * sizeof(float) + alignment - 1) / alignment * alignment;
}

// Where each buffer lives inside the caller's workspace, for `rows` vectors at a time.
struct workspace_layout {
    float* x_work;   // rows x work_dim
    float* t;        // rows x projection_dim
    float* scratch;  // projection scratch for one vector
};

// Floats of x_work + t per pass stay under this, so batched workspaces stay modest (and fit a 32-bit size_t).
constexpr std::size_t max_batch_floats = std::size_t(1) << 20;

std::size_t rows_per_pass(const map_state& map, std::size_t batch) {
    if (map.ops->apply_batch == nullptr) return 1;
    const std::size_t per_row = std::size_t(map.meta->work_dim) + map.meta->projection_dim;
    std::size_t rows = batch < max_batch_rows ? batch : max_batch_rows;
    const std::size_t limit = map.ops->batch_pass_floats != 0 ? map.ops->batch_pass_floats : max_batch_floats;
    while (rows > 1 && rows * per_row > limit) --rows;
    return rows == 0 ? 1 : rows;
}

// Bytes for `rows` vectors; dims are capped at open (verify.hpp max_dim) so this cannot overflow.
std::size_t bytes_for_rows(const map_state& map, std::size_t rows) {
    const fmt::map_meta& m = *map.meta;
    const projection_ops* ops = map.ops;
    std::size_t scratch = ops->scratch_floats(m);
    if (rows > 1) {
        const std::size_t batch_scratch = ops->batch_scratch_floats(m, rows);
        if (batch_scratch > scratch) scratch = batch_scratch;
    }
    return alignment  // slack to align the caller's pointer
           + aligned_bytes(rows * m.work_dim) + aligned_bytes(rows * m.projection_dim) + aligned_bytes(scratch);
}

workspace_layout carve(const map_state& map, std::size_t rows, void* workspace) {
    const fmt::map_meta& m = *map.meta;
    auto address = reinterpret_cast<std::uintptr_t>(workspace);
    address = (address + alignment - 1) / alignment * alignment;
    auto* base = reinterpret_cast<std::uint8_t*>(address);
    workspace_layout w;
    w.x_work = reinterpret_cast<float*>(base);
    base += aligned_bytes(rows * m.work_dim);
    w.t = reinterpret_cast<float*>(base);
    base += aligned_bytes(rows * m.projection_dim);
    w.scratch = reinterpret_cast<float*>(base);
    return w;
}

// Whether every |x_i| <= the float whose bits are `limit_bits` (a finite, non-negative float). Branch-free,
// so it vectorises: on the bits of |x_i| the float order is the integer order, and inf and NaN lie above every
// finite float. K independent flags: with one, every vector waits for the previous OR (perf share of an SSF
// map at (784, 8192): 2.2% with one flag, 1.8% with 16).
bool all_within(const float* x, std::size_t n, std::uint32_t limit_bits) {
    constexpr std::size_t K = 16;
    std::uint32_t bad[K] = {};
    std::size_t i = 0;
    for (; i + K <= n; i += K) {
        for (std::size_t k = 0; k < K; ++k) {
            std::uint32_t u;
            std::memcpy(&u, x + i + k, sizeof u);
            bad[k] |= std::uint32_t((u & 0x7fffffffu) > limit_bits);
        }
    }
    std::uint32_t any = 0;
    for (std::size_t k = 0; k < K; ++k) any |= bad[k];
    for (; i < n; ++i) {
        std::uint32_t u;
        std::memcpy(&u, x + i, sizeof u);
        any |= std::uint32_t((u & 0x7fffffffu) > limit_bits);
    }
    return any == 0;
}

constexpr std::uint32_t largest_finite_bits = 0x7f7fffffu;  // FLT_MAX
// The bits of the float 2^e = v (v a power of two below 2^127): 127 + e in the exponent field.
constexpr std::uint32_t power_of_two_float_bits(std::uint32_t v) {
    std::uint32_t e = 0;
    while ((std::uint32_t(1) << e) < v) ++e;
    return (127 + e) << 23;
}
static_assert((fmt::max_input_abs & (fmt::max_input_abs - 1)) == 0, "max_input_abs is a power of two");
constexpr std::uint32_t contract_input_bits = power_of_two_float_bits(fmt::max_input_abs);

bool all_finite(const float* x, std::size_t n) { return all_within(x, n, largest_finite_bits); }

// 2^-e for e the exponent of the largest |x_i|, clamped to [-126, 126] (so 2^-e is a normal float): scaling
// by it is exact, and keeps the squares of the squared norm (kernels/squared_norm.hpp) clear of float's
// underflow and overflow.
accumulator power_of_two_scale(const float* x, std::size_t n) {
    std::uint32_t largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t u;
        std::memcpy(&u, x + i, sizeof u);
        u &= 0x7fffffffu;
        largest = u > largest ? u : largest;
    }
    int e = int(largest >> 23) - 127;
    e = e < -126 ? -126 : e > 126 ? 126 : e;
    const std::uint32_t bits = std::uint32_t(127 - e) << 23;
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return scale;
}

// PREP's x'_i = (x_i - shift_i) * scale_i (the model file's input pre-processing), in float, into x_work.
void apply_prep(const map_state& map, const float* x, float* x_work) {
    const std::size_t d = map.meta->input_dim;
    const float* shift = map.view<section::preprocess>().data;
    map.kernels->shift_scale(x, shift, shift + d, d, x_work);
}

// The input step of one row, the only one that reads x before the projection: whether x is finite, with
// PREP's x' written into the workspace's row `row` and checked there (a non-finite x_i gives a non-finite
// x'_i, shift and scale being finite, and a finite x_i far from the shift times a large scale can overflow).
// Without PREP only the check, on x itself. The check reads x' back from the workspace (still in L1): one
// loop computing, storing and flagging measured slower on x86-64's baseline build (scalar code at d = 256,
// store-forwarding stalls of the flags at d = 16).
bool prepare_row(const map_state& map, const workspace_layout& w, std::size_t row, const float* x) {
    if (!map.view<section::preprocess>().present()) return all_finite(x, map.meta->input_dim);
    float* x_work = w.x_work + row * map.meta->work_dim;
    apply_prep(map, x, x_work);
    return all_finite(x_work, map.meta->input_dim);
}

// Every row of a batch checked before anything is written. With PREP, a row with every |x_i| <=
// format::max_input_abs has a finite x' without computing it (open checked that bound: the finite-output
// contract, output_bound.hpp), so it costs one read, as without PREP; only a row outside it (large, or not
// finite) has its x' computed and checked, in the workspace's row 0. Each pass then computes its rows' x'
// once (prepare_pass).
bool prepare_batch(const map_state& map, const workspace_layout& w, const float* x, std::size_t n,
                   std::size_t x_stride) {
    const bool prep = map.view<section::preprocess>().present();
    const std::uint32_t limit_bits = prep ? contract_input_bits : largest_finite_bits;
    for (std::size_t r = 0; r < n; ++r) {
        const float* row = x + r * x_stride;
        if (all_within(row, map.meta->input_dim, limit_bits)) continue;
        if (!prep || !prepare_row(map, w, 0, row)) return false;
    }
    return true;
}

// A pass's rows, checked by prepare_batch: their PREP'd x' into the workspace (nothing to do without PREP).
void prepare_pass(const map_state& map, const workspace_layout& w, const float* x, std::size_t x_stride,
                  std::size_t rows) {
    if (!map.view<section::preprocess>().present()) return;
    for (std::size_t r = 0; r < rows; ++r) apply_prep(map, x + r * x_stride, w.x_work + r * map.meta->work_dim);
}

// After prepare_row: x_work = x' (PREP's, already in x_work, or x), unit-normalised when the map asks (zero
// stays zero), zero padding, appended value.
void preprocess(const map_state& map, const float* x, float* x_work) {
    const fmt::map_meta& m = *map.meta;
    if (map.view<section::preprocess>().present()) x = x_work;  // normalisation below reads and writes in place
    // x / |x|, as x s / |x s| with s = power_of_two_scale (in double the same bits as without s).
    accumulator sum = 0, s = 1;
    if ((m.flags & fmt::meta_flag_normalize_input) != 0) {
        s = power_of_two_scale(x, m.input_dim);
        sum = detail::kern::squared_norm(x, m.input_dim, s);
    }
    if (sum > 0) {
        const accumulator scale = s / std::sqrt(sum);
        for (std::uint32_t i = 0; i < m.input_dim; ++i) x_work[i] = static_cast<float>(accumulator(x[i]) * scale);
    } else if (x != x_work) {  // not normalised, or a zero vector (which stays zero)
        std::memcpy(x_work, x, sizeof(float) * m.input_dim);
    }
    for (std::uint32_t i = m.input_dim; i < m.work_dim; ++i) x_work[i] = 0.0f;
    if (m.input_append != 0.0) x_work[m.input_dim] = static_cast<float>(m.input_append);
}

// Random Maclaurin: out[j] = w_j * prod_{k in group j} (s_k * t[k]); accumulated in the accumulator. With
// segment_flag_indexed_rows, entry k reads projection indices[k] (maclaurin-opt: rows of different blocks).
void product_segment(const map_state& map, const fmt::feature_segment& s, const float* t, float* out) {
    const std::uint32_t* g = map.view<section::groups>().data + s.group_index;
    const std::uint32_t* rows = (s.flags & fmt::segment_flag_indexed_rows) != 0 ? map.view<section::indices>().data : nullptr;
    const float* scales = map.view<section::scales>().data;
    const float* weights = map.view<section::weights>().data;
    for (std::uint32_t j = 0; j < s.arg_count; ++j) {
        accumulator p = 1;
        for (std::uint32_t k = g[j]; k < g[j + 1]; ++k) {
            const std::uint32_t row = rows == nullptr ? k : rows[k];
            const accumulator scale = s.scale_index == fmt::no_index ? s.scale : scales[s.scale_index + row];
            p *= scale * accumulator(t[row]);
        }
        accumulator w = s.weight;
        if (s.weight_index != fmt::no_index) w *= weights[s.weight_index + j];
        out[j] = static_cast<float>(w * p);
    }
}

// segment_flag_block_product: out[j] = w * prod_{l < k} (s * t[l * block_size + (j + l) mod block_size]),
// k = proj_count / block_size,
// in float by the ISA's kernel (verify_map allows block products only on hadamard maps, whose builds keep it).
void block_product_segment(const map_state& map, const fmt::feature_segment& s, const float* t, float* out) {
    const std::uint32_t stride = map.meta->block_size;  // a power of two (hadamard_verify): a shift, not a division
    map.kernels->block_product(t, stride, s.proj_count >> __builtin_ctz(stride), s.arg_count, s.scale, s.weight, out);
}

// segment_flag_complex_block_product: out[j] + i out[arg_count + j] = w * prod_{l < k} s (t[2l block_size +
// (j + l) mod block_size] + i t[(2l + 1) block_size + (j + l) mod block_size]), k = proj_count / (2 block_size),
// in float by the ISA's kernel (hadamard maps only, as block products).
void complex_block_product_segment(const map_state& map, const fmt::feature_segment& s, const float* t, float* out) {
    const std::uint32_t stride = map.meta->block_size;
    map.kernels->complex_block_product(t, stride, s.proj_count >> (__builtin_ctz(stride) + 1), s.arg_count, s.scale, s.weight, out,
                                       out + s.arg_count);
}

// The feature stage for one vector: t (projection_dim) -> out (output_dim).
void features(const map_state& map, const float* t, float* out) {
    const section_view<fmt::feature_segment> segments = map.view<section::segments>();
    const float* scales = map.view<section::scales>().data;
    const float* weights = map.view<section::weights>().data;
    const float* phases = map.view<section::phases>().data;
    for (std::uint64_t i = 0; i < segments.count; ++i) {
        const fmt::feature_segment& s = segments[i];
        const float* ts = t + s.proj_begin;
        float* out0 = out + s.out_begin;
        const auto kind = static_cast<fmt::nonlinearity>(s.nonlinearity);
        if (detail::nonlinearity_built(fmt::nonlinearity::product) && kind == fmt::nonlinearity::product) {
            if ((s.flags & fmt::segment_flag_block_product) != 0)
                block_product_segment(map, s, ts, out0);
            else if (detail::block_products_kept() && (s.flags & fmt::segment_flag_complex_block_product) != 0)
                complex_block_product_segment(map, s, ts, out0);
            else
                product_segment(map, s, ts, out0);
            continue;
        }
        // cos_sin writes its sin block, and reflected segments their f(-a) block, after the first block.
        const bool two_blocks = kind == fmt::nonlinearity::cos_sin || (s.flags & fmt::segment_flag_reflect) != 0;
        // One pass is the usual case (a division costs more than the rest of a small segment's dispatch).
        const std::uint32_t passes = s.arg_count == s.proj_count ? 1 : s.arg_count / s.proj_count;
        for (std::uint32_t k = 0; k < passes; ++k) {
            const std::size_t offset = std::size_t(k) * s.proj_count;
            detail::feature_args a;
            a.kind = kind;
            a.t = ts;
            a.n = s.proj_count;
            a.scale = s.scale_index == fmt::no_index ? nullptr : scales + s.scale_index + offset;
            a.scale_scalar = s.scale;
            a.weight = s.weight_index == fmt::no_index ? nullptr : weights + s.weight_index + offset;
            a.weight_scalar = s.weight;
            a.phase = s.phase_index == fmt::no_index ? nullptr : phases + s.phase_index + offset;
            a.out0 = out0 + offset;
            a.out1 = two_blocks ? out0 + s.arg_count + offset : nullptr;
            map.kernels->features(a);
        }
    }
    const section_view<float> constants = map.view<section::constants>();
    if (constants.count != 0) {
        std::memcpy(out + (map.meta->output_dim - constants.count), constants.data,
                    std::size_t(constants.count) * sizeof(float));
    }
}

// Whether pre-processing would copy x unchanged (no PREP, normalisation, padding or appended value).
bool preprocess_is_copy(const map_state& map) {
    const fmt::map_meta& m = *map.meta;
    return !map.view<section::preprocess>().present() && (m.flags & fmt::meta_flag_normalize_input) == 0 &&
           m.work_dim == m.input_dim &&
           m.input_append == 0.0;
}

// meta_flag_gaussian_prefactor: a row's outputs (features and constants) times its factor exp(-|x'|^2 / 2)
// (kernels->gaussian_factors). The factor is at most 1, so it cannot take a finite output out of range. A normal
// float factor scales in float (a loop that vectorises: the outputs within a float rounding of the exact
// product); a smaller one, for inputs far from the shift, in the accumulator (float(factor) would lose its bits
// or flush to zero).
void scale_row(float* out, std::size_t n, accumulator factor) {
    if (factor >= accumulator(std::numeric_limits<float>::min())) {
        const float f = static_cast<float>(factor);
        for (std::size_t j = 0; j < n; ++j) out[j] *= f;
    } else {
        for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<float>(factor * accumulator(out[j]));
    }
}

// Rows a pass holds: the firmware profile has no batched paths (runtime/projection.hpp, KFM_BATCH_PATH).
#if KFM_FIRMWARE
constexpr std::size_t max_pass_rows = 1;
#else
constexpr std::size_t max_pass_rows = max_batch_rows;
#endif

// `rows` vectors already through prepare_row (checked, PREP'd into w.x_work): pre-process the rest, project
// (the projection's batched path when rows > 1), features. When pre-processing is a copy and the rows are
// contiguous, the projection reads x itself (projections take const x and unaligned loads), which saves the
// copy.
void run_rows(const map_state& map, const workspace_layout& w, const float* x, std::size_t x_stride,
              std::size_t rows, float* out, std::size_t out_stride) {
    const fmt::map_meta& m = *map.meta;
    const float* x_work = x;
    if (!preprocess_is_copy(map) || (rows > 1 && x_stride != m.work_dim)) {
        for (std::size_t r = 0; r < rows; ++r) preprocess(map, x + r * x_stride, w.x_work + r * m.work_dim);
        x_work = w.x_work;
    }
    // The Gaussian prefactors of x' (the first input_dim values of each x_work row), computed before the
    // projection, whose work can overlap the exps' latency. Built with the identity nonlinearity
    // (maclaurin-opt's linear terms), so a trimmed firmware without it links no exp; open refuses the flag
    // there (verify_map).
    const bool prefactor = detail::nonlinearity_built(fmt::nonlinearity::identity) &&
                           (m.flags & fmt::meta_flag_gaussian_prefactor) != 0;
    accumulator factors[max_pass_rows];
    if (prefactor) map.kernels->gaussian_factors(x_work, m.work_dim, m.input_dim, rows, factors);
    const projection_ops* ops = map.ops;
    if (rows > 1) {  // only projections with a batched path get more than one row per pass (rows_per_pass)
        ops->apply_batch(map, x_work, rows, w.t, w.scratch);
    } else {
        ops->apply(map, x_work, w.t, w.scratch);
    }
    for (std::size_t r = 0; r < rows; ++r) features(map, w.t + r * m.projection_dim, out + r * out_stride);
    if (prefactor)
        for (std::size_t r = 0; r < rows; ++r) scale_row(out + r * out_stride, m.output_dim, factors[r]);
}

// The pass of a batch that prepare_batch passed whose first row is `begin` (a multiple of rows): up to `rows`
// rows into out (that pass's first output row), prepared here.
void run_pass(const map_state& map, const workspace_layout& w, const float* x, std::size_t n, std::size_t x_stride,
              std::size_t rows, std::size_t begin, float* out, std::size_t out_stride) {
    const std::size_t count = n - begin < rows ? n - begin : rows;
    const float* pass_x = x + begin * x_stride;
    prepare_pass(map, w, pass_x, x_stride, count);
    run_rows(map, w, pass_x, x_stride, count, out, out_stride);
}

}  // namespace

namespace detail {

std::size_t pipeline_rows_per_pass(const map_state& map, std::size_t batch) noexcept {
    return rows_per_pass(map, batch);
}

std::size_t pipeline_bytes(const map_state& map, std::size_t rows) noexcept { return bytes_for_rows(map, rows); }

bool pipeline_check_one(const map_state& map, const float* x, void* workspace) noexcept {
    return prepare_row(map, carve(map, 1, workspace), 0, x);
}

void pipeline_run_one(const map_state& map, const float* x, float* out, void* workspace) noexcept {
    run_rows(map, carve(map, 1, workspace), x, map.meta->input_dim, 1, out, map.meta->output_dim);
}

bool pipeline_check(const map_state& map, const float* x, std::size_t n, std::size_t x_stride, std::size_t rows,
                    void* workspace) noexcept {
    return prepare_batch(map, carve(map, rows, workspace), x, n, x_stride);
}

void pipeline_run(const map_state& map, const float* x, std::size_t n, std::size_t x_stride, std::size_t rows,
                  std::size_t begin, float* out, std::size_t out_stride, void* workspace) noexcept {
    run_pass(map, carve(map, rows, workspace), x, n, x_stride, rows, begin, out, out_stride);
}

}  // namespace detail

// A model map's workspace also holds phi and the scores (predict.cpp); transform needs only the pipeline part.
std::size_t workspace_bytes(const map& m, std::size_t batch) noexcept {
    const map_state* map = detail::state_of(m);
    if (map == nullptr) return 0;
    const std::size_t rows = rows_per_pass(*map, batch);
    return bytes_for_rows(*map, rows) + detail::head_bytes(*map, rows);
}

status transform(const map& m, const float* x, std::size_t x_dim, float* out, std::size_t out_dim, void* workspace,
                 std::size_t workspace_size) noexcept {
    const map_state* map = detail::state_of(m);
    if (map == nullptr) return status::not_open;
    if (x == nullptr || out == nullptr) return status::null_argument;
    if (x_dim != map->meta->input_dim) return status::wrong_dimension;
    if (out_dim < map->meta->output_dim) return status::output_too_small;
    if (workspace == nullptr || workspace_size < bytes_for_rows(*map, 1)) return status::workspace_too_small;
    const workspace_layout w = carve(*map, 1, workspace);
    if (!prepare_row(*map, w, 0, x)) return status::non_finite_input;  // out still untouched
    run_rows(*map, w, x, x_dim, 1, out, out_dim);
    return status::ok;
}

status transform_batch(const map& m, const float* x, std::size_t n, std::size_t x_stride, std::size_t x_dim,
                       float* out, std::size_t out_stride, void* workspace, std::size_t workspace_size) noexcept {
    const map_state* map = detail::state_of(m);
    if (map == nullptr) return status::not_open;
    if (n == 0) return status::ok;
    if (x == nullptr || out == nullptr) return status::null_argument;
    if (x_dim != map->meta->input_dim || x_stride < x_dim) return status::wrong_dimension;
    if (out_stride < map->meta->output_dim) return status::output_too_small;
    if (workspace == nullptr || workspace_size < bytes_for_rows(*map, 1)) return status::workspace_too_small;

    // As many rows per pass as the workspace holds (up to rows_per_pass).
    std::size_t rows = rows_per_pass(*map, n);
    while (rows > 1 && bytes_for_rows(*map, rows) > workspace_size) --rows;
    const workspace_layout w = carve(*map, rows, workspace);
    if (!prepare_batch(*map, w, x, n, x_stride)) return status::non_finite_input;  // out still untouched
    for (std::size_t r = 0; r < n; r += rows)
        run_pass(*map, w, x, n, x_stride, rows, r, out + r * out_stride, out_stride);
    return status::ok;
}

double kernel_estimate(const map& m, const float* phi_x, const float* phi_y) noexcept {
    const map_state* map = detail::state_of(m);
    if (map == nullptr || phi_x == nullptr || phi_y == nullptr) return std::numeric_limits<double>::quiet_NaN();
    const std::size_t positive = map->meta->output_dim - map->meta->negative_dim;
    double sum = 0.0;
    for (std::size_t i = 0; i < map->meta->output_dim; ++i) {
        const double term = double(phi_x[i]) * double(phi_y[i]);
        sum += i < positive ? term : -term;
    }
    return sum;
}

}  // namespace kfm
