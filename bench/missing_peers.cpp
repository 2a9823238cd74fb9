// Names the optional peers this kfm_bench was built without (cmake/dependencies.cmake,
// kfm_bench_peer_dependencies) in the benchmark's context, so a report without their rows says why.
#include <benchmark/benchmark.h>

namespace {
const int registered = [] {
    benchmark::AddCustomContext("peers_missing", KFM_BENCH_PEERS_MISSING[0] ? KFM_BENCH_PEERS_MISSING : "none");
    return 0;
}();
}  // namespace
