// The CLI of quffka's GQ baseline (--method gq --gq-nodes) and of quadrature's --partial-rule: build,
// inspect (the nodes and the exact output dimension), eval, and the refusals with their reasons.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "cli/cli_harness.hpp"

using namespace kfm_cli_test;

TEST_CASE("cli: gq builds with its nodes, inspect reports them, eval measures it") {
    scratch s;
    REQUIRE(s.kfm("build --method gq --kernel gaussian --sigma 2 --input-dim 6 --features 256 --gq-nodes 3 "
                  "--seed 4 -o g.kfm").exit_code == 0);
    const run_result j = s.kfm("inspect g.kfm --json");
    CAPTURE(j.out);
    CHECK(j.out.find("\"method\": \"gq\", \"gq_nodes\": 3") != std::string::npos);
    CHECK(j.out.find("\"projection\": \"dense\"") != std::string::npos);
    CHECK(j.out.find("\"output_dim\": 256") != std::string::npos);
    const run_result t = s.kfm("inspect g.kfm");
    CHECK(t.out.find("gq (3 Gauss-Hermite nodes per coordinate)") != std::string::npos);
    REQUIRE(s.kfm("synth --rows 400 --dim 6 --seed 3 -o X.npy").exit_code == 0);
    const double fro = eval_mean_frobenius(s.kfm("eval g.kfm --data X.npy --samples 200 --runs 3 --seed 2 --json"));
    CHECK(fro > 0.005);
    CHECK(fro < 0.2);
}

TEST_CASE("cli: quadrature --partial-rule gives exactly D; gq and --partial-rule refusals") {
    scratch s;
    REQUIRE(s.kfm("build --method quadrature --kernel gaussian --input-dim 6 --features 20 --partial-rule -o p.kfm")
                .exit_code == 0);
    const run_result j = s.kfm("inspect p.kfm --json");
    CAPTURE(j.out);
    CHECK(j.out.find("\"projection_dim\": 10") != std::string::npos);
    CHECK((j.out.find("\"output_dim\": 20,") != std::string::npos || j.out.find("\"output_dim\": 21,") != std::string::npos));
    const run_result odd = s.kfm("build --method quadrature --kernel gaussian --input-dim 6 --features 21 --partial-rule -o o.kfm");
    CHECK(odd.exit_code != 0);
    CHECK(odd.err.find("even number of features") != std::string::npos);
    const run_result nodes = s.kfm("build --method gq --kernel gaussian --input-dim 6 --features 20 --gq-nodes 1 -o n.kfm");
    CHECK(nodes.exit_code != 0);
    CHECK(nodes.err.find("--gq-nodes 1") != std::string::npos);
    const run_result arccos = s.kfm("build --method gq --kernel arccos --input-dim 6 --features 20 -o a.kfm");
    CHECK(arccos.exit_code != 0);
    CHECK(arccos.err.find("gaussian only") != std::string::npos);
    CHECK(!fs::exists(s.path("n.kfm")));
    CHECK(!fs::exists(s.path("a.kfm")));
}
