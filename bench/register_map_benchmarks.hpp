// End-to-end map benchmarks shared by the method bench files: for every ISA this host can run,
// map/<method>/<isa>/<d>/<D> times one transform and map/<method>/<isa>/<d>/<D>/batch times
// transform_batch of 64 vectors (items/s and the ns_per_vector counter are per vector).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// make_file_bytes is called at most once, the first time one of these benchmarks runs.
void register_map_benchmarks(const std::string& method_name, unsigned d, unsigned D,
                             std::function<std::vector<std::uint8_t>()> make_file_bytes);
