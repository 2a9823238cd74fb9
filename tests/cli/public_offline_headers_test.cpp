// The installed offline API stands alone: include/kfm/offline.hpp and every header in include/kfm/offline/
// compile as the first and only include of a translation unit with nothing but include/ on the path (no
// private header of src/, no Eigen or Boost), and offline.hpp includes each of them, so a tool (or an
// installed kfm::offline user) gets the whole API from it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_harness.hpp"

using namespace kfm_cli_test;

namespace {

std::vector<std::string> public_offline_headers() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(fs::path(KFM_SOURCE_DIR) / "include/kfm/offline"))
        if (entry.path().extension() == ".hpp") names.push_back("kfm/offline/" + entry.path().filename().string());
    return names;
}

}  // namespace

TEST_CASE("offline API: every public offline header compiles first and alone against include/ only") {
    const scratch s;
    std::vector<std::string> headers = public_offline_headers();
    REQUIRE(headers.size() >= 8);
    headers.push_back("kfm/offline.hpp");
    for (const std::string& header : headers) {
        std::ofstream(s.dir / "tu.cpp") << "#include <" << header << ">\nint main() { return 0; }\n";
        const std::string command = "'" KFM_CXX_COMPILER "' -std=c++20 -pedantic-errors -Wall -Wextra -Werror "
                                    "-fsyntax-only -I'" KFM_SOURCE_DIR "/include' '" +
                                    s.path("tu.cpp") + "' 2>'" + s.path("compile.log") + "'";
        CHECK_MESSAGE(std::system(command.c_str()) == 0, header << ":\n" << slurp(s.dir / "compile.log"));
    }
}

TEST_CASE("offline API: offline.hpp includes every public offline header") {
    const std::string umbrella = slurp(fs::path(KFM_SOURCE_DIR) / "include/kfm/offline.hpp");
    for (const std::string& header : public_offline_headers())
        CHECK_MESSAGE(umbrella.find("#include \"" + header + "\"") != std::string::npos, header);
}
