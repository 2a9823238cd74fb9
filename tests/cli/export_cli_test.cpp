// `kfm export --c-header`: the names it refuses (C and C++ keywords, reserved identifiers, what kfm.h
// declares or defines, main, names differing only in case), headers of accepted names compiled together
// with kfm.h by the C and C++ compilers, the array equal to the file's bytes, and the streamed output's
// atomicity (a size limit mid-write leaves nothing).
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_harness.hpp"

using namespace kfm_cli_test;

namespace {

// The compiler that builds kfm (a gcc or clang driver, which compiles C with -x c).
int compile(const scratch& s, const std::string& source, const std::string& language_flags) {
    std::ofstream(s.dir / "tu.src") << source;
    const std::string command = "'" KFM_CXX_COMPILER "' " + language_flags +
                                " -pedantic-errors -Wall -Wextra -Werror -fsyntax-only -I'" KFM_SOURCE_DIR "/include' -I'" +
                                s.dir.string() + "' '" + s.path("tu.src") + "' 2>'" + s.path("compile.log") + "'";
    return std::system(command.c_str());
}

// Identifiers matching `pattern` in kfm.h and the status list it includes.
std::set<std::string> c_api_identifiers(const std::string& pattern) {
    std::set<std::string> found;
    const std::regex identifier(pattern);
    for (const char* header : {"/include/kfm/kfm.h", "/include/kfm/status_list.h"}) {
        const std::string text = slurp(std::string(KFM_SOURCE_DIR) + header);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), identifier); it != std::sregex_iterator(); ++it)
            found.insert(it->str());
    }
    return found;
}

// kfm.h's upper-case names: those written out, and the status constants KFM_<C name> it generates from
// the list's X(c++ name, C name, text) entries.
std::set<std::string> c_api_macros() {
    std::set<std::string> found = c_api_identifiers("\\bKFM_[A-Z0-9_]+\\b");
    const std::string list = slurp(std::string(KFM_SOURCE_DIR) + "/include/kfm/status_list.h");
    const std::regex entry("X\\([a-z_]+, ([A-Z_]+),");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), entry); it != std::sregex_iterator(); ++it)
        found.insert("KFM_" + (*it)[1].str());
    return found;
}

// A map and, for a name the tool must refuse, an attempted export (exit 2, the reason, no file).
struct export_setup {
    scratch s;
    export_setup() { REQUIRE(s.kfm("build --method rff --kernel gaussian --input-dim 5 --features 40 --sigma 1 -o m.kfm").exit_code == 0); }
    void refused(const std::string& name, const std::string& reason) const {
        const run_result r = s.kfm("export m.kfm --c-header out.h --name '" + name + "'");
        CHECK_MESSAGE(r.exit_code == 2, name);
        const std::string prefix = "--name '" + name + "' cannot name the header's array: ";
        CHECK_MESSAGE((r.err.find(prefix) != std::string::npos && r.err.find(reason) != std::string::npos),
                      name << ": " << r.err);
        CHECK_MESSAGE(!fs::exists(s.dir / "out.h"), name);
    }
};

}  // namespace

TEST_CASE("export: names the C header could not use are refused, and nothing is written") {
    const export_setup e;
    for (const char* name : {"int", "static", "auto", "restrict", "inline", "bool", "true", "nullptr", "constexpr",
                             "typeof", "static_assert", "class", "new", "this", "template", "namespace"})
        e.refused(name, "keyword");
    for (const char* name : {"_x", "_", "a__b", "__x"}) e.refused(name, "reserved");
    for (const char* name : {"size_t", "uint8_t", "my_t"}) e.refused(name, "_t");
    e.refused("main", "already uses it");
    e.refused("offsetof", "already uses it");
    e.refused("A", "must be lower case");
    e.refused("My_Net", "must be lower case");
    e.refused("9lives", "cannot start with a digit");
    e.refused("a-b", "C identifier");
    e.refused("", "empty");
    e.refused(std::string(39, 'a'), "longer than 38 characters");
    // Everything kfm.h declares in lower case, found in the header itself (a new function cannot be missed).
    const std::set<std::string> functions = c_api_identifiers("\\bkfm_[a-z0-9_]+\\b");
    CHECK(functions.count("kfm_open") == 1);
    for (const std::string& name : functions) e.refused(name, "kfm.h declares it");
    // Every kfm.h macro or enumerator a symbol's macro could equal: KFM_BAD_SECTION_SIZE is the SIZE
    // macro of kfm_bad_section, KFM_KFM_H the guard of kfm.
    int derived = 0;
    const std::set<std::string> macros = c_api_macros();
    CHECK(macros.count("KFM_BAD_SECTION_SIZE") == 1);
    for (const std::string& macro : macros)
        for (const std::string suffix : {"_KFM_H", "_INPUT_DIM", "_OUTPUT_COUNT", "_WORKSPACE_BYTES", "_SIZE", "_ALIGN"})
            if (macro.size() > suffix.size() && macro.compare(macro.size() - suffix.size(), suffix.size(), suffix) == 0) {
                std::string name = macro.substr(0, macro.size() - suffix.size());
                for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                e.refused(name, "is one kfm.h defines");
                ++derived;
            }
    CHECK(derived >= 2);
}

