// `kfm build --kernel matern --nu NU | rational-quadratic --alpha A | laplacian` with --sigma as the
// length: the maps are written with their parameters (inspect), eval measures them against the exact
// kernel, and missing, foreign or bad parameters and unsupported methods are refused with nothing written.
#include <cstdlib>

#include "cli/cli_harness.hpp"

using namespace kfm_cli_test;

TEST_CASE("cli: matern, rational-quadratic and laplacian maps carry their parameters") {
    scratch s;
    REQUIRE(s.kfm("build --method orf --kernel matern --nu 2.5 --sigma 1.5 --input-dim 6 --features 32 -o m.kfm")
                .exit_code == 0);
    const run_result m = s.kfm("inspect m.kfm --json");
    CAPTURE(m.out);
    CHECK(m.out.find("\"kernel\": \"matern\"") != std::string::npos);
    CHECK(m.out.find("\"kernel_params\": {\"length\": 1.5, \"nu\": 2.5}") != std::string::npos);
    CHECK(s.kfm("inspect m.kfm").out.find("matern (length 1.5, nu 2.5)") != std::string::npos);

    REQUIRE(s.kfm("build --method sorf --kernel rational-quadratic --alpha 0.75 --sigma 2 --input-dim 6 --features 32 "
                  "-o r.kfm")
                .exit_code == 0);
    const run_result r = s.kfm("inspect r.kfm --json");
    CAPTURE(r.out);
    CHECK(r.out.find("\"kernel_params\": {\"length\": 2, \"alpha\": 0.75}") != std::string::npos);

    REQUIRE(s.kfm("build --method qmc --kernel laplacian --sigma 3 --input-dim 6 --features 32 -o l.kfm").exit_code == 0);
    const run_result l = s.kfm("inspect l.kfm --json");
    CAPTURE(l.out);
    CHECK(l.out.find("\"kernel\": \"laplacian\"") != std::string::npos);
    CHECK(l.out.find("\"kernel_params\": {\"sigma\": 3}") != std::string::npos);

    // eval measures the map against the exact kernel recorded in it: RFF error with 256 outputs is a few
    // percent (laplacian: sigma on the scale of the L1 distances, which are larger than the L2 ones).
    REQUIRE(s.kfm("synth --rows 400 --dim 6 --seed 3 -o X.npy").exit_code == 0);
    for (const char* kernel : {"matern --nu 0.5 --sigma 2", "rational-quadratic --alpha 0.75 --sigma 2", "laplacian --sigma 8"}) {
        CAPTURE(kernel);
        REQUIRE(s.kfm(std::string("build --method rff --kernel ") + kernel +
                      " --input-dim 6 --features 256 --seed 4 -o e.kfm")
                    .exit_code == 0);
        const double fro = eval_mean_frobenius(s.kfm("eval e.kfm --data X.npy --samples 200 --runs 3 --seed 2 --json"));
        CHECK(fro > 0.005);
        CHECK(fro < 0.15);
    }

    // ssf and quadrature: build, inspect (parameters kept) and eval of each new pair.
    for (const char* config : {"ssf --kernel matern --nu 1.5", "ssf --kernel matern --nu 2.5",
                               "ssf --kernel rational-quadratic --alpha 0.75", "quadrature --kernel matern --nu 1.5",
                               "quadrature --kernel matern --nu 2.5", "quadrature --kernel rational-quadratic --alpha 1.5"}) {
        CAPTURE(config);
        REQUIRE(s.kfm(std::string("build --method ") + config + " --sigma 2 --input-dim 6 --features 256 --seed 4 -o q.kfm")
                    .exit_code == 0);
        const run_result i = s.kfm("inspect q.kfm --json");
        CAPTURE(i.out);
        const std::string shape = std::string(config).find("matern") != std::string::npos
                                      ? std::string(config).substr(std::string(config).find("--nu ") + 5)
                                      : std::string(config).substr(std::string(config).find("--alpha ") + 8);
        const std::string name = std::string(config).find("matern") != std::string::npos ? "nu" : "alpha";
        CHECK(i.out.find("\"kernel_params\": {\"length\": 2, \"" + name + "\": " + shape + "}") != std::string::npos);
        const double fro = eval_mean_frobenius(s.kfm("eval q.kfm --data X.npy --samples 200 --runs 3 --seed 2 --json"));
        CHECK(fro > 0.001);  // a sampling error, not zero (stratified quadrature radii: 0.0039 at RQ 1.5)
        CHECK(fro < 0.15);
    }

    const std::string help = s.kfm("help build").out;
    CHECK(help.find("--nu NU") != std::string::npos);
    CHECK(help.find("--alpha A") != std::string::npos);
    CHECK(help.find("laplacian") != std::string::npos);
}

