// docs/reliability.md, "Output files": no output is an input or another output of the same command (by
// device and inode), a command's outputs appear all or none, a signal leaves no temporary file, and
// names as long as the file system allows work.
#include <doctest/doctest.h>

#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/npy.hpp"

extern char** environ;

using namespace kfm_cli_test;

namespace {

// Names in `dir` (not recursive) that hold ".tmp.": the writer's temporaries.
std::vector<std::string> temporaries_in(const fs::path& dir) {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.find(".tmp.") != std::string::npos) found.push_back(name);
    }
    return found;
}

// A model (map + head) and its inputs in the scratch directory: m.kfm, X.npy, y.npy.
void make_model(const scratch& s) {
    REQUIRE(s.kfm("synth --rows 40 --dim 3 --seed 1 -o X.npy").exit_code == 0);
    std::vector<float> y(40);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = float(i % 3);
    kfm::offline::write_npy_f32_vector(s.path("y.npy"), y.size(), y.data());
    REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 3 --features 16 -o map.kfm").exit_code == 0);
    REQUIRE(s.kfm("fit map.kfm --x X.npy --y y.npy --task classification --quiet -o m.kfm").exit_code == 0);
}

}  // namespace

TEST_CASE("output files: kfm build never overwrites its --data, through ./, links and other directories") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 30 --dim 5 -o data.npy").exit_code == 0);
    const std::string data = slurp(s.path("data.npy"));
    fs::create_directories(s.path("a/b"));
    fs::create_symlink("../../data.npy", s.path("a/b/link.npy"));    // a chain: a/link2 -> b/link -> data
    fs::create_symlink("b/link.npy", s.path("a/link2.npy"));
    fs::create_hard_link(s.path("data.npy"), s.path("a/hard.npy"));
    const std::string rff = "build --method rff --kernel gaussian --input-dim 5 --features 8 --sigma median --data data.npy -o ";
    const std::string nys = "build --method nystroem --kernel gaussian --input-dim 5 --landmarks 4 --data data.npy -o ";
    for (const char* out : {"data.npy", "./data.npy", "a/../data.npy", "a/link2.npy", "a/b/link.npy", "a/hard.npy"}) {
        CAPTURE(out);
        check_error(s.kfm(rff + out), "is the same file as --data data.npy");
        check_error(s.kfm(nys + out), "is the same file as --data data.npy");
    }
    CHECK(slurp(s.path("data.npy")) == data);
    CHECK(temporaries_in(s.dir).empty());
    REQUIRE(s.kfm(rff + "map.kfm").exit_code == 0);  // another file is fine
    REQUIRE(s.kfm(nys + "nys.kfm").exit_code == 0);
}

TEST_CASE("output files: predict's --out and --scores are different files, by device and inode") {
    scratch s;
    make_model(s);
    fs::create_directory(s.path("sub"));
    std::ofstream(s.path("p.npy")) << "old";
    fs::create_symlink("../p.npy", s.path("sub/link.npy"));
    fs::create_hard_link(s.path("p.npy"), s.path("sub/hard.npy"));
    for (const char* scores : {"p.npy", "./p.npy", "sub/../p.npy", "sub/link.npy", "sub/hard.npy"}) {
        CAPTURE(scores);
        check_error(s.kfm(std::string("predict m.kfm --in X.npy --out p.npy --scores ") + scores),
                    "is the same file as --out p.npy");
    }
    // Neither exists yet: the same name in the same directory is still the same file.
    check_error(s.kfm("predict m.kfm --in X.npy --out q.npy --scores sub/../q.npy"), "is the same file as --out q.npy");
    CHECK(slurp(s.path("p.npy")) == "old");
    CHECK(!fs::exists(s.path("q.npy")));
    CHECK(temporaries_in(s.dir).empty());
}

TEST_CASE("output files: predict writes both of its outputs or neither") {
    scratch s;
    make_model(s);
    fs::create_directory(s.path("a_directory"));
    check_error(s.kfm("predict m.kfm --in X.npy --out labels.npy --scores a_directory"), "is a directory");
    check_error(s.kfm("predict m.kfm --in X.npy --out labels.npy --scores missing/scores.npy"),
                "missing/scores.npy");
    CHECK(!fs::exists(s.path("labels.npy")));
    // An existing --out stays as it was when --scores fails.
    std::ofstream(s.path("labels.npy")) << "old";
    check_error(s.kfm("predict m.kfm --in X.npy --out labels.npy --scores missing/scores.npy"), "missing/scores.npy");
    CHECK(slurp(s.path("labels.npy")) == "old");
    CHECK(temporaries_in(s.dir).empty());
    REQUIRE(s.kfm("predict m.kfm --in X.npy --out labels.npy --scores scores.npy").exit_code == 0);
    CHECK(slurp(s.path("labels.npy")) != "old");
    CHECK(fs::file_size(s.path("scores.npy")) > 0);
}

