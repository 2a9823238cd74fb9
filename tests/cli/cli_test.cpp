// The `kfm` command-line tool, run as a process (KFM_CLI_PATH) in a scratch directory: the documented
// commands end to end, their JSON fields, and every error path (one line on stderr, non-zero exit, no
// output file left behind).
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

// The number after "key": in a flat JSON text (the tests' JSON has unique key names).
double json_value(const std::string& json, const std::string& key) {
    const std::string needle = "\"" + key + "\": ";
    const auto at = json.find(needle);
    REQUIRE_MESSAGE(at != std::string::npos, "missing key " << key << " in " << json);
    return std::strtod(json.c_str() + at + needle.size(), nullptr);
}

bool has_string_field(const std::string& json, const std::string& key, const std::string& value) {
    return json.find("\"" + key + "\": \"" + value + "\"") != std::string::npos;
}

// A version 1.0 .npy file with an arbitrary descr and raw payload (for dtypes the writer does not make).
void write_raw_npy(const std::string& path, const std::string& descr, const std::string& shape,
                   const std::vector<std::uint8_t>& payload) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::ofstream out(path, std::ios::binary);
    const char prefix[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(prefix, 8);
    out.put(char(header.size() & 0xff));
    out.put(char(header.size() >> 8));
    out << header;
    out.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size()));
}

// Aligned copy of a .kfm file opened with the runtime, to check `kfm map` against kfm::transform.
struct opened_file {
    std::vector<std::uint64_t> storage;
    kfm::map view;
    explicit opened_file(const std::string& path) {
        const std::string bytes = slurp(path);
        storage.resize(bytes.size() / 8 + 1);
        std::memcpy(storage.data(), bytes.data(), bytes.size());
        REQUIRE(kfm::open(storage.data(), bytes.size(), &view) == kfm::status::ok);
    }
};

}  // namespace

