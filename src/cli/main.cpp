// Entry point of the `kfm` tool: dispatches to the sub-commands and turns every failure into one line
// "kfm: error: ..." on stderr and a non-zero exit code.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "kfm/build_registry.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {
namespace {

const char* const overview = R"(kfm - structured random feature maps: phi(x).phi(y) ~ k(x, y)

usage: kfm <command> [options]

commands:
  build     build a feature map and write it to a .kfm file
  inspect   print what a .kfm file holds
  map       apply a map to every row of a .npy file
  eval      kernel-approximation error of a map against the exact kernel
  bench     time single and batched transforms
  synth     write a synthetic data set (.npy) to try the other commands on
  fit       fit a ridge model on a map's features: a model file (map + scaling + linear head)
  predict   predictions of a model file for every row of a .npy file
  score     accuracy or R^2 of a model file on (X, y)
  export    a .kfm file as a C99 header for firmware
  help      this text, or 'kfm help <command>'

'kfm --version' prints the version.

Errors print one line 'kfm: error: ...' on stderr and exit non-zero (2 for a wrong command line);
no output file is left behind.

Files: an output replaces a regular file atomically (the target of a symbolic link; the file's mode is
kept, a new file gets 0666 & ~umask); an output path that is a directory, device or FIFO, or that is an
input of the same command, is refused. Inputs must be regular files.
)";

// `kfm help build`: the option table's rows by group and the method registry's rows.
std::string build_help() {
    const auto option_lines = [](offline::option_group group, std::size_t column) {
        std::string out;
        for (const offline::option_row& r : offline::option_table()) {
            if (r.group != group) continue;
            std::string label = "  " + offline::option_text(r.id, offline::spelling::command_line);
            if (*r.metavar != '\0') label += std::string(" ") + r.metavar;
            label += std::string(label.size() + 2 > column ? 2 : column - label.size(), ' ');
            std::string help = r.help;
            for (std::size_t begin = 0, line = 0; begin <= help.size(); ++line) {
                const std::size_t end = std::min(help.find('\n', begin), help.size());
                const std::string text = help.substr(begin, end - begin);
                // A line starting with an option is a usage example, set at the options' own indent.
                out += (line == 0 ? label : text.rfind("--", 0) == 0 ? std::string(2, ' ') : std::string(column, ' ')) +
                       text + "\n";
                begin = end + 1;
            }
        }
        return out;
    };
    std::string methods;
    for (const offline::method_row& m : offline::method_table()) {
        std::string kernels;
        for (format::kernel k : offline::kernels_in(m.kernels))
            kernels += std::string(kernels.empty() ? "" : ", ") + offline::kernel_name(k);
        std::string options;
        for (offline::option o : m.options)
            options += std::string(options.empty() ? "" : ", ") + offline::option_text(o, offline::spelling::command_line);
        const std::string name = offline::method_name(m.id);
        methods += "  " + name + std::string(name.size() < 14 ? 14 - name.size() : 1, ' ') + m.summary + "\n" +
                   std::string(16, ' ') + "kernels: " + kernels + "\n";
        if (!options.empty()) methods += std::string(16, ' ') + "options: " + options + "\n";
    }
    return "usage: kfm build --method M --kernel K --input-dim d --features D [--seed S] -o FILE\n\n" +
           option_lines(offline::option_group::general, 20) +
           "  -o FILE           output file, written atomically (required)\n\nkernel options:\n" +
           option_lines(offline::option_group::kernel, 20) + "\nmethod options:\n" +
           option_lines(offline::option_group::method, 24) + "\nmethods:\n" + methods;
}

const char* const inspect_help = R"(usage: kfm inspect FILE [--json]

Verifies FILE and prints its method, kernel and parameters, dimensions (input_dim, output_dim,
negative_dim), projection, output convention, seed, file size, sections and the ISA the runtime picks.
  --json            one JSON object instead of text
)";

const char* const map_help = R"(usage: kfm map FILE --in X.npy --out F.npy [--threads N]

Applies the map to every row of X (float32/float64/integer, C or Fortran order, shape (N, d); a 1-D
array is one row) and writes phi(X) as float32 C-order (N, output_dim).
  --threads N       host threads mapping blocks of rows (default: every core); the output does not
                    depend on N
