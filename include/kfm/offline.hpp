// Offline tooling API, everything the kfm tool and the Python package do: build a feature map's
// parameters from a seed, serialise it to the v1 format and write it atomically (this header); read and
// write .npy arrays, open a verified .kfm file, choose a bandwidth from data, map many rows on several
// threads, evaluate a map against the exact kernel, fit and score a model, export a C header (the
// headers included at the end, one purpose each). May allocate and throw: std::invalid_argument for
// impossible parameters or inputs, std::runtime_error for I/O and for inputs the runtime refuses, as
// each declaration says; a function that throws leaves its outputs (files included) unchanged unless
// it says otherwise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"

namespace kfm::offline {

struct kernel_spec {
    format::kernel kind = format::kernel::gaussian;
    double sigma = 1.0;            // gaussian, laplacian; matern / rational-quadratic length l
    unsigned order = 0;            // arccos b
    unsigned degree = 1;           // polynomial-sphere p
    double scale = 2.0;            // polynomial-sphere a (>= 2)
    std::vector<double> weights;   // delta-gaussian c_i
    std::vector<double> sigmas;    // delta-gaussian sigma_i
    double nu = 1.5;               // matern nu (0 < nu <= 100)
    double alpha = 1.0;            // rational-quadratic alpha
};

// The build options that choose among named values (kfm build's --arccos-pairs, --radial-rule, --spectral,
// --directions, --landmark-init), with their names below.
enum class arccos_pairs_kind { reflected, plain };
enum class radial_rule_kind { automatic, midpoint, shifted, antithetic, stratified };
enum class spectral_kind { signed_mixture, bessel_1d };
enum class directions_kind { dense, butterfly, hadamard };
enum class landmark_init_kind { uniform, kmeanspp };
enum class permutation_kind { uniform, blocked };

template <class E>
struct named_value {
    E value;
    const char* name;
};
inline constexpr named_value<arccos_pairs_kind> arccos_pairs_names[] = {{arccos_pairs_kind::reflected, "reflected"},
                                                                         {arccos_pairs_kind::plain, "plain"}};
inline constexpr named_value<radial_rule_kind> radial_rule_names[] = {
    {radial_rule_kind::automatic, "auto"},     {radial_rule_kind::midpoint, "midpoint"},
    {radial_rule_kind::shifted, "shifted"},    {radial_rule_kind::antithetic, "antithetic"},
    {radial_rule_kind::stratified, "stratified"}};
inline constexpr named_value<spectral_kind> spectral_names[] = {{spectral_kind::signed_mixture, "signed-mixture"},
                                                                {spectral_kind::bessel_1d, "bessel-1d"}};
inline constexpr named_value<directions_kind> directions_names[] = {{directions_kind::dense, "dense"},
                                                                    {directions_kind::butterfly, "butterfly"},
                                                                    {directions_kind::hadamard, "hadamard"}};
inline constexpr named_value<landmark_init_kind> landmark_init_names[] = {{landmark_init_kind::uniform, "uniform"},
                                                                          {landmark_init_kind::kmeanspp, "kmeans++"}};
inline constexpr named_value<permutation_kind> permutation_names[] = {{permutation_kind::uniform, "uniform"},
                                                                      {permutation_kind::blocked, "blocked"}};

// The name table of each choice type (overloads on a value of the type).
inline std::span<const named_value<arccos_pairs_kind>> names_of(arccos_pairs_kind) { return arccos_pairs_names; }
inline std::span<const named_value<radial_rule_kind>> names_of(radial_rule_kind) { return radial_rule_names; }
inline std::span<const named_value<spectral_kind>> names_of(spectral_kind) { return spectral_names; }
inline std::span<const named_value<directions_kind>> names_of(directions_kind) { return directions_names; }
inline std::span<const named_value<landmark_init_kind>> names_of(landmark_init_kind) { return landmark_init_names; }
inline std::span<const named_value<permutation_kind>> names_of(permutation_kind) { return permutation_names; }

// A choice's name, nullptr for a value outside its table.
template <class E>
const char* choice_name(E value) {
    for (const auto& n : names_of(E{}))
        if (n.value == value) return n.name;
    return nullptr;
}
// The choice of that name; false (and *out unchanged) for an unknown name.
template <class E>
bool choice_from_name(const std::string& name, E* out) {
    for (const auto& n : names_of(E{}))
        if (name == n.name) {
            *out = n.value;
            return true;
        }
    return false;
}

// The choice of that name; std::invalid_argument naming the valid ones for an unknown name.
template <class E>
E choice_named(const std::string& name) {
    E value{};
    if (choice_from_name(name, &value)) return value;
    std::string valid;
    for (const auto& n : names_of(E{})) valid += std::string(valid.empty() ? "" : ", ") + n.name;
    throw std::invalid_argument("unknown name '" + name + "' (" + valid + ")");
}

// How messages name an option: kfm build's "--radial-points" or Python's "radial_points"
// (build_options::option_names; the option table, kfm/build_registry.hpp, has both spellings).
enum class spelling { command_line, python };

// build_options::fft_size value asking for SSF's smallest FFT length: stacked blocks sharing one index set.
inline constexpr unsigned ssf_fft_size_smallest = 1;

struct build_options {
    format::method method = format::method::rff;
    kernel_spec kernel;
    unsigned input_dim = 0;
    unsigned features = 0;         // requested output dimension; methods may round it
    std::uint64_t seed = 1;
    spelling option_names = spelling::command_line;  // how error messages name the options
    // rff / orf / qmc / sorf with the arccos kernel: "reflected" (default) draws D/2 directions and outputs
    // the antithetic pair [f(w.x), f(-w.x)] for each; "plain" draws D directions, one feature each.
    arccos_pairs_kind arccos_pairs = arccos_pairs_kind::reflected;
    // SSF
    unsigned radial_points = 0;             // M; 0: the rule's own (auto: 2 or 1, antithetic 2, else 1)
    radial_rule_kind radial_rule = radial_rule_kind::automatic;  // auto | midpoint | shifted | antithetic | stratified (src/offline/methods/ssf/ssf_radii.hpp)
    unsigned sweeps = 10;                   // T
    unsigned fft_size = 0;                  // 0: one block for all directions, capped (src/offline/methods/ssf/build_ssf.cpp);
                                            // ssf_fft_size_smallest: the smallest power of two > d/2 (fastest)
    bool show_progress = false;             // progress on stderr for long optimiser runs
    // quadrature
    bool resample_radii = false;            // the paper's biased a0 >= 0 variant
    bool haar_rotations = false;            // dense Haar Q instead of butterflies (accuracy reference)
    bool partial_rule = false;              // exactly features / 2 points: the last rule truncated (not rounded)
    permutation_kind permutation = permutation_kind::uniform;  // the butterflies' gathers: uniform | blocked (d % 8 == 0)
    // gq
    unsigned gq_nodes = 2;                  // Gauss-Hermite nodes per coordinate (quffka's default 2)
    // SRF / GORF
    spectral_kind spectral = spectral_kind::signed_mixture;  // GORF/GRFF polynomial: signed-mixture (unbiased) | bessel-1d (the paper's, biased)
    directions_kind directions = directions_kind::dense;
    // Nystroem: features = m landmarks chosen from the rows of `data` (data_rows x input_dim, row-major)
    std::vector<float> data;
    std::size_t data_rows = 0;
    landmark_init_kind landmark_init = landmark_init_kind::uniform;  // uniform (without replacement) | kmeans++ (D^2 seeding)
};

// One section before serialisation.
struct section {
    std::uint32_t tag = 0;
    format::dtype type = format::dtype::u8;
    std::uint64_t count = 0;
    std::vector<std::uint8_t> bytes;
};

// A whole map in memory: the META record plus the other sections, in file order.
struct map_contents {
    format::map_meta meta{};
    std::vector<section> sections;
};

// Helpers to make typed sections.
section make_f32_section(std::uint32_t tag, const std::vector<float>& values);
section make_f64_section(std::uint32_t tag, const std::vector<double>& values);
section make_u32_section(std::uint32_t tag, const std::vector<std::uint32_t>& values);
section make_bits_section(std::uint32_t tag, const std::vector<bool>& bits);
section make_segments_section(const std::vector<format::feature_segment>& segments);

// A segment mapping `count` projections from proj_begin one-to-one onto the features at out_begin, with a
// scalar scale and weight and no per-argument arrays (set the *_index fields afterwards to use them).
format::feature_segment make_segment(format::nonlinearity kind, std::uint32_t proj_begin, std::uint32_t count,
                                     std::uint32_t out_begin, float scale, float weight);

// Builds a map; throws std::invalid_argument with a clear message for impossible options.
map_contents build_map(const build_options& options);

// Serialises to the exact file bytes (header, table, aligned sections, checksums).
std::vector<std::uint8_t> serialize(const map_contents& map);

// serialize, then checked with the runtime's own kfm::open: std::invalid_argument with open's status
// when the runtime would refuse the bytes.
std::vector<std::uint8_t> serialize_verified(const map_contents& map);

// Serialises `map`, checks the bytes with the runtime's own kfm::open, and writes them with
// write_file_atomic. Throws std::invalid_argument with open's status (and writes nothing) when the
// runtime would refuse the file: every map writer goes through here, so none writes a file open refuses.
void write_map_file(const std::string& path, const map_contents& map);

// Writes `bytes` to `path` atomically (docs/reliability.md, "Output files"): a temporary file beside the
// target is written, flushed and renamed over it. A symbolic link is followed (its target is replaced);
// an existing target that is not a regular file is refused; an existing file keeps its mode, a new one
// gets 0666 & ~umask. On any failure (including EFBIG from a file size limit) nothing is left behind.
void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes);

