// docs/reliability.md, run as the user would: the builders never write a file kfm::open refuses and
// refuse impossible sizes at once ("Limits"), and the output and input path rules ("Output files").
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

using namespace kfm_cli_test;

namespace {

// Seconds one run takes (the refusals must come before any large allocation).
template <class F>
double seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t entries(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

unsigned mode_of(const std::string& path) {
    struct stat st;
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("limits: every method refuses dimensions above format::max_dim at once and writes nothing") {
    scratch s;
    static_assert(kfm::format::max_dim == (1u << 24));
    const std::vector<std::string> methods = {
        "rff --kernel gaussian", "orf --kernel gaussian", "sorf --kernel gaussian", "qmc --kernel gaussian",
        "quadrature --kernel gaussian", "ssf --kernel gaussian",
        "maclaurin --kernel polynomial-sphere --degree 2 --scale 3",
        "srf --kernel polynomial-sphere --degree 2 --scale 3",
        "gorf --kernel delta-gaussian --weights 1,-0.5 --sigmas 1,2"};
    for (const auto& m : methods)
        for (const char* features : {"16777218", "33554432"}) {
            CAPTURE(m);
            CAPTURE(features);
            run_result r;
            const double t = seconds([&] {
                r = s.kfm("build --method " + m + " --input-dim 2 --features " + features + " -o big.kfm");
            });
            check_error(r, std::string("--features ") + features + " is above the limit of 16777216");
            CHECK(t < 1.0);
            CHECK(!fs::exists(s.path("big.kfm")));
        }
    // An input dimension of 2^31 - 1 once ran past 60 s at 790 MB.
    for (const char* method : {"sorf", "rff", "quadrature", "ssf"}) {
        CAPTURE(method);
        run_result r;
        const double t = seconds([&] {
            r = s.kfm(std::string("build --method ") + method +
                      " --kernel gaussian --input-dim 2147483647 --features 16 -o big.kfm");
        });
        check_error(r, "--input-dim 2147483647 is above the limit of 16777216");
        CHECK(t < 1.0);
    }
    // A method that rounds D up is refused from the rounding, before it builds.
    run_result r;
    const double t = seconds([&] {
        r = s.kfm("build --method quadrature --kernel gaussian --input-dim 16777215 --features 16 -o big.kfm");
    });
    check_error(r, "quadrature at least 33554432 outputs, which is above the limit");
    CHECK(t < 1.0);
    check_error(s.kfm("build --method ssf --kernel gaussian --radial-points 4000000000 --input-dim 3 --features 16 "
                      "-o big.kfm"),
                "above the limit");
    // ... and, where only the built map shows it, after the build but before anything is written.
    check_error(s.kfm("build --method quadrature --kernel gaussian --input-dim 1 --features 16777216 -o big.kfm"),
                "makes the quadrature map's output_dim 16777217, which is above the limit");
    CHECK(entries(s.dir) == 0);

    // The limit is the runtime's own: a map at exactly 2^24 outputs is written and opens.
    REQUIRE(s.kfm("build --method ssf --kernel gaussian --input-dim 1 --features 16777216 -o max.kfm").exit_code == 0);
    const run_result inspected = s.kfm("inspect max.kfm");
    CHECK(inspected.exit_code == 0);
    CHECK(inspected.out.find("output_dim        16777216") != std::string::npos);
}

TEST_CASE("limits: a bandwidth that overflows the stored values is refused by name; a subnormal parses") {
    scratch s;
    const std::string build = "build --method rff --kernel gaussian --input-dim 3 --features 16 -o m.kfm --sigma ";
    check_error(s.kfm(build + "1e-300"), "--sigma 1e-300 is too small: the map's DENS section");
    // A subnormal is a finite number: it reaches the builder, which names the real problem.
    const run_result subnormal = s.kfm(build + "1e-320");
    check_error(subnormal, "--sigma 1e-320 is too small");
    CHECK(subnormal.err.find("not a finite number") == std::string::npos);
    check_error(s.kfm(build + "1e-400"), "--sigma 1e-400 is too small: it is below the smallest double");
    check_error(s.kfm(build + "1e999"), "is not a finite number");
    check_error(s.kfm("build --method gorf --kernel delta-gaussian --weights 1,-0.5 --sigmas 1,1e-310 --input-dim 3 "
                      "--features 16 -o m.kfm"),
                "--sigmas: a bandwidth is too small");
    // Values beyond the float sections: a segment's scale (sorf's sqrt(d2) / sigma) and the sqrt(q) the
    // TensorSRHT-type maps append to the input (q = a^2/2 - 1 overflows double for a of 1e200).
    check_error(s.kfm("build --method sorf --kernel gaussian --input-dim 3 --features 16 -o m.kfm --sigma 1e-300"),
                "--sigma 1e-300 is too small: the map's SEGS section would hold values that are not finite");
    for (const char* method : {"tensor-srht", "ctr-srht", "tensorsketch"})
        check_error(s.kfm(std::string("build --method ") + method +
                          " --kernel polynomial-sphere --degree 2 --scale 1e200 --input-dim 3 --features 16 -o m.kfm"),
                    "--scale 1e+200 is out of range: the value the map appends to its input (META input_append) would not be finite");
    // nystroem stores sigma itself; the runtime's -1/(2 sigma^2) in float is what overflows.
    REQUIRE(s.kfm("synth --rows 20 --dim 3 -o x.npy").exit_code == 0);
    check_error(s.kfm("build --method nystroem --kernel gaussian --input-dim 3 --data x.npy --landmarks 8 -o m.kfm --sigma 1e-30"),
                "--sigma 1e-30 is too small: the kernel's parameters in the runtime's float arithmetic would not be finite");
    // Smaller still, the builder's own double k(x, x) is 0 / 0 (it was reported as a failed eigensolver).
    check_error(s.kfm("build --method nystroem --kernel rational-quadratic --alpha 2 --input-dim 3 --data x.npy --landmarks 8 "
                      "-o m.kfm --sigma 1e-300"),
                "nystroem: --sigma 1e-300 with --alpha 2 is too small: the kernel between the landmarks is not finite");
    check_error(s.kfm("build --method nystroem --kernel gaussian --input-dim 3 --data x.npy --landmarks 8 -o m.kfm --sigma 1e-160"),
                "nystroem: --sigma 1e-160 is too small: the kernel between the landmarks is not finite");
    fs::remove(s.path("x.npy"));
    CHECK(entries(s.dir) == 0);
    REQUIRE(s.kfm(build + "1e-30").exit_code == 0);  // small but representable: written, and it opens
    CHECK(s.kfm("inspect m.kfm").exit_code == 0);
}

TEST_CASE("limits: write_map_file runs kfm::open on the bytes and writes nothing it refuses") {
    scratch s;
    kfm::offline::build_options o;
    o.method = kfm::format::method::rff;
    o.input_dim = 3;
    o.features = 8;
    const kfm::offline::map_contents good = kfm::offline::build_map(o);
    kfm::offline::write_map_file(s.path("good.kfm"), good);
    CHECK(s.kfm("inspect good.kfm").exit_code == 0);

    kfm::offline::map_contents too_wide = good;  // a dimension open refuses
    too_wide.meta.output_dim = kfm::format::max_dim + 1;
    kfm::offline::map_contents infinite = good;  // a value open refuses
    for (auto& sec : infinite.sections)
        if (sec.tag == kfm::format::tag::dense) {
            const float inf = std::numeric_limits<float>::infinity();
            std::memcpy(sec.bytes.data(), &inf, sizeof inf);
        }
    for (const auto* bad : {&too_wide, &infinite}) {
        try {
            kfm::offline::write_map_file(s.path("bad.kfm"), *bad);
            FAIL("write_map_file wrote a map kfm::open refuses");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find("kfm::open would refuse it") != std::string::npos);
        }
        CHECK(!fs::exists(s.path("bad.kfm")));
    }
    CHECK(entries(s.dir) == 1);
}

TEST_CASE("output files: a directory, FIFO or device at the output path is refused and left as it was") {
    scratch s;
    fs::create_directory(s.path("dir.npy"));
    REQUIRE(::mkfifo(s.path("fifo.npy").c_str(), 0644) == 0);
    const bool root = ::geteuid() == 0;  // mknod needs root; the CI and the container run as root
    if (root) REQUIRE(::mknod(s.path("null.npy").c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0);
    check_error(s.kfm("synth --rows 3 --dim 2 -o dir.npy"), "dir.npy: is a directory; kfm writes only regular files");
    check_error(s.kfm("synth --rows 3 --dim 2 -o fifo.npy"), "fifo.npy: is a FIFO");
    CHECK(fs::is_directory(s.path("dir.npy")));
    CHECK(fs::is_fifo(s.path("fifo.npy")));
    if (root) {
        check_error(s.kfm("synth --rows 3 --dim 2 -o null.npy"), "null.npy: is a character device");
        CHECK(fs::is_character_file(s.path("null.npy")));
        // Through a symbolic link too: the rule applies to what the link names.
        fs::create_symlink("null.npy", s.path("link.npy"));
        check_error(s.kfm("synth --rows 3 --dim 2 -o link.npy"), "link.npy: is a character device");
        CHECK(fs::is_character_file(s.path("null.npy")));
    }
    CHECK(entries(s.dir) == (root ? 4u : 2u));  // no temporary file left
}

TEST_CASE("output files: a symbolic link is followed; its target is replaced in the target's directory") {
    scratch s;
    fs::create_directory(s.path("real"));
    std::ofstream(s.path("real/x.npy")) << "old";
    fs::create_symlink("real/x.npy", s.path("link.npy"));
    REQUIRE(s.kfm("synth --rows 3 --dim 2 -o link.npy").exit_code == 0);
    CHECK(fs::is_symlink(s.path("link.npy")));
    CHECK(fs::read_symlink(s.path("link.npy")) == "real/x.npy");
    CHECK(slurp(s.path("real/x.npy")).rfind("\x93NUMPY", 0) == 0);
    // A chain of links, and a link whose target does not exist yet (it is created).
    fs::create_symlink("link.npy", s.path("chain.npy"));
    fs::create_symlink("real/new.npy", s.path("dangling.npy"));
    REQUIRE(s.kfm("synth --rows 4 --dim 2 -o chain.npy").exit_code == 0);
    REQUIRE(s.kfm("synth --rows 4 --dim 2 -o dangling.npy").exit_code == 0);
    CHECK(fs::is_symlink(s.path("chain.npy")));
    CHECK(fs::is_symlink(s.path("link.npy")));
    CHECK(fs::is_symlink(s.path("dangling.npy")));
    CHECK(slurp(s.path("real/new.npy")) == slurp(s.path("real/x.npy")));
    CHECK(entries(s.dir) == 4);
    CHECK(entries(s.path("real")) == 2);
}

TEST_CASE("output files: an existing file keeps its mode; a new file gets 0666 & ~umask") {
    scratch s;
    for (const unsigned mode : {0600u, 0640u, 0444u}) {
        CAPTURE(mode);
        std::ofstream(s.path("kept.npy")) << "old";
        fs::permissions(s.path("kept.npy"), fs::perms(mode));
        REQUIRE(s.kfm("synth --rows 3 --dim 2 -o kept.npy").exit_code == 0);
        CHECK(mode_of(s.path("kept.npy")) == mode);
        fs::remove(s.path("kept.npy"));
    }
    const struct {
        const char* umask;
        unsigned mode;
    } cases[] = {{"077", 0600}, {"022", 0644}, {"002", 0664}, {"027", 0640}};
    for (const auto& c : cases) {
        CAPTURE(c.umask);
        REQUIRE(s.kfm("synth --rows 3 --dim 2 -o new.npy", std::string("umask ") + c.umask).exit_code == 0);
        CHECK(mode_of(s.path("new.npy")) == c.mode);
        REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 2 --features 4 -o new.kfm",
                      std::string("umask ") + c.umask)
                    .exit_code == 0);
        CHECK(mode_of(s.path("new.kfm")) == c.mode);
        fs::remove(s.path("new.npy"));
        fs::remove(s.path("new.kfm"));
    }
}

TEST_CASE("output files: a file size limit (SIGXFSZ) is an error, and no temporary file is left") {
    scratch s;
    // ulimit -f 1: at most 1 KiB (bash) or 512 bytes (POSIX sh) per file; the outputs are 40 KB.
    check_error(s.kfm("synth --rows 1000 --dim 10 -o big.npy", "ulimit -f 1"), "big.npy': File too large");
    check_error(s.kfm("build --method rff --kernel gaussian --input-dim 10 --features 1000 -o big.kfm", "ulimit -f 1"),
                "big.kfm': File too large");
    CHECK(entries(s.dir) == 0);
    // An existing file is left as it was.
    std::ofstream(s.path("big.npy")) << "old";
    check_error(s.kfm("synth --rows 1000 --dim 10 -o big.npy", "ulimit -f 1"), "File too large");
    CHECK(slurp(s.path("big.npy")) == "old");
    CHECK(entries(s.dir) == 1);
}

TEST_CASE("output files: --out is never one of the command's inputs (same device and inode)") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 5 --dim 3 -o X.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 3 --features 8 -o m.kfm").exit_code == 0);
    const std::string map = slurp(s.path("m.kfm")), x = slurp(s.path("X.npy"));
    fs::create_symlink("m.kfm", s.path("alias.kfm"));
    fs::create_hard_link(s.path("X.npy"), s.path("hard.npy"));
    fs::create_directory(s.path("sub"));
    for (const char* out : {"m.kfm", "./m.kfm", "alias.kfm", "sub/../m.kfm"}) {
        CAPTURE(out);
        check_error(s.kfm(std::string("map m.kfm --in X.npy --out ") + out), "is the same file as FILE m.kfm");
    }
    for (const char* out : {"X.npy", "./X.npy", "hard.npy"}) {
        CAPTURE(out);
        check_error(s.kfm(std::string("map m.kfm --in X.npy --out ") + out), "is the same file as --in X.npy");
    }
    check_error(s.kfm("map alias.kfm --in hard.npy --out m.kfm"), "is the same file as FILE alias.kfm");
    CHECK(slurp(s.path("m.kfm")) == map);
    CHECK(slurp(s.path("X.npy")) == x);
    REQUIRE(s.kfm("map m.kfm --in X.npy --out F.npy").exit_code == 0);  // another file is fine
}

