// Every documented option range, at both ends: the value at the end of the range is accepted, the value
// just beyond it is refused with one error line naming the option, and nothing is written for a refusal.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli/cli_harness.hpp"

using namespace kfm_cli_test;

namespace {

struct case_ {
    std::string args;      // kfm arguments, writing out.* when accepted
    std::string refusal;   // empty: accepted; else a fragment of the error line
};

void check_cases(const scratch& s, const std::vector<case_>& cases) {
    for (const case_& c : cases) {
        CAPTURE(c.args);
        const run_result r = s.kfm(c.args);
        if (c.refusal.empty()) {
            CHECK_MESSAGE(r.exit_code == 0, r.err);
        } else {
            check_error(r, c.refusal);
            CHECK(!fs::exists(s.path("out.kfm")));
            CHECK(!fs::exists(s.path("out.npy")));
        }
        std::error_code ec;
        fs::remove(s.path("out.kfm"), ec);
        fs::remove(s.path("out.npy"), ec);
    }
}

}  // namespace

TEST_CASE("option ranges: kernel options at both ends of their documented ranges") {
    scratch s;
    const std::string rff = "build --method rff --input-dim 4 --features 8 -o out.kfm ";
    const std::string sketch = "build --method tensorsketch --kernel polynomial-sphere --input-dim 4 --features 8 -o out.kfm ";
    check_cases(s, {
        {rff + "--kernel matern --nu 100", ""},
        {rff + "--kernel matern --nu 100.001", "matern nu must be in (0, 100]"},
        {rff + "--kernel matern --nu 0", "matern nu must be in (0, 100]"},
        // Inside the range but so heavy-tailed that float32 overflows: the error names --nu, not only --sigma.
        {rff + "--kernel matern --nu 1e-3", "--nu 0.001 with --sigma 1 is too small"},
        {rff + "--kernel rational-quadratic --alpha 1e-6", ""},
        {rff + "--kernel rational-quadratic --alpha 0", "alpha must be positive"},
        {rff + "--kernel arccos --order 0", ""},
        {rff + "--kernel arccos --order 2", ""},
        {rff + "--kernel arccos --order 3", "arccos order must be 0, 1 or 2"},
        {rff + "--kernel arccos --order -1", "--order expects a non-negative integer"},
        {sketch + "--degree 1", ""},
        {sketch + "--degree 0", "degree must be in 1..100"},
        {sketch + "--degree 101", "degree must be in 1..100"},
        // The top of the range: Random Maclaurin builds it; TensorSketch's stored products pass the
        // finite-output contract only to about degree 70 at d = 4, and say so by name above that.
        {"build --method maclaurin --kernel polynomial-sphere --input-dim 4 --features 8 --degree 100 -o out.kfm", ""},
        {sketch + "--degree 70", ""},
        {sketch + "--degree 100", "--degree 100 with --input-dim 4 and --scale 2 is too large (the largest degree "
                                  "within the bound there is 77)"},
        // The largest degree the refusal names is the one that builds.
        {"build --method tensor-srht --kernel polynomial-sphere --input-dim 4 --scale 3 --features 64 --degree 20 -o out.kfm", ""},
        {"build --method tensor-srht --kernel polynomial-sphere --input-dim 4 --scale 3 --features 64 --degree 21 -o out.kfm",
         "--degree 21 with --input-dim 4 and --scale 3 is too large (the largest degree within the bound there is 20)"},
        {"build --method ctr-srht --kernel polynomial-sphere --input-dim 4 --scale 3 --features 64 --degree 20 -o out.kfm", ""},
        {"build --method ctr-srht --kernel polynomial-sphere --input-dim 4 --scale 3 --features 64 --degree 40 -o out.kfm",
         "--degree 40 with --input-dim 4 and --scale 3 is too large (the largest degree within the bound there is 20)"},
        {"build --method srf --kernel polynomial-sphere --input-dim 4 --features 8 --degree 3 --scale 1e200 -o out.kfm",
         "srf: the surrogate fit failed for --scale 1e+200 with --degree 3 and --input-dim 4"},  // named the options
        {sketch + "--scale 2", ""},
        {sketch + "--scale 1.9999", "scale a must be finite and at least 2"},
        {rff + "--kernel gaussian --seed 0", ""},
        {rff + "--kernel gaussian --seed 18446744073709551615", ""},
        {rff + "--kernel gaussian --seed 18446744073709551616", "--seed value '18446744073709551616' is too large"},
        {rff + "--kernel gaussian --seed -1", "--seed expects a non-negative integer"},
    });
}

TEST_CASE("option ranges: method options at both ends of their documented ranges") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 10 --dim 4 -o x.npy").exit_code == 0);
    const std::string nys = "build --method nystroem --kernel gaussian --input-dim 4 --data x.npy -o out.kfm ";
    const std::string ssf = "build --method ssf --kernel gaussian --input-dim 4 --features 16 -o out.kfm ";
    const std::string gq = "build --method gq --kernel gaussian --input-dim 2 --features 8 -o out.kfm ";
    check_cases(s, {
        {nys + "--landmarks 1", ""},
        {nys + "--landmarks 10", ""},
        {nys + "--landmarks 0", "--landmarks must be at least 1"},
        {nys + "--landmarks 11", "--landmarks 11 is more than the 10 rows"},
        {ssf + "--radial-points 1", ""},
        {ssf + "--radial-points 0", "--radial-points must be at least 1, got 0"},  // was built as the default
        {ssf + "--fft-size 4", ""},  // the smallest power of two above d/2 = 2
        {ssf + "--fft-size 2", "FFT size 2 must exceed d/2 = 2"},
        {ssf + "--fft-size 6", "not a power of two"},
        {ssf + "--fft-size 1", "--fft-size must be at least 2"},
        {gq + "--gq-nodes 2", ""},
        {gq + "--gq-nodes 64", ""},
        {gq + "--gq-nodes 1", "--gq-nodes 1 is outside 2..64"},
        {gq + "--gq-nodes 65", "--gq-nodes 65 is outside 2..64"},
    });
}

TEST_CASE("option ranges: synth, eval and fit counts at both ends") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 10 --dim 4 -o x.npy --labels y.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 4 --features 8 -o m.kfm").exit_code == 0);
    const std::string fit = "fit m.kfm --x x.npy --y y.npy --task classification --quiet -o out.kfm ";
    check_cases(s, {
        {"synth --rows 1 --dim 1 -o out.npy", ""},
        {"synth --rows 0 --dim 1 -o out.npy", "--rows must be at least 1"},
        {"synth --rows 1 --dim 0 -o out.npy", "--dim must be at least 1"},
        {"synth --rows 65536 --dim 32769 -o out.npy", "--rows x --dim must be at most 2^31 values"},
        {"eval m.kfm --data x.npy --samples 1 --runs 1", ""},
        {"eval m.kfm --data x.npy --samples 10 --runs 1", ""},
        {"eval m.kfm --data x.npy --samples 0", "--samples must be at least 1"},
        {"eval m.kfm --data x.npy --samples 11", "--samples 11 exceeds the 10 rows"},
        {"eval m.kfm --data x.npy --runs 0", "--runs must be at least 1"},
        {fit + "--alpha 1,2 --cv 2", ""},
        {fit + "--alpha 1,2 --cv 10", ""},
        {fit + "--alpha 1,2 --cv 1", "--cv needs at least 2 folds"},
        {fit + "--alpha 1,2 --cv 11", "--cv 11 exceeds the 10 rows"},
        {fit + "--alpha 1e-300", ""},
        {fit + "--alpha 0", "--alpha values must be positive"},
    });
}