// The outputs of one command, written all or nothing (docs/reliability.md, "Output files"): add() writes
// each output to a new temporary file beside its target (links followed; a target that exists must be a
// regular file; no two outputs may be the same file, by device and inode) and flushes it; commit()
// renames them all over their targets once every one is complete. Destroyed before commit(), the set
// removes its temporaries and no target changes. Existing targets keep their mode, new files get
// 0666 & ~umask. Throws std::runtime_error naming the path on any failure.
class output_files {
public:
    using sink = std::function<void(const void* data, std::size_t size)>;

    output_files();
    ~output_files();
    output_files(const output_files&) = delete;
    output_files& operator=(const output_files&) = delete;

    void add(const std::string& path, const std::vector<std::uint8_t>& bytes);
    // `produce` writes the file's bytes through the sink, in as many pieces as it likes (streaming).
    void add(const std::string& path, const std::function<void(const sink&)>& produce);
    void commit();

private:
    struct staged;
    std::vector<staged> staged_;
    bool committed_ = false;
};

// Installs SIGINT, SIGTERM and SIGHUP handlers that remove the temporary files of unfinished writes
// before the process ends with the signal (a signal already ignored stays ignored). For programs such
// as the kfm tool; a library user with handlers of its own need not call it.
void remove_temporaries_on_signals();

