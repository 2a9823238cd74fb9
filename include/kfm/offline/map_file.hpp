// A .kfm file (a map or a model) read into memory and verified by the runtime's own kfm::open: what every
// tool that runs, inspects, fits or exports an existing file starts from.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kfm/kfm.hpp"

namespace kfm::offline {

// The file's bytes and the map opened on them. `view` points into `storage` (from the default operator
// new, so 8-byte aligned as open requires); moving keeps it valid, copying is not allowed.
struct map_file {
    std::string path;                   // the name errors give (the file's path, or what the bytes came from)
    std::vector<std::uint8_t> storage;  // the whole file
    kfm::map view;

    map_file() = default;
    map_file(map_file&&) = default;
    map_file& operator=(map_file&&) = default;
    map_file(const map_file&) = delete;
    map_file& operator=(const map_file&) = delete;

    std::size_t size() const { return storage.size(); }
    const void* bytes() const { return storage.data(); }
};

// Reads `path` (a regular file, or a symbolic link to one: read_regular_file) and opens it for the
// `requested` ISA. Throws std::runtime_error "<path>: <reason>" when the file cannot be read or kfm::open
// refuses it (the reason is open's status text).
map_file read_map_file(const std::string& path, kfm::isa requested = kfm::isa::automatic);

// Opens a copy of `bytes` as a map file named `name`. Throws std::invalid_argument "not a valid .kfm file:
// <status>" when kfm::open refuses the bytes.
map_file open_map_bytes(const std::uint8_t* bytes, std::size_t size, const std::string& name,
                        kfm::isa requested = kfm::isa::automatic);

}  // namespace kfm::offline
