// Reading and opening a verified .kfm file (kfm/offline/map_file.hpp).
#include "kfm/offline/map_file.hpp"

#include <stdexcept>

#include "kfm/offline.hpp"

namespace kfm::offline {

map_file read_map_file(const std::string& path, kfm::isa requested) {
    map_file file;
    file.path = path;
    file.storage = read_regular_file(path);
    const kfm::status s = kfm::open(file.storage.data(), file.storage.size(), &file.view, requested);
    if (s != kfm::status::ok) throw std::runtime_error(path + ": " + kfm::status_string(s));
    return file;
}

map_file open_map_bytes(const std::uint8_t* bytes, std::size_t size, const std::string& name, kfm::isa requested) {
    map_file file;
    file.path = name;
    file.storage.assign(bytes, bytes + size);
    const kfm::status s = kfm::open(file.storage.data(), file.storage.size(), &file.view, requested);
    if (s != kfm::status::ok) throw std::invalid_argument(std::string("not a valid .kfm file: ") + kfm::status_string(s));
    return file;
}

}  // namespace kfm::offline
