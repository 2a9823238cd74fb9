// On-disk layout of a .kfm map file (format v1), shared by the offline writer and the runtime reader.
// docs/format.md is the byte-level specification; change both together.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kfm::format {

inline constexpr std::uint8_t magic[8] = {'K', 'F', 'M', 'A', 'P', '\r', '\n', 0x1a};
inline constexpr std::uint16_t version_major = 1;
// Minor 1 added the model sections (PREP, TASK, HEAD, BIAS, LABL). The writer records the oldest minor
// that knows every section of the file, so a plain map is still written as 1.0. Minor 2 added GDIA (Fastfood), LNRM and
// KIRT (Nystroem). Minor 3 added the int8 head (HDI8, HSCL) and the i8 dtype.
inline constexpr std::uint16_t version_minor = 4;
inline constexpr std::uint32_t endian_tag = 0x01020304u;  // reads back as 0x04030201 on a big-endian host
inline constexpr std::uint32_t section_alignment = 64;
inline constexpr std::uint32_t max_sections = 64;
// Largest input_dim, work_dim, projection_dim and output_dim a map may have: open() refuses anything
// above it (so that workspace sizes never overflow, even with a 32-bit size_t) and the builders refuse
// options that would exceed it.
inline constexpr std::uint32_t max_dim = 1u << 24;
// Counts that multiply the work of a transform are bounded by what the builders use (docs/reliability.md,
// cost bound): butterfly repeats (map_meta::repeats of butterfly maps; the builders write 3) and the
// polynomial degree (kernel_order of polynomial-sphere maps, TensorSketch's number of sketches).
inline constexpr std::uint32_t max_butterfly_repeats = 3;
inline constexpr std::uint32_t max_polynomial_degree = 100;
// The finite-output contract (docs/format.md): open() refuses a map unless every input whose entries are
// finite with |x_i| <= max_input_abs gives finite output. 2^20 covers raw features of any usual scale
// (pixel values, counts, physical units) while leaving float's range 2^128 room for the dims (2^24) and
// the stored values that multiply it.
inline constexpr std::uint32_t max_input_abs = 1u << 20;

// 64 bytes at offset 0. Every reserved byte is zero.
struct file_header {
    std::uint8_t magic[8];
    std::uint16_t version_major;
    std::uint16_t version_minor;
    std::uint32_t endian_tag;
    std::uint32_t header_bytes;          // 64 + 40 * section_count: header plus section table
    std::uint32_t flags;                 // no flag is defined in v1: must be 0
    std::uint64_t file_bytes;            // the whole file, padding included
    std::uint32_t section_count;
    std::uint32_t section_table_offset;  // 64 in v1
    std::uint32_t header_crc;            // CRC-32C of this header (with header_crc = 0) and the section table
    std::uint8_t reserved[20];
};
static_assert(sizeof(file_header) == 64, "file_header is 64 bytes");

// 40 bytes each, right after the header.
struct section_entry {
    std::uint32_t tag;       // four ASCII characters, see make_tag
    std::uint32_t dtype;     // enum dtype
    std::uint64_t offset;    // from the start of the file, a multiple of section_alignment
    std::uint64_t bytes;     // payload size; for arrays == count * dtype_size (bits: ceil(count / 8))
    std::uint64_t count;     // number of elements
    std::uint32_t checksum;  // CRC-32C of the payload bytes
    std::uint32_t reserved;  // zero
};
static_assert(sizeof(section_entry) == 40, "section_entry is 40 bytes");

enum class dtype : std::uint32_t {
    u8 = 1,
    u16 = 2,
    u32 = 3,
    i32 = 4,
    f32 = 5,
    f64 = 6,
    bits = 7,     // packed bits, LSB first; count is the number of bits
    record = 8,   // a struct defined in this header; count is the number of records
    i8 = 9,       // minor 3: signed byte, two's complement
};

