// Shared pieces of the `kfm` command-line tool: argument parsing, strict number parsing, loading and
// opening a .kfm file, JSON output, and the entry point of each sub-command.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "offline/io/json.hpp"

namespace kfm::cli {

// A failure the user can act on. main prints "kfm: error: <what>" and exits with `exit_code`
// (2: the command line is wrong, 1: the inputs or the work failed).
struct cli_error : std::runtime_error {
    cli_error(const std::string& message, int code = 1) : std::runtime_error(message), exit_code(code) {}
    int exit_code;
};
[[noreturn]] void usage_error(const std::string& message);

// One option a command accepts: "--name" (or "-o") and whether a value follows it.
struct option_spec {
    const char* name;
    bool takes_value;
};

// Parsed arguments of one sub-command. Accepts "--name value" and "--name=value"; rejects unknown,
// repeated or value-less options and surplus positional arguments with a usage error.
class arguments {
public:
    arguments(const std::string& command, const std::vector<std::string>& argv,
              const std::vector<option_spec>& specs, std::size_t max_positional);

    bool has(const std::string& name) const { return values_.count(name) != 0; }
    const std::string& value(const std::string& name) const;         // usage error when absent
    std::string value_or(const std::string& name, const std::string& fallback) const;
    const std::vector<std::string>& positional() const { return positional_; }
    const std::map<std::string, std::string>& values() const { return values_; }  // every option given
    const std::string& command() const { return command_; }

    // Typed accessors (usage error with the option name for malformed or out-of-range text).
    std::uint64_t u64(const std::string& name, std::uint64_t fallback) const;
    unsigned u32(const std::string& name, unsigned fallback, unsigned min_value = 0) const;
    double real(const std::string& name, double fallback) const;  // finite
    std::vector<double> reals(const std::string& name) const;     // comma-separated, finite

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

std::uint64_t parse_u64(const std::string& option, const std::string& text);
double parse_real(const std::string& option, const std::string& text);

// A .kfm file read into memory and verified by kfm::open (offline::read_map_file), or cli_error("<path>:
// <reason>") when the file is not a readable regular file or does not verify.
using loaded_map = offline::map_file;
loaded_map load_map(const std::string& path, kfm::isa requested = kfm::isa::automatic);

// Usage error when the output `out` (given as `out_option`) is the same file as one of the inputs
// (option, path), compared by device and inode so that ./a, a, hard and symbolic links all match.
void refuse_overwriting_inputs(const std::string& out_option, const std::string& out,
                               const std::vector<std::pair<std::string, std::string>>& inputs);

// A 64-byte aligned scratch buffer for the runtime's workspace (SIMD kernels may want the alignment).
class aligned_buffer {
public:
    explicit aligned_buffer(std::size_t bytes);
    ~aligned_buffer();
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    void* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

// Throws cli_error naming the first row and column of x (rows x cols) that is NaN or infinite.
void require_finite(const std::string& name, const float* x, std::size_t rows, std::size_t cols);

// Minimal JSON text builders (the offline library's, which its map descriptions use too).
using offline::json_array;
using offline::json_number;
using offline::json_string;

// `kfm build`'s options (without -o), one per row of the offline option table, and the build options
// they give (offline::build_options_from, plus --data X.npy read from the file and --sigma median |
// scale computed from it). *sigma_note (may be null) receives ", sigma S from --sigma median" for a
// data-driven bandwidth.
const std::vector<option_spec>& build_option_specs();
offline::build_options build_options_from(const arguments& args, std::string* sigma_note);

// Sub-commands; each returns the process exit code.
int run_build(const std::vector<std::string>& argv);
int run_inspect(const std::vector<std::string>& argv);
int run_map(const std::vector<std::string>& argv);
int run_eval(const std::vector<std::string>& argv);
int run_bench(const std::vector<std::string>& argv);
int run_synth(const std::vector<std::string>& argv);
int run_fit(const std::vector<std::string>& argv);
int run_predict(const std::vector<std::string>& argv);
int run_score(const std::vector<std::string>& argv);
int run_export(const std::vector<std::string>& argv);

// The names of the runtime's ISAs (kfm::isa_at, best first) joined by `separator`; with available_only,
// just those this build and CPU can run.
std::string isa_names(const char* separator, bool available_only);

// Help text of one command ("" for the overview); empty string when the command is unknown.
std::string help_text(const std::string& command);

}  // namespace kfm::cli
