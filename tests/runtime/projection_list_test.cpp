// The one list of projections (src/runtime/projection_list.def) against what reads it: every
// format::projection member has a row (a compile-time check), the rows follow the enum's values, the
// registry has a complete projection_ops and the runtime a name for every row, each projection's file calls
// only the kernels its row names (the kernels a build that keeps it keeps), and CMake's reading of the list
// (KFM_ALL_PROJECTIONS and each projection's file) is the runtime's.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"
#include "runtime/projection.hpp"

namespace fmt = kfm::format;

namespace {

struct projection_row {
    fmt::projection kind;
    std::string cmake_kind, name, file, kernels;
};

const std::vector<projection_row>& rows() {
    static const std::vector<projection_row> list = {
#define KFM_PROJECTION(kind, KIND, name, file, kernels) {fmt::projection::kind, #kind, name, file, #kernels},
#include "runtime/projection_list.def"
#undef KFM_PROJECTION
    };
    return list;
}

// A format::projection member without a row leaves this switch without its case: -Wswitch, an error here,
// stops the suite's build.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
constexpr bool listed(fmt::projection p) {
    switch (p) {
#define KFM_PROJECTION(kind, KIND, name, file, kernels) \
    case fmt::projection::kind: return true;
#include "runtime/projection_list.def"
#undef KFM_PROJECTION
    }
    return false;
}
#pragma GCC diagnostic pop
static_assert(listed(fmt::projection::dense));

}  // namespace

TEST_CASE("projection list: one row per format::projection value, in the order of the values") {
    REQUIRE(!rows().empty());
    for (std::size_t i = 0; i < rows().size(); ++i) {
        CAPTURE(rows()[i].cmake_kind);
        CHECK(static_cast<std::uint32_t>(rows()[i].kind) == i + 1);  // the values start at 1 (0 is no projection)
    }
    // No kind past the list is known to the runtime.
    CHECK(kfm::detail::projection_ops_for(0) == nullptr);
    CHECK(kfm::detail::projection_ops_for(std::uint32_t(rows().size()) + 1) == nullptr);
    CHECK(std::string(kfm::projection_name(static_cast<fmt::projection>(rows().size() + 1))) == "unknown");
}

TEST_CASE("projection list: every row has a complete projection_ops and its name") {
    for (const auto& row : rows()) {
        CAPTURE(row.cmake_kind);
        const kfm::detail::projection_ops* ops = kfm::detail::projection_ops_for(static_cast<std::uint32_t>(row.kind));
        REQUIRE(ops != nullptr);  // a full build keeps every projection
        CHECK((ops->verify != nullptr));
        CHECK((ops->scratch_floats != nullptr));
        CHECK((ops->apply != nullptr));
        CHECK((ops->batch_scratch_floats == nullptr) == (ops->apply_batch == nullptr));
        CHECK((ops->work != nullptr));
        CHECK((ops->log2_output_bound != nullptr));
        CHECK((ops->log2_output_bound_float != nullptr));
        CHECK(std::string(kfm::projection_name(row.kind)) == row.name);
        CHECK(std::filesystem::is_regular_file(std::filesystem::path(KFM_SOURCE_DIR) / "src/runtime" / row.file));
    }
}

TEST_CASE("projection list: CMake reads the same projections and files as the runtime") {
    // KFM_CMAKE_PROJECTION_FILES: "kind=file,..." in KFM_ALL_PROJECTIONS' order (tests/CMakeLists.txt).
    std::string runtime_list;
    for (const auto& row : rows()) runtime_list += (runtime_list.empty() ? "" : ",") + row.cmake_kind + "=" + row.file;
    CHECK(runtime_list == KFM_CMAKE_PROJECTION_FILES);
}

TEST_CASE("projection list: a projection's file calls only the kernels its row names") {
    const std::regex call(R"(kernels->(\w+)\()");
    for (const auto& row : rows()) {
        CAPTURE(row.cmake_kind);
        std::ifstream in(std::filesystem::path(KFM_SOURCE_DIR) / "src/runtime" / row.file);
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        for (std::sregex_iterator m(source.begin(), source.end(), call), end; m != end; ++m) {
            const std::string kernel = (*m)[1];
            CAPTURE(kernel);
            CHECK(std::regex_search(row.kernels, std::regex("(^|[ |])uses_" + kernel + "($|[ |])")));
        }
    }
}