constexpr std::uint32_t make_tag(char a, char b, char c, char d) {
    return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
           std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

// Section tags. Which sections a map needs depends on its projection kind (docs/format.md).
namespace tag {
inline constexpr std::uint32_t meta = make_tag('M', 'E', 'T', 'A');         // record map_meta, count 1
inline constexpr std::uint32_t segments = make_tag('S', 'E', 'G', 'S');     // record feature_segment[]
inline constexpr std::uint32_t kernel_params = make_tag('K', 'P', 'R', 'M');// f64[]: delta-gaussian weights then sigmas
inline constexpr std::uint32_t dense = make_tag('D', 'E', 'N', 'S');        // f32 [projection_dim x work_dim] row-major
inline constexpr std::uint32_t scales = make_tag('S', 'C', 'A', 'L');       // f32 per-argument scale (radius / sigma)
inline constexpr std::uint32_t weights = make_tag('W', 'G', 'H', 'T');      // f32 per-argument output weight
inline constexpr std::uint32_t phases = make_tag('P', 'H', 'A', 'S');       // f32 per-argument phase
inline constexpr std::uint32_t constants = make_tag('C', 'N', 'S', 'T');    // f32 constant features appended at the end
inline constexpr std::uint32_t signs = make_tag('S', 'I', 'G', 'N');        // bits: 1 means -1
inline constexpr std::uint32_t indices = make_tag('I', 'N', 'D', 'X');      // u32: sketch hashes; rows of indexed products
inline constexpr std::uint32_t frequencies = make_tag('F', 'R', 'E', 'Q');  // bits: SSF index set, bit k = frequency k is in it
inline constexpr std::uint32_t twiddles = make_tag('T', 'W', 'I', 'D');     // f32 FFT twiddle table (docs/format.md)
inline constexpr std::uint32_t butterfly = make_tag('B', 'F', 'L', 'Y');    // f32 (cos, sin) pairs per butterfly block
inline constexpr std::uint32_t permutation = make_tag('P', 'E', 'R', 'M');  // u32 gather permutation
inline constexpr std::uint32_t groups = make_tag('G', 'R', 'P', 'S');       // u32 group offsets (Random Maclaurin)
inline constexpr std::uint32_t gaussian_diagonal = make_tag('G', 'D', 'I', 'A');  // minor 2: f32 Fastfood G diagonals
inline constexpr std::uint32_t landmark_norms = make_tag('L', 'N', 'R', 'M'); // f32 [projection_dim]: |l_j|^2 of the DENS rows (Nystroem)
inline constexpr std::uint32_t kernel_inverse_root = make_tag('K', 'I', 'R', 'T'); // f32 [projection_dim^2]: K_mm^{-1/2} row-major (Nystroem)
// Model sections (minor 1), optional, for every projection:
inline constexpr std::uint32_t preprocess = make_tag('P', 'R', 'E', 'P');   // f32 [2 x input_dim]: shifts then scales
inline constexpr std::uint32_t task = make_tag('T', 'A', 'S', 'K');         // record model_task, count 1
inline constexpr std::uint32_t head = make_tag('H', 'E', 'A', 'D');         // f32 [k x output_dim] row-major
inline constexpr std::uint32_t bias = make_tag('B', 'I', 'A', 'S');         // f32 [k]
inline constexpr std::uint32_t labels = make_tag('L', 'A', 'B', 'L');       // i32 [class_count], strictly increasing
// The int8 head (minor 3), in place of HEAD: weight (j, i) is HDI8[j D + i] * HSCL[j].
inline constexpr std::uint32_t head_int8 = make_tag('H', 'D', 'I', '8');    // i8 [k x output_dim] row-major
inline constexpr std::uint32_t head_scales = make_tag('H', 'S', 'C', 'L');  // f32 [k]: per-output scale, finite, nonzero
// Minor 4, optional, classifiers only: the integer type the labels had where the model was trained.
inline constexpr std::uint32_t label_type = make_tag('L', 'T', 'Y', 'P');   // u8 [1]: enum label_type
}  // namespace tag

enum class method : std::uint32_t {
    rff = 1,           // random Fourier features, paired cos/sin
    rff_phase = 2,     // random Fourier features, cos with random phase
    orf = 3,           // orthogonal random features
    ssf = 4,           // spherical structured features (DFT rows, log-energy index set)
    quadrature = 5,    // SR(3,3) with butterfly orthogonal matrices
    sorf = 6,          // structured orthogonal random features (HD1 HD2 HD3)
    qmc = 7,           // randomised Halton quasi-Monte Carlo
    srf = 8,           // spherical random features for polynomial kernels
    gorf = 9,          // orthogonal signed features for indefinite kernels
    grff = 10,         // iid signed features for indefinite kernels
    maclaurin = 11,    // Random Maclaurin
    tensorsketch = 12, // TensorSketch
    fastfood = 13,     // Fastfood (Le, Sarlos, Smola 2013): S H G Pi H B blocks
    gq = 15,           // quffka's GQ: subsampled tensor Gauss-Hermite grid (dense)
    nystroem = 14,     // Nystroem: K_mm^{-1/2} k(x, landmarks), landmarks from a data set
    maclaurin_opt = 16,  // data-optimised Maclaurin features (gaussian: centred; polynomial-sphere), degrees 0 and 1 exact
    tensor_srht = 17,    // TensorSRHT: products of p sign-flipped Hadamard blocks per pass (polynomial kernels)
    ctr_srht = 18,       // complex-to-real TensorSRHT: Re and Im of products of p complex Hadamard factors
};
// The largest method value: the verifier accepts 1..method_last. Raise it with every new method (the
// offline registry's test checks that its rows are exactly 1..method_last).
inline constexpr std::uint32_t method_last = 18;

enum class kernel : std::uint32_t {
    gaussian = 1,           // exp(-|x-y|^2 / (2 sigma^2))
    arccos = 2,             // order in map_meta::kernel_order (0, 1, 2)
    polynomial_sphere = 3,  // (1 - |x-y|^2/a^2)^p on unit-norm inputs; p = kernel_order, a = kernel_scale
    delta_gaussian = 4,     // sum_i c_i exp(-|x-y|^2/(2 sigma_i^2)); c, sigma in kernel_params
    matern = 5,             // Matern(nu, l) of |x-y|; l = kernel_sigma, nu = kernel_scale
    rational_quadratic = 6, // (1 + |x-y|^2/(2 alpha l^2))^(-alpha); l = kernel_sigma, alpha = kernel_scale
    laplacian = 7,          // exp(-|x-y|_1 / sigma), the L1 distance; sigma = kernel_sigma
};

// How x becomes the projection vector t (projection_dim values) before the feature stage.
enum class projection : std::uint32_t {
    dense = 1,             // t = W x, W in the dense section
    ssf_fft = 2,           // SSF: sign flip, scatter at the index set, FFT per block
    butterfly_simplex = 3, // quadrature: butterfly network Q^T x, then simplex vertices (and reflections)
    hadamard = 4,          // blocks of H D1 H D2 H D3 on x padded to a power of two (SORF, structured GORF/SRF)
    count_sketch_fft = 5,  // TensorSketch: p count sketches, FFT, product, inverse FFT
    butterfly_blocks = 6,  // stacked butterfly orthogonal blocks Q_k x (structured GORF/SRF directions)
    fastfood = 7,          // blocks of H G Pi H B on x padded to a power of two (Fastfood; S in the scales)
    kernel_landmarks = 8,  // Nystroem: t = M k(x, l_j), landmarks l_j in DENS, M = K_mm^{-1/2} in KIRT
};

enum class nonlinearity : std::uint32_t {
    cos_sin = 1,    // out0 = w cos(s t), out1 = w sin(s t)
    cos_phase = 2,  // out0 = w cos(s t + b)
    relu = 3,       // out0 = w max(s t, 0)         (arccos order 1); reflected: out1 = w max(-s t, 0)
    step = 4,       // out0 = w [s t > 0]           (arccos order 0)
    relu2 = 5,      // out0 = w max(s t, 0)^2       (arccos order 2)
    identity = 6,   // out0 = w s t
    product = 7,    // out0 = w prod over a group of s t (Random Maclaurin; groups section)
};

enum class output_convention : std::uint32_t {
    paired_cos_sin = 1,  // each segment writes [cos block | sin block]
    cos_phase = 2,       // one cos(. + b) feature per argument
    real = 3,            // one real feature per argument (or two with reflection)
};

inline constexpr std::uint32_t meta_flag_normalize_input = 1u << 0;  // scale x to unit norm first
// Every output (features and constants) times exp(-|x'|^2 / 2), x' the input after PREP (maclaurin-opt:
// the gaussian's factor exp(-|x - mean|^2 / (2 sigma^2)) with PREP's shift the mean and scale 1/sigma).
inline constexpr std::uint32_t meta_flag_gaussian_prefactor = 1u << 1;
inline constexpr std::uint32_t meta_flags_known = meta_flag_normalize_input | meta_flag_gaussian_prefactor;

// map_meta::method_flags: option bits the builders record, each meaningful for its method only; informational
// except quadrature's blocked-permutation bit, which the runtime checks and uses.
inline constexpr std::uint32_t method_flag_ssf_shifted_radii = 1u << 0;          // ssf: shifted radial rule (else midpoint)
inline constexpr std::uint32_t method_flag_ssf_antithetic_radii = 1u << 1;       // ssf: antithetic radial rule
inline constexpr std::uint32_t method_flag_ssf_stratified_radii = 1u << 2;       // ssf: stratified radial rule
inline constexpr std::uint32_t method_flag_quadrature_resampled_radii = 1u << 0; // quadrature: radii redrawn until a0 >= 0
inline constexpr std::uint32_t method_flag_quadrature_haar = 1u << 1;            // quadrature: dense Haar Q, not butterflies
inline constexpr std::uint32_t method_flag_quadrature_stratified_radii = 1u << 2; // quadrature: stratified radial rule
// quadrature: every rule's gather permutation is blocked (--permutation blocked: d a multiple of 8, and the
// eight outputs 8b .. 8b+7 read the eight inputs 8c .. 8c+7 of one c); open checks it, and the runtime's AVX2
// / AVX-512 paths then gather eight floats with one lane permute. Without the bit the permutations are uniform.
inline constexpr std::uint32_t method_flag_quadrature_blocked_permutation = 1u << 3;
inline constexpr std::uint32_t method_flag_gorf_signed_mixture = 1u << 0;        // gorf / grff: signed-mixture spectral model
inline constexpr std::uint32_t method_flag_nystroem_kmeanspp = 1u << 0;          // nystroem: k-means++ landmarks (else uniform)

// The META section: one record describing the whole map. 192 bytes.
struct map_meta {
    std::uint32_t method;            // enum method
    std::uint32_t kernel;            // enum kernel
    std::uint32_t projection;        // enum projection
    std::uint32_t flags;             // meta_flag_*
    std::uint32_t input_dim;         // d, what the caller passes
    std::uint32_t work_dim;          // length of the pre-processed input (d padded, plus any appended constant)
    std::uint32_t projection_dim;    // number of projections t the projection stage writes
    std::uint32_t output_dim;        // D, number of output features (segments plus constants)
    std::uint32_t negative_dim;      // the last negative_dim features have signature -1
    std::uint32_t output_convention; // enum output_convention
    std::uint32_t block_count;       // projection-specific: blocks / rules / sketches
    std::uint32_t block_size;        // projection-specific: FFT length, d2, sketch size
    std::uint32_t repeats;           // projection-specific: butterfly repeats
    std::uint32_t kernel_order;      // arccos order b, or polynomial degree p
    std::uint32_t mixture_count;     // delta-gaussian: number of (c_i, sigma_i) pairs in kernel_params
    std::uint32_t radial_points;     // SSF M; gq: Gauss-Hermite nodes per coordinate; 0 when unused
    std::uint32_t method_flags;      // method-specific option bits (documented per method)
    std::uint32_t reserved_u32[3];   // zero
    double kernel_sigma;             // gaussian / laplacian bandwidth, matern / rational-quadratic length l
    double kernel_scale;             // polynomial-sphere a, matern nu, rational-quadratic alpha
    double input_append;             // value appended to x after padding when work_dim > input_dim (TensorSketch sqrt(q)); else 0
    std::uint64_t seed;              // seed the offline tool used
    double reserved_f64[10];         // zero (10 so that the record is the documented 192 bytes)
};
static_assert(sizeof(map_meta) == 192, "map_meta is 192 bytes");

inline constexpr std::uint32_t segment_flag_reflect = 1u << 0;  // also write f(-s t) into out1 (arccos reflections)
// Product segments only: group entry k multiplies projection proj_begin + indices[k] (the INDX section,
// from its start) instead of proj_begin + k, so a feature may multiply rows of different blocks.
inline constexpr std::uint32_t segment_flag_indexed_rows = 1u << 1;
// Product segments only: the block product of degree k = proj_count / map_meta::block_size, feature j the
// product over l < k of scale * t[proj_begin + l * block_size + (j + l) mod block_size] times weight
// (j < arg_count <= block_size; no scale, weight or group arrays), so each factor reads contiguous
// projections (maclaurin-opt). Factor l starts l rows into its block: with the same row j of every factor,
// (H D x)_j (H D' x)_j of Sylvester-Hadamard blocks sums D_a D'_a x_a^2 into every feature alike
// (h_j(a) h_j(b) = h_j(a xor b)), which correlates a pass's features; rows j and j + l do not.
inline constexpr std::uint32_t segment_flag_block_product = 1u << 2;
// Product segments only: the complex block product of degree k = proj_count / (2 block_size) (ctr-srht),
// factor l the complex number scale * (t[r + (j + l) mod block_size] + i t[r + block_size + (j + l) mod block_size]),
// r = proj_begin + 2 l block_size: each factor a real row then an imaginary row, rotated as block products'
// rows. Feature j < arg_count <= block_size writes out[out_begin + j] = weight Re Z_j and
// out[out_begin + arg_count + j] = weight Im Z_j, Z_j the product of the k factors (2 arg_count outputs, like
// cos_sin; no scale, weight or group arrays).
inline constexpr std::uint32_t segment_flag_complex_block_product = 1u << 3;
inline constexpr std::uint32_t no_index = 0xffffffffu;

// One feature segment: a contiguous range of projections mapped to a contiguous range of outputs.
// Argument i of the segment is a_i = s_i * t[proj_begin + i mod proj_count], with
// s_i = scales[scale_index + i] (or scale when scale_index == no_index); the output weight is
// w_i = weight * (weights[weight_index + i] when weight_index != no_index). arg_count may be a multiple of
// proj_count (several radial points per projection, in consecutive passes over the projections).
// cos_sin writes out[out_begin + i] = cos, out[out_begin + arg_count + i] = sin; reflect likewise for f(-a).
struct feature_segment {
    std::uint32_t nonlinearity;  // enum nonlinearity
    std::uint32_t flags;         // segment_flag_*
    std::uint32_t proj_begin;
    std::uint32_t proj_count;
    std::uint32_t arg_count;     // multiple of proj_count
    std::uint32_t out_begin;
    std::uint32_t scale_index;   // into scales, or no_index
    std::uint32_t weight_index;  // into weights, or no_index
    std::uint32_t phase_index;   // into phases (cos_phase), or no_index
    std::uint32_t group_index;   // into groups (product), or no_index
    float scale;
    float weight;
};
static_assert(sizeof(feature_segment) == 48, "feature_segment is 48 bytes");

// What a model's linear head predicts (model_task::kind).
enum class task_kind : std::uint32_t {
    none = 0,            // not stored in files: a map without a head
    regression = 1,      // k scores are the prediction
    binary = 2,          // k = 1 score; label = labels[score > 0 ? 1 : 0]
    multiclass = 3,      // k = class_count >= 3 scores; label = labels[first argmax]
};

// The LTYP section's value: the integer type a host gives the labels back in (numpy's dtype of the
// training labels), so that a model exported from Python predicts labels of the pipeline's own type. LABL
// stays int32 whatever it says, every label fits it, and the runtime's predict ignores it. No LTYP: i32.
enum class label_type : std::uint8_t { i8 = 1, u8 = 2, i16 = 3, u16 = 4, i32 = 5, u32 = 6, i64 = 7, u64 = 8 };
inline constexpr std::uint8_t label_type_last = 8;

// The TASK section: one record. 32 bytes.
struct model_task {
    std::uint32_t kind;            // enum task_kind (1..3)
    std::uint32_t output_count;    // k: rows of HEAD, entries of BIAS
    std::uint32_t class_count;     // entries of LABL; 0 for regression
    std::uint32_t reserved[5];     // zero
};
static_assert(sizeof(model_task) == 32, "model_task is 32 bytes");

// hadamard projection: the sign bits of block b, stage i (i = 0 is applied first) start at bit
// (repeats b + i) * hadamard_sign_stride(block_size) (repeats = 3 stages, or 1 for maclaurin-opt's H D
// blocks), so every stage starts on a byte boundary.
constexpr std::uint32_t hadamard_sign_stride(std::uint32_t block_size) { return (block_size + 7u) & ~7u; }

}  // namespace kfm::format