// Whether two output paths would write the same file: the same existing file (device and inode, links
// followed), or the same name in the same directory for a file that does not exist yet.
bool same_destination(const std::string& a, const std::string& b);

// Reads the whole of a regular file (a symbolic link to one is followed). Throws std::runtime_error
// "<path>: <reason>" for a directory, device, FIFO or socket ("is a directory", ...) instead of reading
// it, so an endless input cannot exhaust memory; reads exactly the size the file has when opened.
std::vector<std::uint8_t> read_regular_file(const std::string& path);

// Whether two paths name the same existing file (same device and inode, after following symbolic links).
bool same_file(const std::string& a, const std::string& b);

// Exact kernel value for x, y of length d (sphere kernels normalise their inputs).
double exact_kernel(const kernel_spec& kernel, const double* x, const double* y, unsigned d);

// Names used by the CLI and in reports: the runtime's tables (kfm::method_name, ...) with std::string lookups.
inline const char* method_name(format::method m) { return kfm::method_name(m); }
inline const char* kernel_name(format::kernel k) { return kfm::kernel_name(k); }
inline bool method_from_name(const std::string& name, format::method* out) {
    format::method m{};
    if (kfm::method_from_name(name.c_str(), &m) != status::ok) return false;
    if (out != nullptr) *out = m;
    return true;
}
inline bool kernel_from_name(const std::string& name, format::kernel* out) {
    format::kernel k{};
    if (kfm::kernel_from_name(name.c_str(), &k) != status::ok) return false;
    if (out != nullptr) *out = k;
    return true;
}

}  // namespace kfm::offline

// The rest of the offline API. Each of these headers includes this one when it needs its types, and
// none includes another of the list but map_file.hpp, so any of them can be included first.
#include "kfm/offline/bandwidth.hpp"     // data-driven Gaussian bandwidths
#include "kfm/offline/c_header.hpp"      // a .kfm file as a C header for firmware
#include "kfm/offline/describe.hpp"      // what a .kfm file holds, as text or JSON
#include "kfm/offline/evaluate.hpp"      // kernel-approximation error against the exact kernel
#include "kfm/offline/map_file.hpp"      // reading and verifying a .kfm file
#include "kfm/offline/model.hpp"         // model sections, ridge fitting, predictions and scores
#include "kfm/offline/npy.hpp"           // NumPy .npy arrays
#include "kfm/offline/parallel_map.hpp"  // phi of many rows on several threads
#include "kfm/offline/synthetic.hpp"     // synthetic data sets
#include "kfm/offline/vanishing_features.hpp"  // rows whose features all vanish where k(x, x) > 0
