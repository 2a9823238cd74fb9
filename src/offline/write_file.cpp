// Atomic file writing: a temporary file in the destination directory is written, fsync'ed and renamed
// over the target, so readers see either the old file or the complete new one, never a partial file.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kfm/offline.hpp"

namespace kfm::offline {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
    throw std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

std::string directory_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// Makes the rename durable; failures here do not undo a completed rename, so they are ignored.
void sync_directory(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace

void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    if (path.empty()) throw std::runtime_error("write_file_atomic: empty path");
    std::string temp = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) fail("cannot create a temporary file beside", path, errno);

    auto abandon = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(temp.c_str());
        fail(what, path, err);
    };
    if (::fchmod(fd, 0644) != 0) abandon("cannot set permissions of the temporary file for", errno);
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            abandon("cannot write", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) abandon("cannot flush", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        fail("cannot close", path, err);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        fail("cannot rename the temporary file to", path, err);
    }
    sync_directory(directory_of(path));
}

}  // namespace kfm::offline
