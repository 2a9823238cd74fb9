// Entry point of the `kfm` tool: dispatches to the sub-commands and turns every failure into one line
// "kfm: error: ..." on stderr and a non-zero exit code.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/cli.hpp"
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

const char* const build_help = R"(usage: kfm build --method M --kernel K --input-dim d --features D [--seed S] -o FILE

  --method M        rff | rff-phase | orf | ssf | quadrature | sorf | qmc | srf | gorf | grff |
                    maclaurin | tensorsketch | fastfood | gq | nystroem (a method not built into this
                    kfm reports "not available"; nystroem: --landmarks m and --data X.npy
                    instead of --features)
  --kernel K        gaussian | arccos | polynomial-sphere | delta-gaussian | matern |
                    rational-quadratic | laplacian (matern and rational-quadratic: rff, rff-phase,
                    orf, qmc, sorf, ssf, quadrature, fastfood, nystroem -- quadrature needs nu > 1,
                    alpha > 1, nystroem nu = 0.5, 1.5 or 2.5; laplacian: rff, rff-phase, qmc)
  --input-dim d     input dimension
  --features D      requested output dimension; a method with a natural granularity rounds it
                    ('kfm inspect' reports the real output_dim)
  --seed S          random seed (default 1); the same seed and options give the same bytes
  -o FILE           output file, written atomically (required)

kernel options:
  --sigma S         gaussian: exp(-|x-y|^2 / (2 S^2)) (default 1); matern, rational-quadratic: the
                    length l; laplacian: exp(-|x-y|_1 / S), the L1 distance. S may be computed from data:
  --sigma median --data X.npy   S = the median distance between rows of X (at most 1000 evenly
                    spaced rows; the lower median)
  --sigma scale --data X.npy    S = sqrt(d Var(X) / 2), scikit-learn's gamma='scale' (1 / (d Var));
                    X must have d = --input-dim columns and finite values; inspect shows the S chosen
  --nu NU           matern smoothness, 0 < NU <= 100 (required): NU = 0.5 is exp(-r/l),
                    1.5 is (1 + sqrt(3) r/l) exp(-sqrt(3) r/l), r = |x-y|
  --alpha A         rational-quadratic A > 0 (required): (1 + |x-y|^2 / (2 A l^2))^(-A)
  --order b         arccos order 0, 1 or 2 (default 0)
  --arccos-pairs P  arccos with rff | orf | qmc | sorf: reflected (default: D/2 directions w, each
                    giving the pair f(w.x), f(-w.x); lower error) | plain (D directions, one each)
  --degree p        polynomial-sphere degree p >= 1 (default 1)
  --scale a         polynomial-sphere a >= 2: (1 - |x-y|^2/a^2)^p on unit-norm inputs (default 2)
  --weights c1,c2,..  delta-gaussian mixture weights (any sign)
  --sigmas s1,s2,..   delta-gaussian bandwidths: sum_i c_i exp(-|x-y|^2 / (2 s_i^2))

method options:
  --radial-points M     SSF radial points per direction (default: the rule's, 2 antithetic, else 1)
  --radial-rule R       SSF radial rule: auto (default) | midpoint | shifted | antithetic |
                        stratified; gaussian auto = antithetic (M = 2, radii at quantiles U, 1 - U
                        per direction; unbiased) when d <= 32 and D/4 directions fill a block of
                        the smallest FFT length, else midpoint (M = 1; the old default, biased: its
                        error stops falling); matern / rational-quadratic auto = stratified (one
                        radius per direction, the map's radii one per stratum of the radial law).
                        Quadrature: auto | shifted (independent radii, the paper's) | stratified;
                        auto = stratified for matern / rational-quadratic, else shifted
  --sweeps T            SSF index-set optimiser sweeps (default 10)
  --fft-size n          SSF FFT length, a power of two > d/2, or smallest (blocks of the smallest
                        length sharing one index set: the old default, faster, about 10% higher
                        error for arccos on LETTER at D = 8d, 16d). Default: one block holding every
                        direction (the SSF paper's layout), at most 8x the smallest length and
                        m n <= 2^19 (m = d/2); past that, blocks of the capped length
  --resample-radii      quadrature: the paper's biased variant (radius resampled until a0 >= 0)
  --haar-rotations      quadrature: dense Haar rotations instead of butterflies (accuracy reference)
  --partial-rule        quadrature: exactly D outputs (D/2 points, D even), the last rule truncated
                        (default: D rounded to whole rules of 2 (d + 1))
  --gq-nodes N          gq: Gauss-Hermite nodes per coordinate, 2..64 (default 2, quffka's)
  --spectral S          GORF/GRFF polynomial-sphere spectral model: signed-mixture (default; unbiased)
                        | bessel-1d (the GORF paper's model, kept to reproduce it; biased: its
                        kernel is +0.15 above K at |x-y| = 2 for a = 3, p = 1)
  --directions D        SRF/GORF directions: dense | hadamard | butterfly (default dense)
  --landmarks m         nystroem: D = m landmarks, rows of --data X.npy (1 <= m <= rows of X); the
                        file stores them and K_mm^{-1/2}, so it depends on X
  --landmark-init I     nystroem: uniform (default; without replacement) | kmeans++ (D^2 seeding)
  --progress            show optimiser progress on stderr
)";

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
)";

const char* const predict_help = R"(usage: kfm predict MODEL.kfm --in X.npy --out P.npy [--scores S.npy]

Predictions for every row of X (raw inputs: the model's scaling is applied): a classifier writes int64
labels (N,), a regression model float32 (N,) for one output or (N, k).
  --scores S.npy    also the head's scores, float32 (N,) or (N, k)
)";

const char* const score_help = R"(usage: kfm score MODEL.kfm --x X.npy --y y.npy [--json]

Accuracy of a classifier, or R^2 of a regression model (averaged over outputs), on (X, y).
  --json            {"metric": "accuracy" | "r2", "value": v, "rows": N}
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
    if (command == "build") return build_help;
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