A warning on stderr counts the rows whose features are all 0 where the kernel's k(x, x) > 0 (rows far
from the data a nystroem or gaussian maclaurin-opt map was built from; rows on the negative side of every
direction of an arc-cosine map built with --arccos-pairs plain); 'kfm inspect --json' says whether a map
can have them ("features_can_vanish").
)";

const char* const eval_help = R"(usage: kfm eval FILE --data X.npy [--samples 550] [--runs R] [--seed S] [--json]

Relative Frobenius error |K - K^|_F / |K|_F and relative max error max|K - K^| / max|K| of the map's
kernel estimate on two independent samples X, Y of rows of the data, against the exact kernel recorded
in FILE; mean and 95% interval over the runs.
  --samples n       rows per sample (default 550, or all rows when the data has fewer)
  --runs R          independent runs (default 10)
  --seed S          sampling seed (default 1)
  --json            one JSON object instead of text
)";

// The --isa line lists the runtime's ISA registry, and which of them this build and CPU can run.
std::string bench_help() {
    return R"(usage: kfm bench FILE [--batch B] [--isa NAME] [--json]

Median time per vector of transform (one vector per call) and transform_batch (B vectors per call),
over repeated timed runs with steady_clock, on fixed pseudo-random inputs.
  --batch B         batch size (default 64)
  --isa NAME        )" + isa_names(" | ", false) + R"( (error when this build or CPU lacks it;
                    available here: )" + isa_names(" ", true) + R"(; default: the best available, or KFM_ISA)
  --json            {"isa", "single_ns", "batch", "batch_ns_per_vector", ...}
)";
}

const char* const synth_help = R"(usage: kfm synth --rows N --dim d [--seed S] -o X.npy [--labels y.npy]

Writes a synthetic float32 (N, d) data set scaled like the real ones (values mostly in [-1, 1]): a
mixture of 10 isotropic Gaussian clusters with centres uniform in [-0.6, 0.6]^d and standard deviations
uniform in [0.1, 0.3], equal weights. The same seed gives the same file.
  --labels y.npy    also a classification target, int64 (N,): which of the row's first three values
                    (all of them when d < 3) is largest, 0, 1 or 2
)";

const char* const fit_help = R"(usage: kfm fit MAP.kfm --x X.npy --y y.npy --task regression|classification
               [--alpha A | --alpha A1,A2,.. --cv K] [--standardize | --minmax] [--head-dtype f32|int8]
               [--quiet] -o MODEL.kfm

Ridge on the map's features phi(x): minimises |Phi w + b - y|^2 + A |w|^2 (scikit-learn Ridge's objective
and alpha; the intercept b is not penalised), solved exactly in double precision (the D x D primal or
the N x N dual system, whichever is smaller). For a signed map (negative_dim > 0) it is the ridge of the
indefinite kernel Phi J Phi^T. The model file holds the map, the scaling and the head; 'kfm predict',
'kfm score' and kfm::predict use it on raw inputs.
  --task T          regression: y of shape (N,) or (N, k), k outputs;
                    classification: y of integer labels (N,) within int32, one-vs-rest ridge on +-1
                    targets like RidgeClassifier (two classes: one score, label = larger label when
                    score > 0); y of any dtype is read in double, so labels and float64 targets are exact
  --alpha A         ridge penalty > 0 (default 1); a comma-separated list needs --cv
  --cv K            choose alpha by K-fold cross-validation (contiguous folds, mean accuracy or R^2;
                    the first of equal best wins)
  --standardize     learn x' = (x - mean) / std per input from X (StandardScaler; constant inputs: 1)
  --minmax          learn x' = (x - min) / (max - min) per input (MinMaxScaler to [0, 1])
  --head-dtype T    how the head's weights are stored: f32 (default, 4 bytes each) or int8 (1 byte each
                    plus one float32 scale per output: max |w| / 127, weights rounded to the nearest
                    step; format 1.3, a quarter of the head's flash; docs/embedding.md measures its
                    accuracy against f32)
  --quiet           no progress lines on stderr (shown for fits that take seconds)
  -o FILE           the model file, written atomically after kfm::open accepted it
The training score printed is the written model's (float32 scores, as 'kfm score' computes it); a
warning on stderr says when it is more than 1e-3 below the double-precision fit's (a large target offset).
MAP may be a model: a warning says that the fit replaced its head and what became of its scaling.
)";