TEST_CASE("cli: missing, foreign and bad kernel parameters and unsupported methods are refused") {
    scratch s;
    const std::string tail = " --input-dim 6 --features 16 -o x.kfm";
    check_error(s.kfm("build --method rff --kernel matern" + tail), "kernel matern needs --nu");
    check_error(s.kfm("build --method rff --kernel rational-quadratic" + tail), "kernel rational-quadratic needs --alpha");
    check_error(s.kfm("build --method rff --kernel gaussian --nu 1.5" + tail),
                "option --nu does not apply to kernel gaussian (it belongs to matern)");
    check_error(s.kfm("build --method rff --kernel matern --nu 1.5 --alpha 2" + tail),
                "option --alpha does not apply to kernel matern (it belongs to rational-quadratic)");
    check_error(s.kfm("build --method rff --kernel arccos --sigma 2" + tail),
                "option --sigma does not apply to kernel arccos (it belongs to gaussian, matern, rational-quadratic, "
                "laplacian)");
    check_error(s.kfm("build --method rff --kernel matern --nu 0" + tail), "matern nu must be in (0, 100]");
    check_error(s.kfm("build --method rff --kernel matern --nu -1.5" + tail), "matern nu must be in (0, 100]");
    check_error(s.kfm("build --method rff --kernel matern --nu nan" + tail), "--nu");
    check_error(s.kfm("build --method orf --kernel rational-quadratic --alpha -2" + tail),
                "rational-quadratic alpha must be positive and finite");
    check_error(s.kfm("build --method qmc --kernel laplacian --sigma 0" + tail), "laplacian sigma must be positive");
    check_error(s.kfm("build --method orf --kernel laplacian" + tail),
                "kernel 'laplacian' is not supported by orf (its spectral law, independent Cauchy coordinates, is "
                "not rotation-invariant");
    check_error(s.kfm("build --method sorf --kernel laplacian" + tail), "build it with rff, rff-phase or qmc");
    check_error(s.kfm("build --method ssf --kernel laplacian" + tail),
                "kernel 'laplacian' is not supported by ssf (its spectral law, independent Cauchy coordinates, is "
                "not rotation-invariant");
    check_error(s.kfm("build --method quadrature --kernel laplacian" + tail), "build it with rff, rff-phase or qmc");
    check_error(s.kfm("build --method quadrature --kernel matern --nu 0.5" + tail),
                "quadrature: matern needs nu > 1 (the stochastic radial rule weights each radius by E||w||^2 / rho^2, "
                "and E||w||^2 is infinite for nu <= 1); build it with rff, rff-phase, orf, qmc, sorf, ssf or fastfood");
    check_error(s.kfm("build --method quadrature --kernel matern --nu 1" + tail), "matern needs nu > 1");
    check_error(s.kfm("build --method quadrature --kernel rational-quadratic --alpha 1" + tail),
                "quadrature: rational-quadratic needs alpha > 1 (the stochastic radial rule's weights E||w||^2 / rho^2 "
                "have infinite variance for alpha <= 1, since E||w||^-2 is infinite); build it with rff, rff-phase, "
                "orf, qmc, sorf, ssf or fastfood");
    check_error(s.kfm("build --method ssf --kernel matern --nu 0" + tail), "matern nu must be in (0, 100]");
    check_error(s.kfm("build --method quadrature --kernel matern --nu 1.5 --radial-rule antithetic" + tail),
                "quadrature: radial rule 'antithetic' is not auto, shifted or stratified");
    check_error(s.kfm("build --method quadrature --kernel matern --nu 1.5 --radial-rule stratified --resample-radii" + tail),
                "use --radial-rule shifted");
    check_error(s.kfm("build --method ssf --kernel matern --nu 1.5 --radial-rule latin" + tail),
                "unknown --radial-rule 'latin' (auto, midpoint, shifted, antithetic or stratified)");
    check_error(s.kfm("build --method gorf --kernel laplacian" + tail), "build it with rff, rff-phase or qmc");
    CHECK(!std::filesystem::exists(s.path("x.kfm")));
}