TEST_CASE("cli: synth, build, inspect, map, eval and bench work end to end") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 800 --dim 12 --seed 3 -o X.npy").exit_code == 0);
    const auto x = kfm::offline::read_npy(s.path("X.npy"));
    REQUIRE(x.rows == 800);
    REQUIRE(x.cols == 12);

    const run_result built = s.kfm("build --method rff --kernel gaussian --input-dim 12 --features 256 --sigma 2.45 "
                                   "--seed 7 -o m.kfm");
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    CHECK(built.err.empty());

    const run_result inspected = s.kfm("inspect m.kfm --json");
    REQUIRE(inspected.exit_code == 0);
    const std::string& j = inspected.out;
    CAPTURE(j);
    CHECK(has_string_field(j, "method", "rff"));
    CHECK(has_string_field(j, "kernel", "gaussian"));
    CHECK(has_string_field(j, "projection", "dense"));
    CHECK(has_string_field(j, "output_convention", "paired-cos-sin"));
    CHECK(json_value(j, "sigma") == doctest::Approx(2.45));
    CHECK(json_value(j, "input_dim") == 12);
    CHECK(json_value(j, "output_dim") == 256);
    CHECK(json_value(j, "negative_dim") == 0);
    CHECK(json_value(j, "seed") == 7);
    CHECK(json_value(j, "file_bytes") == double(fs::file_size(s.path("m.kfm"))));
    CHECK(j.find("\"tag\": \"META\"") != std::string::npos);
    CHECK(j.find("\"tag\": \"DENS\"") != std::string::npos);
    CHECK(j.find("\"isa\": \"") != std::string::npos);
    const run_result text = s.kfm("inspect m.kfm");
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("output_dim        256") != std::string::npos);

    REQUIRE(s.kfm("map m.kfm --in X.npy --out F.npy").exit_code == 0);
    const auto f = kfm::offline::read_npy(s.path("F.npy"));
    REQUIRE(f.rows == 800);
    REQUIRE(f.cols == 256);
    // Every row equals kfm::transform of that row.
    opened_file map(s.path("m.kfm"));
    std::vector<unsigned char> ws(kfm::workspace_bytes(map.view));
    std::vector<float> phi(256);
    for (std::size_t i : {std::size_t(0), std::size_t(399), std::size_t(799)}) {
        REQUIRE(kfm::transform(map.view, x.row(i), 12, phi.data(), 256, ws.data(), ws.size()) == kfm::status::ok);
        for (std::size_t k = 0; k < 256; ++k) CHECK(f.row(i)[k] == doctest::Approx(phi[k]).epsilon(1e-5));
    }

    const run_result eval = s.kfm("eval m.kfm --data X.npy --samples 300 --runs 4 --seed 2 --json");
    REQUIRE_MESSAGE(eval.exit_code == 0, eval.err);
    CAPTURE(eval.out);
    CHECK(json_value(eval.out, "samples") == 300);
    CHECK(json_value(eval.out, "runs") == 4);
    const double fro = json_value(eval.out, "mean");  // the first "mean" is rel_frobenius's
    // RFF with D = 256 (128 frequencies): the relative Frobenius error is a few percent, never 0.
    CHECK(fro > 0.005);
    CHECK(fro < 0.15);
    CHECK(json_value(eval.out, "low") <= fro);
    CHECK(json_value(eval.out, "high") >= fro);
    const run_result eval_text = s.kfm("eval m.kfm --data X.npy --samples 100 --runs 2");
    CHECK(eval_text.exit_code == 0);
    CHECK(eval_text.out.find("relative Frobenius error") != std::string::npos);
    CHECK(eval_text.out.find("relative max error") != std::string::npos);

    const run_result bench = s.kfm("bench m.kfm --batch 8 --json");
    REQUIRE_MESSAGE(bench.exit_code == 0, bench.err);
    CAPTURE(bench.out);
    CHECK(bench.out.find("\"isa\": \"") != std::string::npos);
    CHECK(json_value(bench.out, "single_ns") > 0);
    CHECK(json_value(bench.out, "batch") == 8);
    CHECK(json_value(bench.out, "batch_ns_per_vector") > 0);
    const run_result scalar = s.kfm("bench m.kfm --isa scalar --json");
    CHECK(scalar.exit_code == 0);
    CHECK(has_string_field(scalar.out, "isa", "scalar"));
    CHECK(json_value(scalar.out, "batch") == 64);
}

TEST_CASE("cli: the same seed gives the same bytes, another seed other bytes") {
    scratch s;
    const std::string common = "build --method orf --kernel gaussian --input-dim 10 --features 40 --sigma 1.5 ";
    REQUIRE(s.kfm(common + "--seed 5 -o a.kfm").exit_code == 0);
    REQUIRE(s.kfm(common + "--seed 5 -o b.kfm").exit_code == 0);
    REQUIRE(s.kfm(common + "--seed 6 -o c.kfm").exit_code == 0);
    CHECK(slurp(s.path("a.kfm")) == slurp(s.path("b.kfm")));
    CHECK(slurp(s.path("a.kfm")) != slurp(s.path("c.kfm")));
    REQUIRE(s.kfm("synth --rows 50 --dim 4 --seed 9 -o x1.npy").exit_code == 0);
    REQUIRE(s.kfm("synth --rows 50 --dim 4 --seed 9 -o x2.npy").exit_code == 0);
    CHECK(slurp(s.path("x1.npy")) == slurp(s.path("x2.npy")));
}

TEST_CASE("cli: arccos and rff-phase maps report their convention; options are passed through") {
    scratch s;
    REQUIRE(s.kfm("build --method rff --kernel arccos --order 1 --input-dim 6 --features 30 -o a.kfm").exit_code == 0);
    const run_result a = s.kfm("inspect a.kfm --json");
    CHECK(has_string_field(a.out, "kernel", "arccos"));
    CHECK(json_value(a.out, "order") == 1);
    REQUIRE(s.kfm("build --method=rff-phase --kernel=gaussian --input-dim=6 --features=30 -o p.kfm").exit_code == 0);
    const run_result p = s.kfm("inspect p.kfm --json");
    CHECK(has_string_field(p.out, "method", "rff-phase"));
    CHECK(has_string_field(p.out, "output_convention", "cos-phase"));
    CHECK(json_value(p.out, "output_dim") == 30);
}

