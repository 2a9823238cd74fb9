// `kfm build --arccos-pairs`: reflected pairs by default for arccos, plain on request, refused for
// another kernel or an unknown form.
#include "cli/cli_harness.hpp"

using namespace kfm_cli_test;

TEST_CASE("cli: --arccos-pairs reflected is the default, plain is available, bad uses are refused") {
    scratch s;
    REQUIRE(s.kfm("build --method orf --kernel arccos --input-dim 6 --features 31 -o r.kfm").exit_code == 0);
    const run_result r = s.kfm("inspect r.kfm --json");
    CAPTURE(r.out);
    CHECK(r.out.find("\"reflect\": true") != std::string::npos);
    CHECK(r.out.find("\"output_dim\": 32") != std::string::npos);

    REQUIRE(s.kfm("build --method qmc --kernel arccos --arccos-pairs plain --input-dim 6 --features 31 -o p.kfm")
                .exit_code == 0);
    const run_result p = s.kfm("inspect p.kfm --json");
    CAPTURE(p.out);
    CHECK(p.out.find("\"reflect\": false") != std::string::npos);
    CHECK(p.out.find("\"output_dim\": 31") != std::string::npos);

    check_error(s.kfm("build --method rff --kernel gaussian --arccos-pairs plain --input-dim 6 --features 8 -o g.kfm"),
                "--arccos-pairs does not apply to kernel gaussian");
    check_error(s.kfm("build --method sorf --kernel arccos --arccos-pairs both --input-dim 6 --features 8 -o b.kfm"),
                "unknown --arccos-pairs 'both' (reflected or plain)");
    CHECK(!std::filesystem::exists(s.path("g.kfm")));
    CHECK(!std::filesystem::exists(s.path("b.kfm")));
    CHECK(s.kfm("help build").out.find("--arccos-pairs") != std::string::npos);
}
