// What a build can be asked for, written once: the method registry (one row per method: what it builds,
// how it rounds D, which options it reads) and the option table (one row per build option: its name in
// both spellings, its type or choices, default and help, the kernels that read it, and how a value is
// applied to build_options). build_map, the kernel checks, `kfm build` and its help, `kfm inspect`, the
// Python binding and the scikit-learn wrapper all iterate these tables (docs/architecture.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/offline.hpp"

namespace kfm::offline {

// ---- options

enum class option : unsigned {
    method, kernel, input_dim, features, seed,                                    // general
    sigma, nu, alpha, order, arccos_pairs, degree, scale, weights, sigmas,        // kernel
    radial_points, radial_rule, sweeps, fft_size, resample_radii, haar_rotations,  // method
    partial_rule, permutation, gq_nodes, spectral, directions, landmarks, landmark_init,
    data, progress,
};

enum class option_type {
    flag,      // no value: given means true
    count,     // a non-negative integer within 32 bits
    seed,      // a non-negative integer within 64 bits
    real,      // a finite number
    reals,     // comma-separated finite numbers
    choice,    // one of `choices`
    path,      // a file name (kfm build's --data)
};

enum class option_group { general, kernel, method };

// A value given for an option, as text: a number's decimal form, a choice's name, "" for a flag.
struct option_value {
    std::string text;
};

struct option_row {
    option id;
    const char* name;           // "radial-rule": --radial-rule on the command line, radial_rule in Python
    option_type type;
    const char* metavar;        // the value's placeholder in the help ("R"; "" for a flag)
    std::vector<const char*> choices;  // choice: the names of the values (the enum's name table)
    const char* default_text;   // the default as the help and the Python docs state it ("" for none)
    option_group group;
    std::uint32_t kernels;      // kernel options: kernel_bit()s of the kernels that read it; 0 for any kernel
    const char* help;           // `kfm help build`'s text, lines separated by '\n'
    // Parses the value by the option's type and stores it into the options; option_error naming the
    // option in spelling `s` for a malformed or out-of-range value. (method, kernel and data: a no-op,
    // build_options_from looks those up itself.)
    void (*apply)(build_options& options, const option_value& value, spelling s);
};

// Bad options: an unknown name, a malformed value, a missing or foreign option. kfm build reports it as
// a usage error, Python as ValueError.
struct option_error : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Every build option, in `kfm help build`'s order.
std::span<const option_row> option_table();
const option_row& option_info(option id);
// The row called `name` in spelling `s` ("--radial-rule" or "radial_rule"); nullptr when none is.
const option_row* find_option(const std::string& name, spelling s);
// How messages name the option in spelling `s`: "--radial-rule" or "radial_rule".
std::string option_text(option id, spelling s);
// How a builder's messages name the option: in the spelling of options.option_names.
inline std::string option_name(const build_options& options, option id) { return option_text(id, options.option_names); }

constexpr std::uint32_t kernel_bit(format::kernel k) { return 1u << static_cast<unsigned>(k); }
// The kernels whose kernel_bit()s are set in `bits`, in format::kernel order.
std::vector<format::kernel> kernels_in(std::uint32_t bits);

// Strict number parsing for option values (the whole text must be the number); option_error naming
// `name` otherwise.
std::uint64_t parse_unsigned(const std::string& name, const std::string& text,
                             std::uint64_t max = UINT64_MAX);
double parse_finite(const std::string& name, const std::string& text);

// ---- methods

struct method_row {
    format::method id;
    const char* summary;                                     // one help line
    std::uint32_t kernels;                                   // kernel_bit()s of the kernels it builds
    map_contents (*build)(const build_options&);             // the builder (src/offline/methods/<method>/)
    // A lower bound on the output dimension it makes of the request (the methods that round D to whole
    // rules or points); nullptr: D as requested. build_map checks it against the format's limit before
    // building.
    std::uint64_t (*least_output_dim)(const build_options&);
    std::vector<option> options;                             // the method options it reads
    bool landmarks_from_data;  // D = --landmarks rows chosen from --data, not --features
    // The option whose value the map records in map_meta::radial_points, shown by kfm inspect, with
    // its label there ("Gauss-Hermite nodes per coordinate"); nullptr when none.
    const char* recorded_option_label;
    option recorded_option;
    // The map is fitted to --data (rows x input_dim) and still has --features outputs (maclaurin-opt).
    bool fitted_to_data = false;
};

// Every method this build of the library builds, in format::method order.
std::span<const method_row> method_table();
// The row of `m`; nullptr for a method the table lacks.
const method_row* find_method(format::method m);

// The options named by (name, value) pairs in spelling `s`, checked and applied as kfm build does:
// method and kernel by name, input_dim and features (landmarks for a method with landmarks_from_data)
// required, kernel options only for their kernels, the kernels' own required options (matern nu,
// rational-quadratic alpha, delta-gaussian weights and sigmas). `rows` (rows x cols floats, may be
// null) are the data set of a landmarks_from_data method. Throws option_error.
build_options build_options_from(const std::vector<std::pair<std::string, option_value>>& given, spelling s,
                                 const float* rows = nullptr, std::size_t row_count = 0, std::size_t cols = 0);

}  // namespace kfm::offline
