// Running the `kfm` tool as a process (KFM_CLI_PATH) in a scratch directory, shared by the cli tests.
#pragma once
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace kfm_cli_test {

namespace fs = std::filesystem;

struct run_result {
    int exit_code = -1;
    std::string out;
    std::string err;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A scratch directory removed at the end of the test case.
struct scratch {
    fs::path dir;
    scratch() {
        static int counter = 0;
        dir = fs::temp_directory_path() / ("kfm_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::create_directories(dir);
    }
    ~scratch() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string path(const std::string& name) const { return (dir / name).string(); }

    // Runs `kfm <args>` inside the directory (args are shell words; the tests pass only safe names),
    // after the shell commands `setup` (e.g. "umask 077"), which affect only this run, and under the
    // command `wrapper` (e.g. "timeout 10").
    run_result kfm(const std::string& args, const std::string& setup = "true", const std::string& wrapper = "") const {
        const std::string command = "cd '" + dir.string() + "' && " + setup + " && " + wrapper + " '" + KFM_CLI_PATH + "' " + args +
                                    " >'" + path(".stdout") + "' 2>'" + path(".stderr") + "'";
        const int status = std::system(command.c_str());
        run_result r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        r.out = slurp(dir / ".stdout");
        r.err = slurp(dir / ".stderr");
        fs::remove(dir / ".stdout");
        fs::remove(dir / ".stderr");
        return r;
    }
};

// An error: exit status (not a signal), nothing on stdout, one line "kfm: error: ..." holding `fragment`.
inline void check_error(const run_result& r, const std::string& fragment) {
    CAPTURE(r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code < 128);  // an exit, not a signal
    CHECK(r.out.empty());
    CHECK(r.err.rfind("kfm: error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(fragment) != std::string::npos);
}

// The mean relative Frobenius error from `kfm eval ... --json` (its "rel_frobenius" object's "mean");
// fails the test when the command failed or printed no such value.
inline double eval_mean_frobenius(const run_result& r) {
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto object = r.out.find("\"rel_frobenius\"");
    REQUIRE_MESSAGE(object != std::string::npos, r.out);
    const auto mean = r.out.find("\"mean\": ", object);
    REQUIRE_MESSAGE(mean != std::string::npos, r.out);
    return std::strtod(r.out.c_str() + mean + 8, nullptr);
}

}  // namespace kfm_cli_test