TEST_CASE("cli: 1-D, float64 and Fortran-independent inputs map like float32 rows") {
    scratch s;
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 3 --features 16 -o m.kfm").exit_code == 0);
    const std::vector<float> row = {0.5f, -0.25f, 0.125f};
    kfm::offline::write_npy_f32(s.path("x32.npy"), 1, 3, row.data());
    std::vector<std::uint8_t> f8(3 * 8);
    for (std::size_t i = 0; i < 3; ++i) {
        const double v = row[i];
        std::memcpy(f8.data() + 8 * i, &v, 8);
    }
    write_raw_npy(s.path("x64.npy"), "<f8", "(1, 3)", f8);
    write_raw_npy(s.path("x1d.npy"), "<f8", "(3,)", f8);
    REQUIRE(s.kfm("map m.kfm --in x32.npy --out f32.npy").exit_code == 0);
    REQUIRE(s.kfm("map m.kfm --in x64.npy --out f64.npy").exit_code == 0);
    REQUIRE(s.kfm("map m.kfm --in x1d.npy --out f1d.npy").exit_code == 0);
    CHECK(slurp(s.path("f32.npy")) == slurp(s.path("f64.npy")));
    CHECK(slurp(s.path("f32.npy")) == slurp(s.path("f1d.npy")));
}

TEST_CASE("cli: map gives the same bytes on 1, 4 and every thread") {
    scratch s;
    // 1000 rows: 15 full 64-row blocks and a partial one, so threads split the work unevenly.
    REQUIRE(s.kfm("synth --rows 1000 --dim 20 --seed 5 -o X.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method ssf --kernel gaussian --input-dim 20 --features 320 --seed 2 -o m.kfm").exit_code == 0);
    const run_result one = s.kfm("map m.kfm --in X.npy --out F1.npy --threads 1");
    REQUIRE_MESSAGE(one.exit_code == 0, one.err);
    REQUIRE(s.kfm("map m.kfm --in X.npy --out F4.npy --threads 4").exit_code == 0);
    REQUIRE(s.kfm("map m.kfm --in X.npy --out Fall.npy").exit_code == 0);
    const std::string bytes = slurp(s.path("F1.npy"));
    CHECK(kfm::offline::read_npy(s.path("F1.npy")).rows == 1000);
    CHECK(bytes == slurp(s.path("F4.npy")));
    CHECK(bytes == slurp(s.path("Fall.npy")));
}

// SSF layout: by default one FFT block holds every direction (FREQ has n = 64 bits at d = 16, D = 256),
// `--fft-size smallest` stacks blocks of the smallest length (n = 16); 1 is no FFT length.
TEST_CASE("cli: ssf --fft-size smallest stacks blocks, the default is one block") {
    scratch s;
    const std::string build = "build --method ssf --kernel arccos --input-dim 16 --features 256 ";
    REQUIRE(s.kfm(build + "-o one.kfm").exit_code == 0);
    REQUIRE(s.kfm(build + "--fft-size smallest -o stacked.kfm").exit_code == 0);
    const std::string one = s.kfm("inspect one.kfm --json").out, stacked = s.kfm("inspect stacked.kfm --json").out;
    CAPTURE(one);
    CAPTURE(stacked);
    CHECK(one.find(R"("tag": "FREQ", "dtype": "bits", "count": 64,)") != std::string::npos);
    CHECK(stacked.find(R"("tag": "FREQ", "dtype": "bits", "count": 16,)") != std::string::npos);
    CHECK(stacked.find(R"("tag": "SIGN", "dtype": "bits", "count": 128,)") != std::string::npos);  // 4 blocks of 2n
    check_error(s.kfm(build + "--fft-size 1 -o bad.kfm"), "--fft-size must be at least 2");
    CHECK(!std::filesystem::exists(s.path("bad.kfm")));
}

