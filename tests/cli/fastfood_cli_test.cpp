// `kfm build --method fastfood`: gaussian and Matérn maps are written (inspect names the method, the
// fastfood projection and its sections, format 1.2), eval measures them against the exact kernel, and the
// kernels fastfood does not build are refused with nothing written.
#include <cstdlib>

#include "cli/cli_harness.hpp"

using namespace kfm_cli_test;

TEST_CASE("cli: fastfood build, inspect and eval; laplacian and arccos refused") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 400 --dim 6 --seed 3 -o X.npy").exit_code == 0);
    for (const char* kernel : {"gaussian --sigma 2", "matern --nu 1.5 --sigma 2"}) {
        CAPTURE(kernel);
        REQUIRE(s.kfm(std::string("build --method fastfood --kernel ") + kernel +
                      " --input-dim 6 --features 256 --seed 4 -o f.kfm")
                    .exit_code == 0);
        const run_result i = s.kfm("inspect f.kfm");
        CAPTURE(i.out);
        CHECK(i.out.find("format 1.2") != std::string::npos);
        CHECK(i.out.find("method            fastfood") != std::string::npos);
        CHECK(i.out.find("projection        fastfood (work_dim 8, projection_dim 128)") != std::string::npos);
        for (const char* section : {"GDIA f32    count 128", "PERM u32    count 128", "SIGN bits   count 128",
                                    "SCAL f32    count 128"})
            CHECK(i.out.find(section) != std::string::npos);
        const double fro = eval_mean_frobenius(s.kfm("eval f.kfm --data X.npy --samples 200 --runs 3 --seed 2 --json"));
        CHECK(fro > 0.005);
        CHECK(fro < 0.15);
    }
    const std::string tail = " --input-dim 6 --features 32 -o no.kfm";
    check_error(s.kfm("build --method fastfood --kernel laplacian --sigma 2" + tail),
                "kernel 'laplacian' is not supported by fastfood (its spectral law, independent Cauchy coordinates, is "
                "not rotation-invariant");
    check_error(s.kfm("build --method fastfood --kernel arccos" + tail),
                "fastfood: kernel 'arccos' is not supported (gaussian, matern or rational-quadratic)");
    check_error(s.kfm("build --method fastfood --kernel gaussian --sigma 0" + tail), "sigma");
    CHECK(!fs::exists(s.dir / "no.kfm"));
}
