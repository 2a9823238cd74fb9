// A verified .kfm file as a C99 header for firmware (`kfm export`, kfm.sklearn.export(..., c_header=...)):
// an 8-byte aligned byte array named by a C symbol, its size, and macros to size buffers at compile time.
#pragma once
#include <cstddef>
#include <string>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/map_file.hpp"

namespace kfm::offline {

// Why `name` cannot be a header's symbol, or "" when it can: it must be a lower-case C identifier of at
// most 38 characters, neither reserved (_x, x__y, x_t) nor a C or C++ keyword, nor a name or macro of
// kfm.h (its macros are its upper-case form followed by _SIZE, _INPUT_DIM, ...). Such a header compiles
// beside kfm.h and beside any other exported header. Never throws (but std::bad_alloc).
std::string c_header_name_refusal(const std::string& name);

// Stages the header of `file` as `name` at `out` in `output`; the header is streamed when `output` is
// committed (memory does not grow with the map), so `file` must outlive the commit. Throws
// std::invalid_argument "'<name>' cannot name the header's array: <reason>" (c_header_name_refusal) or for
// an empty `out`, and std::runtime_error from output_files::add; nothing is staged then.
void add_c_header(output_files& output, const std::string& out, const map_file& file, const std::string& name);

}  // namespace kfm::offline