TEST_CASE("export: headers of accepted names compile together with kfm.h in C99, C11, C23 and C++") {
    const export_setup e;
    const scratch& s = e.s;
    const std::vector<std::string> names = {"a", "b", "kfm_model", "my_net", "x9", "kfm_statusx", "size", "int8"};
    std::string source = "#include \"kfm/kfm.h\"\n";
    std::string uses;
    for (const std::string& name : names) {
        const run_result r = s.kfm("export m.kfm --c-header " + name + ".h --name " + name);
        REQUIRE_MESSAGE(r.exit_code == 0, name << ": " << r.err);
        source += "#include \"" + name + ".h\"\n#include \"" + name + ".h\"\n";  // twice: the guard works
        std::string upper = name;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        uses += "    total += " + name + "[0] + " + upper + "_SIZE + " + upper + "_INPUT_DIM + " + upper +
                "_OUTPUT_COUNT + " + upper + "_WORKSPACE_BYTES;\n";
    }
    source += "unsigned long f(void);\nunsigned long f(void) {\n    unsigned long total = 0;\n" + uses +
              "    return total;\n}\n";
    for (const char* flags : {"-x c -std=c99", "-x c -std=c11", "-x c -std=c2x", "-x c++ -std=c++17"})
        CHECK_MESSAGE(compile(s, source, flags) == 0, flags << ": " << slurp(s.dir / "compile.log"));
    // The test can fail: a header whose symbol is a keyword does not compile.
    std::string broken = slurp(s.dir / "a.h");
    broken = std::regex_replace(broken, std::regex("\\bunsigned char a\\["), "unsigned char int[");
    CHECK(compile(s, broken, "-x c -std=c99") != 0);
}

TEST_CASE("export: the header's array is the file's bytes and its comment names the macros it defines") {
    const export_setup e;
    const scratch& s = e.s;
    REQUIRE(s.kfm("export m.kfm --c-header h.h --name my_net").exit_code == 0);
    const std::string header = slurp(s.dir / "h.h");
    const std::string bytes = slurp(s.dir / "m.kfm");
    CHECK(header.find("pass my_net and MY_NET_SIZE to kfm_open") != std::string::npos);
    CHECK(header.find("my_net_SIZE") == std::string::npos);
    std::string decoded;
    const std::regex hex("0x([0-9a-f]{2}),");
    for (auto it = std::sregex_iterator(header.begin(), header.end(), hex); it != std::sregex_iterator(); ++it)
        decoded.push_back(static_cast<char>(std::stoi((*it)[1].str(), nullptr, 16)));
    CHECK(decoded == bytes);
    CHECK(header.find("#define MY_NET_SIZE " + std::to_string(bytes.size()) + "u\n") != std::string::npos);
    const std::string end = "\n};\n\n#endif\n";
    CHECK(header.compare(header.size() - end.size(), end.size(), end) == 0);
}

TEST_CASE("export: the streamed header is atomic: a size limit mid-write leaves the old file and no temporary") {
    const export_setup e;
    const scratch& s = e.s;
    std::ofstream(s.dir / "h.h") << "old";
    // ulimit -f counts 1024-byte blocks; the header is several kB.
    const run_result r = s.kfm("export m.kfm --c-header h.h --name my_net", "ulimit -f 2");
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("File too large") != std::string::npos);
    CHECK(slurp(s.dir / "h.h") == "old");
    for (const auto& entry : fs::directory_iterator(s.dir))
        CHECK_MESSAGE(entry.path().filename().string().find(".tmp") == std::string::npos, entry.path());
    // A symbolic link is followed, the link kept, the mode kept.
    fs::permissions(s.dir / "h.h", fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink("h.h", s.dir / "link.h");
    REQUIRE(s.kfm("export m.kfm --c-header link.h --name my_net").exit_code == 0);
    CHECK(fs::is_symlink(s.dir / "link.h"));
    CHECK(slurp(s.dir / "h.h").find("MY_NET_SIZE") != std::string::npos);
    CHECK((fs::status(s.dir / "h.h").permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
    const run_result to_directory = s.kfm("export m.kfm --c-header . --name my_net");
    CHECK(to_directory.exit_code == 1);
    CHECK(to_directory.err.find("regular file") != std::string::npos);
}

TEST_CASE("export: the firmware workspace macro equals the workspace macro, also for SSF's small FFT blocks") {
    // A single SSF row with n <= 32 takes one lane in every build (fft_batch_row), so the firmware profile's
    // workspace is the host's; the macro stays for headers that use it.
    scratch s;
    REQUIRE(s.kfm("build --method ssf --kernel gaussian --input-dim 12 --features 256 --sigma 2 -o m.kfm").exit_code == 0);
    REQUIRE(s.kfm("export m.kfm --c-header h.h --name my_net").exit_code == 0);
    const std::string header = slurp(s.dir / "h.h");
    std::smatch host, firmware;
    REQUIRE(std::regex_search(header, host, std::regex("#define MY_NET_WORKSPACE_BYTES ([0-9]+)u\n")));
    REQUIRE(std::regex_search(header, firmware, std::regex("#define MY_NET_FIRMWARE_WORKSPACE_BYTES ([0-9]+)u\n")));
    CHECK(host[1].str() == firmware[1].str());
    CHECK(std::stoul(host[1].str()) < 1024);  // x, t and four 16-float FFT buffers: 896 bytes, not 16 lanes' 8,576
}