TEST_CASE("cli: --version prints the library's version") {
    scratch s;
    const run_result version = s.kfm("--version");
    CHECK(version.exit_code == 0);
    CHECK(version.out == std::string("kfm ") + kfm::version() + "\n");
    CHECK(s.kfm("help").out.find("kfm --version") != std::string::npos);
    check_error(s.kfm("--version extra"), "'kfm --version' takes no arguments");
}

TEST_CASE("cli: help") {
    scratch s;
    const run_result all = s.kfm("help");
    CHECK(all.exit_code == 0);
    CHECK(all.out.find("inspect") != std::string::npos);
    const run_result build = s.kfm("help build");
    CHECK(build.exit_code == 0);
    CHECK(build.out.find("--features D") != std::string::npos);
    CHECK(s.kfm("map --help").out.find("--in X.npy --out F.npy") != std::string::npos);
    check_error(s.kfm("help nothing"), "unknown command 'nothing'");
    // bench's --isa help and its unknown-ISA error list every ISA of the runtime's registry
    const std::string bench_help = s.kfm("help bench").out;
    const run_result bad_isa = s.kfm("bench m.kfm --isa sse9");
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        CAPTURE(kfm::isa_name(kfm::isa_at(k)));
        CHECK(bench_help.find(kfm::isa_name(kfm::isa_at(k))) != std::string::npos);
        CHECK(bad_isa.err.find(kfm::isa_name(kfm::isa_at(k))) != std::string::npos);
    }
    check_error(bad_isa, "unknown ISA 'sse9'");
}

