// The main of the data-dependent suites (repro, docs): doctest's, plus exit code 77 (ctest's
// SKIP_RETURN_CODE for these suites) when every data-dependent case was skipped because no data set was
// found, so that ctest reports the suite as skipped rather than passed. Not part of kfm_test_common: each
// such suite compiles it with KFM_TEST_SUITE_NAME, its name (tests/CMakeLists.txt, kfm_test_suite DATA).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "common/datasets.hpp"

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int rc = context.run();
    if (context.shouldExit() || rc != 0) return rc;
    const auto skipped = kfm::test::cases_skipped_for_data();
    if (skipped > 0) {
        std::printf("%s: skipped %zu test case(s): data sets not found under %s (set KFM_DATA_DIR)\n",
                    KFM_TEST_SUITE_NAME, skipped, kfm::test::data_dir().c_str());
    }
    return skipped > 0 && kfm::test::cases_with_data() == 0 ? 77 : 0;
}
