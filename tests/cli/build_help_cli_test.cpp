// `kfm help build` is generated from the offline option table and the method registry: every option and
// every method (with its summary and kernels) is listed, and kfm build accepts exactly the table's options.
#include "cli/cli_harness.hpp"
#include "kfm/build_registry.hpp"

using namespace kfm_cli_test;
namespace off = kfm::offline;

TEST_CASE("cli: kfm help build lists every option of the table and every method of the registry") {
    scratch s;
    const std::string help = s.kfm("help build").out;
    CAPTURE(help);
    for (const off::option_row& r : off::option_table()) {
        const std::string flag = off::option_text(r.id, off::spelling::command_line);
        CAPTURE(flag);
        CHECK(help.find("\n  " + flag + " ") != std::string::npos);  // at the start of its own line
        for (const char* choice : r.choices) CHECK(help.find(choice) != std::string::npos);
    }
    for (const off::method_row& m : off::method_table()) {
        const std::string name = off::method_name(m.id);
        CAPTURE(name);
        CHECK(help.find("\n  " + name + " ") != std::string::npos);
        CHECK(help.find(m.summary) != std::string::npos);
    }
    CHECK(help.find("kernels: gaussian, arccos, matern, rational-quadratic, laplacian") != std::string::npos);  // rff
    CHECK(help.find("options: --gq-nodes") != std::string::npos);                                          // gq
}

TEST_CASE("cli: kfm build accepts the table's options and names a refused value's choices") {
    scratch s;
    const std::string tail = " --input-dim 6 --features 12 -o m.kfm";
    CHECK(s.kfm("build --method gq --kernel gaussian --gq-nodes 3" + tail).exit_code == 0);
    check_error(s.kfm("build --method gorf --kernel polynomial-sphere --directions circulant" + tail),
                "unknown --directions 'circulant' (dense, butterfly or hadamard)");
    check_error(s.kfm("build --method gorf --kernel polynomial-sphere --spectral nonsense" + tail),
                "unknown --spectral 'nonsense' (signed-mixture or bessel-1d)");
    check_error(s.kfm("build --method rff --kernel gaussian --colour red" + tail),
                "unknown option '--colour' for 'kfm build'");
}
