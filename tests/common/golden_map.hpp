// The map of the checked-in golden file tests/format/golden/dense_small.kfm. Its values are closed-form
// (no random generator) so the file only changes when the format itself changes. The format suite
// compares against the file (tests/format/golden_test.cpp); only the kfm_regenerate_golden tool writes it.
#pragma once
#include "kfm/offline.hpp"

namespace kfm::test {

// Where the golden file lives in the source tree.
extern const char* const golden_path;

offline::map_contents golden_map();

}  // namespace kfm::test