TEST_CASE("input files: a directory, device or FIFO is refused by name, never read") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 5 --dim 3 -o X.npy").exit_code == 0);
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 3 --features 8 -o m.kfm").exit_code == 0);
    fs::create_directory(s.path("d"));
    REQUIRE(::mkfifo(s.path("fifo").c_str(), 0644) == 0);
    // The limits keep a regression from reading /dev/zero into all memory or waiting on the FIFO forever.
    const std::string memory_limit = "ulimit -v 4000000", time_limit = "timeout 10";
    const struct {
        std::string args, fragment;
    } cases[] = {
        {"map m.kfm --in d --out F.npy", "d: is a directory"},
        {"map m.kfm --in /dev/zero --out F.npy", "/dev/zero: is a character device"},
        {"map m.kfm --in fifo --out F.npy", "fifo: is a FIFO"},
        {"map d --in X.npy --out F.npy", "d: is a directory"},
        {"map /dev/zero --in X.npy --out F.npy", "/dev/zero: is a character device"},
        {"map fifo --in X.npy --out F.npy", "fifo: is a FIFO"},
        {"inspect d", "d: is a directory"},
        {"inspect /dev/zero", "/dev/zero: is a character device"},
        {"eval m.kfm --data d", "d: is a directory"},
        {"eval m.kfm --data /dev/zero", "/dev/zero: is a character device"},
        {"eval m.kfm --data fifo", "fifo: is a FIFO"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.args);
        run_result r;
        const double t = seconds([&] { r = s.kfm(c.args, memory_limit, time_limit); });
        check_error(r, c.fragment);
        CHECK(t < 1.0);
        CHECK(!fs::exists(s.path("F.npy")));
    }
}