TEST_CASE("cli: every error is one line on stderr, a non-zero exit and no output file") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 40 --dim 5 -o X.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 5 --features 20 -o m.kfm").exit_code == 0);
    const std::string good = slurp(s.path("m.kfm"));

    // Damaged map files.
    std::string flipped = good;
    flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x10);
    std::ofstream(s.path("flipped.kfm"), std::ios::binary) << flipped;
    std::ofstream(s.path("short.kfm"), std::ios::binary) << good.substr(0, good.size() - 1);
    std::ofstream(s.path("empty.kfm"), std::ios::binary) << "";
    std::ofstream(s.path("text.kfm"), std::ios::binary) << "hello, this is not a map\n";

    // Bad data files.
    REQUIRE(s.kfm("synth --rows 10 --dim 4 -o X4.npy").exit_code == 0);
    std::vector<float> nan_rows(2 * 5, 0.5f);
    nan_rows[7] = std::numeric_limits<float>::quiet_NaN();
    kfm::offline::write_npy_f32(s.path("nan.npy"), 2, 5, nan_rows.data());
    std::vector<float> inf_rows(5, 0.5f);
    inf_rows[0] = std::numeric_limits<float>::infinity();
    kfm::offline::write_npy_f32(s.path("inf.npy"), 1, 5, inf_rows.data());
    write_raw_npy(s.path("complex.npy"), "<c8", "(2, 5)", std::vector<std::uint8_t>(80));
    write_raw_npy(s.path("half.npy"), "<f2", "(2, 5)", std::vector<std::uint8_t>(20));
    write_raw_npy(s.path("cube.npy"), "<f4", "(2, 5, 1)", std::vector<std::uint8_t>(40));
    write_raw_npy(s.path("trunc.npy"), "<f4", "(2, 5)", std::vector<std::uint8_t>(39));

    const std::string build = "build --method rff --kernel gaussian --input-dim 5 --features 20 -o out.kfm";
    struct error_case {
        std::string args;
        std::string fragment;
    };
    const std::vector<error_case> cases = {
        {"", "no command"},
        {"frobnicate", "unknown command"},
        {"build --method rff --kernel gaussian --input-dim 5 --features 20", "needs -o"},
        {"build --kernel gaussian --input-dim 5 --features 20 -o out.kfm", "needs --method"},
        {"build --method rff --input-dim 5 --features 20 -o out.kfm", "needs --kernel"},
        {"build --method rff --kernel gaussian --features 20 -o out.kfm", "needs --input-dim"},
        {"build --method rff --kernel gaussian --input-dim 5 -o out.kfm", "needs --features"},
        {build + " --bogus 1", "unknown option '--bogus'"},
        {build + " --seed", "--seed needs a value"},
        {build + " --seed 1 --seed 2", "more than once"},
        {build + " extra", "unexpected argument 'extra'"},
        {"build --method nope --kernel gaussian --input-dim 5 --features 20 -o out.kfm", "unknown method 'nope'"},
        {"build --method rff --kernel nope --input-dim 5 --features 20 -o out.kfm", "unknown kernel 'nope'"},
        {build + " --sigma -1", "sigma"},
        {build + " --sigma 0", "sigma"},
        {build + " --sigma nan", "--sigma"},
        {build + " --sigma 1e999", "--sigma"},
        {build + " --sigma 2x", "--sigma expects a number"},
        {build + " --sigma 0x10", "--sigma expects a decimal number, got '0x10'"},
        {"build --method rff --kernel delta-gaussian --weights 1,-0X1p0 --sigmas 1,2 --input-dim 5 --features 20 -o out.kfm",
         "expects a decimal number"},
        {build + " --order 1", "does not apply to kernel gaussian"},
        // A method option given to a method that does not read it is refused, not built as if absent.
        {build + " --fft-size 8", "option --fft-size does not apply to method rff (it belongs to ssf)"},
        {build + " --progress", "option --progress does not apply to method rff (it belongs to ssf)"},
        {"build --method ssf --kernel gaussian --input-dim 5 --features 20 -o out.kfm --directions hadamard",
         "option --directions does not apply to method ssf (it belongs to srf, gorf, grff)"},
        {"build --method quadrature --kernel arccos --input-dim 5 --features 20 -o out.kfm --arccos-pairs plain",
         "option --arccos-pairs does not apply to method quadrature (it belongs to rff, orf, sorf, qmc)"},
        {"build --method rff --kernel gaussian --input-dim 0 --features 20 -o out.kfm", "--input-dim"},
        {"build --method rff --kernel gaussian --input-dim 5 --features 0 -o out.kfm", "--features"},
        {"build --method rff --kernel gaussian --input-dim -5 --features 20 -o out.kfm", "--input-dim"},
        {"build --method rff --kernel gaussian --input-dim 5 --features 99999999999 -o out.kfm", "--features"},
        {"build --method rff --kernel arccos --order 3 --input-dim 5 --features 20 -o out.kfm", "order"},
        {"build --method rff --kernel delta-gaussian --weights 1,-1 --input-dim 5 --features 20 -o out.kfm",
         "--weights and --sigmas"},
        {"build --method rff --kernel gaussian --input-dim 5 --features 20 -o missing_dir/out.kfm", "missing_dir"},
        {"inspect", "needs a FILE"},
        {"inspect absent.kfm", "absent.kfm: no such file"},
        {"inspect flipped.kfm", "flipped.kfm: "},
        {"inspect short.kfm", "short.kfm: "},
        {"inspect empty.kfm", "empty.kfm: "},
        {"inspect text.kfm", "text.kfm: "},
        {"inspect X.npy", "X.npy: "},
        {"map flipped.kfm --in X.npy --out out.npy", "flipped.kfm: "},
        {"map m.kfm --in X.npy", "needs --out"},
        {"map m.kfm --out out.npy", "needs --in"},
        {"map m.kfm --in absent.npy --out out.npy", "absent.npy: no such file"},
        {"map m.kfm --in X4.npy --out out.npy", "input_dim is 5"},
        {"map m.kfm --in nan.npy --out out.npy", "row 1, column 2 is NaN"},
        {"map m.kfm --in inf.npy --out out.npy", "row 0, column 0 is infinite"},
        {"map m.kfm --in complex.npy --out out.npy", "unsupported dtype '<c8'"},
        {"map m.kfm --in half.npy --out out.npy", "unsupported dtype '<f2'"},
        {"map m.kfm --in cube.npy --out out.npy", "1-D or 2-D"},
        {"map m.kfm --in trunc.npy --out out.npy", "truncated"},
        {"map m.kfm --in m.kfm --out out.npy", "not a .npy file"},
        {"map m.kfm --in X.npy --out missing_dir/out.npy", "missing_dir"},
        {"map m.kfm --in X.npy --out out.npy --threads 0", "--threads must be at least 1"},
        {"map m.kfm --in X.npy --out out.npy --threads 5000", "--threads must be at most 1024"},
        {"eval m.kfm", "needs --data"},
        {"eval m.kfm --data X4.npy", "input_dim is 5"},
        {"eval m.kfm --data nan.npy", "is NaN"},
        {"eval m.kfm --data X.npy --samples 41", "exceeds the 40 rows"},
        {"eval m.kfm --data X.npy --runs 0", "--runs must be at least 1"},
        {"eval short.kfm --data X.npy", "short.kfm: "},
        {"bench m.kfm --isa sparc", "unknown ISA 'sparc'"},
        {"bench m.kfm --batch 0", "--batch"},
        {"bench text.kfm", "text.kfm: "},
        {"synth --rows 10 -o out.npy", "needs --dim"},
        {"synth --rows 0 --dim 3 -o out.npy", "--rows"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.args);
        check_error(s.kfm(c.args), c.fragment);
        CHECK(!fs::exists(s.path("out.kfm")));
        CHECK(!fs::exists(s.path("out.npy")));
    }
    // Nothing but the files made above (no temporaries left by failed writes).
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(s.dir)) ++files;
    CHECK(files == 13);

    // An ISA this build or CPU lacks is an error, never a silent fallback.
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        const kfm::isa i = kfm::isa_at(k);
        if (!kfm::isa_available(i)) check_error(s.kfm(std::string("bench m.kfm --isa ") + kfm::isa_name(i)), "not available");
    }
}

