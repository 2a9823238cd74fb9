// Entry point of kfm_bench; the benchmarks register themselves from the other files in bench/.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