TEST_CASE("output files: SIGINT, SIGTERM and SIGHUP during a write leave no temporary file") {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        CAPTURE(sig);
        scratch s;
        std::ofstream(s.path("big.npy")) << "old";
        // About 190 MB: the write takes long enough to be caught while the temporary file exists.
        const std::string out = s.path("big.npy");
        std::vector<std::string> words = {KFM_CLI_PATH, "synth", "--rows", "3000000", "--dim", "16", "-o", out};
        std::vector<char*> argv;
        for (auto& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        // The child starts with the default action for the three signals, even when this test was
        // started with them ignored (a background job of a non-interactive shell ignores SIGINT).
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t defaults;
        sigemptyset(&defaults);
        for (const int d : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, d);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
        pid_t pid = 0;
        const int spawned = ::posix_spawn(&pid, KFM_CLI_PATH, nullptr, &attr, argv.data(), environ);
        posix_spawnattr_destroy(&attr);
        REQUIRE(spawned == 0);
        bool seen = false;
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!seen && std::chrono::steady_clock::now() < give_up) {
            // The temporary file exists and has grown: the write is under way.
            for (const auto& name : temporaries_in(s.dir))
                if (std::error_code ec; fs::file_size(s.dir / name, ec) > 1000000) seen = true;
            if (!seen) std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        if (seen) ::kill(pid, sig);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        REQUIRE_MESSAGE(seen, "the write ended before its temporary file was seen");
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == sig);
        CHECK(temporaries_in(s.dir).empty());
        CHECK(slurp(s.path("big.npy")) == "old");
    }
}

TEST_CASE("output files: an output name of NAME_MAX characters is written (the temporary name fits)") {
    scratch s;
    const std::string name = std::string(NAME_MAX - 4, 'n') + ".npy";
    REQUIRE(name.size() == NAME_MAX);
    const auto r = s.kfm("synth --rows 4 --dim 2 -o " + name);
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(fs::exists(s.path(name)));
    CHECK(s.kfm("build --method rff --kernel gaussian --input-dim 2 --features 8 -o " + name.substr(4) + ".kfm")
              .exit_code == 0);
    CHECK(temporaries_in(s.dir).size() == 0);
}

TEST_CASE("output files: output_files writes all or nothing, and refuses one file named twice") {
    scratch s;
    const std::vector<std::uint8_t> bytes = {1, 2, 3};
    std::ofstream(s.path("kept")) << "old";
    SUBCASE("a producer that throws leaves nothing") {
        kfm::offline::output_files out;
        out.add(s.path("first"), bytes);
        CHECK_THROWS_AS(out.add(s.path("second"), [](const kfm::offline::output_files::sink& write) {
            write("ab", 2);
            throw std::runtime_error("producer failed");
        }), std::runtime_error);
    }
    SUBCASE("destroyed before commit: no target changes") {
        kfm::offline::output_files out;
        out.add(s.path("kept"), bytes);
        out.add(s.path("first"), bytes);
    }
    SUBCASE("the same file twice") {
        kfm::offline::output_files out;
        out.add(s.path("first"), bytes);
        CHECK_THROWS_WITH_AS(out.add(s.dir.string() + "/./first", bytes), doctest::Contains("are the same file"),
                             std::runtime_error);
    }
    SUBCASE("a name with a NUL character") {
        kfm::offline::output_files out;
        CHECK_THROWS_WITH_AS(out.add(s.path("a") + std::string(1, '\0') + "b", bytes), doctest::Contains("NUL"),
                             std::runtime_error);
    }
    CHECK(slurp(s.path("kept")) == "old");
    CHECK(!fs::exists(s.path("first")));
    CHECK(!fs::exists(s.path("second")));
    CHECK(temporaries_in(s.dir).empty());
    // Streamed in pieces and committed: both files complete.
    kfm::offline::output_files out;
    out.add(s.path("kept"), bytes);
    out.add(s.path("streamed"), [](const kfm::offline::output_files::sink& write) {
        for (int i = 0; i < 1000; ++i) write("0123456789", 10);
    });
    out.commit();
    CHECK(fs::file_size(s.path("kept")) == 3);
    CHECK(fs::file_size(s.path("streamed")) == 10000);
    CHECK(temporaries_in(s.dir).empty());
}

TEST_CASE("synth: --labels is which of the first three values is largest, written with the data or not at all") {
    scratch s;
    REQUIRE(s.kfm("synth --rows 200 --dim 5 --seed 3 -o x.npy --labels y.npy").exit_code == 0);
    const auto x = kfm::offline::read_npy(s.path("x.npy"));
    const auto y = slurp(s.path("y.npy"));
    REQUIRE(y.size() >= 200 * 8);
    const char* payload = y.data() + y.size() - 200 * 8;
    std::size_t counts[3] = {0, 0, 0};
    for (std::size_t i = 0; i < 200; ++i) {
        std::int64_t label = 0;
        std::memcpy(&label, payload + 8 * i, 8);
        const float* r = x.row(i);
        const std::int64_t expected = r[0] >= r[1] && r[0] >= r[2] ? 0 : (r[1] >= r[2] ? 1 : 2);
        CHECK(label == expected);
        if (label >= 0 && label < 3) ++counts[label];
    }
    CHECK(counts[0] > 20);  // all three classes occur
    CHECK(counts[1] > 20);
    CHECK(counts[2] > 20);
    // The labels cannot replace the data, and a failing --labels leaves no -o.
    check_error(s.kfm("synth --rows 10 --dim 5 -o x.npy --labels ./x.npy"), "is the same file as -o x.npy");
    check_error(s.kfm("synth --rows 10 --dim 5 -o new.npy --labels missing/y.npy"), "missing/y.npy");
    CHECK(!fs::exists(s.path("new.npy")));
    CHECK(kfm::offline::read_npy(s.path("x.npy")).rows == 200);
}