// Every byte position changed once (by a random nonzero XOR) through inspect, then 100 random edits of 2
// to 4 bytes through inspect and map (which opens the file the same way): each must be an error naming
// the file, with no output written. Deterministic (fixed xorshift seed); about 800 runs of the tool.
TEST_CASE("cli: corruptions of a map file at every byte, and random multi-byte ones, are errors") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 4 --dim 3 -o X.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method orf --kernel arccos --order 2 --input-dim 3 --features 12 -o m.kfm").exit_code == 0);
    const std::string good = slurp(s.path("m.kfm"));
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    const auto next = [&] {  // xorshift: only needs to spread the edits over the file
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    const auto check_refused = [&](const std::string& bad, bool also_map) {
        std::ofstream(s.path("bad.kfm"), std::ios::binary | std::ios::trunc) << bad;
        check_error(s.kfm("inspect bad.kfm"), "bad.kfm: ");
        if (!also_map) return;
        check_error(s.kfm("map bad.kfm --in X.npy --out out.npy"), "bad.kfm: ");
        CHECK(!fs::exists(s.path("out.npy")));
    };
    for (std::size_t position = 0; position < good.size(); ++position) {
        std::string bad = good;
        bad[position] = char(bad[position] ^ char(1 + next() % 255));
        CAPTURE(position);
        check_refused(bad, false);
    }
    for (int iter = 0; iter < 100; ++iter) {
        std::string bad = good;
        for (int k = 0; k < 2 + int(next() % 3); ++k) bad[next() % bad.size()] = char(next());
        if (bad == good) continue;
        CAPTURE(iter);
        check_refused(bad, true);
    }
}