const char* const predict_help = R"(usage: kfm predict MODEL.kfm --in X.npy --out P.npy [--scores S.npy]

Predictions for every row of X (raw inputs: the model's scaling is applied): a classifier writes int64
labels (N,), a regression model float32 (N,) for one output or (N, k).
  --scores S.npy    also the head's scores, float32 (N,) or (N, k)
A warning on stderr counts the rows whose features are all 0 (as 'kfm map' warns; the model predicts
its bias alone for them).
)";

const char* const score_help = R"(usage: kfm score MODEL.kfm --x X.npy --y y.npy [--json]

Accuracy of a classifier, or R^2 of a regression model (averaged over outputs), on (X, y).
  --json            {"metric": "accuracy" | "r2", "value": v, "rows": N}
A warning on stderr counts the rows of X whose features are all 0 (as 'kfm map' warns).
)";

const char* const export_help = R"(usage: kfm export FILE.kfm --c-header OUT.h --name SYMBOL

Writes a C99 header holding the verified file as 'static const unsigned char SYMBOL[]' (8-byte aligned,
as kfm_open requires) and the macros SYMBOL_SIZE, SYMBOL_INPUT_DIM, SYMBOL_OUTPUT_COUNT (the head's k,
or output_dim for a map without a head) and SYMBOL_WORKSPACE_BYTES (kfm_workspace_bytes for one vector),
so firmware sizes static buffers at compile time (examples/device shows the use). SYMBOL is the macros'
upper-case prefix (kfm_model: KFM_MODEL_SIZE), so it must be lower case (a C identifier of a-z, 0-9, _);
C and C++ keywords, reserved names (leading _, __, a _t ending), main and what kfm.h declares are
refused. The array is written as it is read, so a large map needs no memory beyond its own.
)";

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
    for (const auto& a : rest)
        if (a == "--help" || a == "-h") {
            std::fputs(help_text(command).c_str(), stdout);
            return 0;
        }
    if (command == "build") return run_build(rest);
    if (command == "inspect") return run_inspect(rest);
    if (command == "map") return run_map(rest);
    if (command == "eval") return run_eval(rest);
    if (command == "bench") return run_bench(rest);
    if (command == "synth") return run_synth(rest);
    if (command == "fit") return run_fit(rest);
    if (command == "predict") return run_predict(rest);
    if (command == "score") return run_score(rest);
    if (command == "export") return run_export(rest);
    usage_error("unknown command '" + command + "' (see 'kfm help')");
}

}  // namespace

std::string help_text(const std::string& command) {
    if (command.empty()) return overview;
    if (command == "build") return build_help();
    if (command == "inspect") return inspect_help;
    if (command == "map") return map_help;
    if (command == "eval") return eval_help;
    if (command == "bench") return bench_help();
    if (command == "synth") return synth_help;
    if (command == "fit") return fit_help;
    if (command == "predict") return predict_help;
    if (command == "score") return score_help;
    if (command == "export") return export_help;
    return "";
}

}  // namespace kfm::cli

int main(int argc, char** argv) {
    using namespace kfm::cli;
    kfm::offline::remove_temporaries_on_signals();  // an interrupted write leaves no temporary file
    try {
        if (argc < 2) usage_error("no command given (see 'kfm help')");
        const std::string command = argv[1];
        std::vector<std::string> rest(argv + 2, argv + argc);
        if (command == "--version" || command == "version") {
            if (!rest.empty()) usage_error("'kfm --version' takes no arguments");
            std::printf("kfm %s\n", kfm::version());
            return 0;
        }
        if (command == "help" || command == "--help" || command == "-h") {
            if (rest.size() > 1) usage_error("'kfm help' takes at most one command name");
            const std::string text = help_text(rest.empty() ? "" : rest[0]);
            if (text.empty()) usage_error("unknown command '" + rest[0] + "' (see 'kfm help')");
            std::fputs(text.c_str(), stdout);
            return 0;
        }
        return dispatch(command, rest);
    } catch (const cli_error& e) {
        std::fprintf(stderr, "kfm: error: %s\n", e.what());
        return e.exit_code;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "kfm: error: out of memory\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kfm: error: %s\n", e.what());
    }
    return 1;
}
