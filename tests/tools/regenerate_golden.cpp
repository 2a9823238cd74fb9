// Rewrites tests/format/golden/dense_small.kfm from golden_map() after a deliberate format change; it
// only writes (the format suite's golden test compares). Review the diff and update docs/format.md.
#include <cstdio>
#include <exception>

#include "common/golden_map.hpp"

int main() {
    try {
        kfm::offline::write_file_atomic(kfm::test::golden_path, kfm::offline::serialize(kfm::test::golden_map()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kfm_regenerate_golden: %s\n", e.what());
        return 1;
    }
    std::printf("wrote %s\n", kfm::test::golden_path);
    return 0;
}
