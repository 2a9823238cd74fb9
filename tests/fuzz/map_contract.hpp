// The runtime's contract on arbitrary file bytes, asserted by the fuzz targets (docs/reliability.md,
// "Fuzzing"): open either refuses and leaves the map untouched, or gives a map whose transforms refuse bad
// arguments without writing, give finite output for finite inputs with |x_i| <= format::max_input_abs,
// and cost at most the documented work bound. A violation aborts (the fuzzer's crash).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kfm/kfm.hpp"

namespace kfm::fuzz {

// Reports which contract failed on which ISA on stderr and aborts (the fuzzer's crash).
[[noreturn]] void violated(const char* what, isa i);

// What the contracts pre-fill outputs with, to see that a refused call wrote nothing.
inline constexpr float sentinel = 1234.5f;

// Opens `bytes` (copied to an 8-byte aligned buffer) with every ISA this host runs and checks the contract.
void check_map_bytes(const std::uint8_t* bytes, std::size_t size);

// For a file open accepts with a head (model_contract.cpp): predict and predict_batch agree bit for bit
// (any batch, the smallest workspace too) and with transform / transform_batch, give finite scores and a
// label the file lists, and refuse bad arguments without writing; predict on a map without a head
// returns no_head. A violation aborts.
void check_model_bytes(const std::uint8_t* bytes, std::size_t size);

// Makes a mutated file reach the semantic checks: file_bytes = size, and every section's CRC and the header
// CRC recomputed wherever the table lies inside the buffer (out-of-range entries are left as they are).
void reseal(std::uint8_t* bytes, std::size_t size);

}  // namespace kfm::fuzz
