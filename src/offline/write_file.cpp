// Files on disk under the rules of docs/reliability.md ("Output files"): atomic replacement of regular
// files only (a temporary file in the target's directory is written, fsync'ed and renamed over it, so
// readers see the old file or the complete new one), symbolic links followed, modes kept, and inputs
// read only from regular files, exactly as large as they are.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
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

// "a directory", "a character device", ... for a file that is not regular.
std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// The file `path` finally names after following symbolic links (it need not exist yet), so that the
// link stays a link and its target is replaced in the target's own directory.
std::string resolve_links(const std::string& path) {
    std::string current = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st;
        if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
        std::error_code ec;
        const std::string target = std::filesystem::read_symlink(current, ec).string();
        if (ec) fail("cannot read the symbolic link", current, ec.value());
        current = !target.empty() && target[0] == '/' ? target : directory_of(current) + "/" + target;
    }
    fail("cannot follow", path, ELOOP);
}

// A new name beside `target` created with O_EXCL and mode 0666, so the umask applies as for any new file.
int create_temporary(const std::string& target, std::string* name) {
    static unsigned counter = 0;
    const auto now = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::uint64_t z = now + 0x9e3779b97f4a7c15ull * (++counter) + std::uint64_t(::getpid());
        z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;  // spread the bits; the name only needs to be unused
        *name = target + ".tmp." + std::to_string(z % 1000000007ull);
        const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

// While alive, SIGXFSZ is blocked in this thread: exceeding the file size limit (ulimit -f) makes write()
// fail with EFBIG, which is reported and cleaned up, instead of killing the process. A SIGXFSZ raised
// meanwhile is consumed before the old mask comes back.
class file_size_signal_blocked {
public:
    file_size_signal_blocked() {
        sigemptyset(&xfsz_);
        sigaddset(&xfsz_, SIGXFSZ);
        pthread_sigmask(SIG_BLOCK, &xfsz_, &old_);
        sigset_t pending;
        sigpending(&pending);
        was_pending_ = sigismember(&pending, SIGXFSZ) == 1;
    }
    ~file_size_signal_blocked() {
        sigset_t pending;
        sigpending(&pending);
        if (!was_pending_ && sigismember(&old_, SIGXFSZ) != 1 && sigismember(&pending, SIGXFSZ) == 1) {
            const timespec no_wait{0, 0};
            (void)sigtimedwait(&xfsz_, nullptr, &no_wait);
        }
        pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }
    file_size_signal_blocked(const file_size_signal_blocked&) = delete;
    file_size_signal_blocked& operator=(const file_size_signal_blocked&) = delete;

private:
    sigset_t xfsz_, old_;
    bool was_pending_ = false;
};

// Makes the rename durable; failures here do not undo a completed rename, so they are ignored.
void sync_directory(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace

void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    if (path.empty()) throw std::runtime_error("write_file_atomic: empty path");
    const std::string target = resolve_links(path);
    struct stat existing;
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode))
        throw std::runtime_error(path + ": is " + kind_of(existing.st_mode) +
                                 "; kfm writes only regular files (choose another output path)");

    std::string temp;
    const int fd = create_temporary(target, &temp);
    if (fd < 0) fail("cannot create a temporary file beside", path, errno);
    const file_size_signal_blocked guard;
    auto abandon = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(temp.c_str());
        fail(what, path, err);
    };
    if (exists && ::fchmod(fd, existing.st_mode & 07777) != 0)
        abandon("cannot keep the permissions of", errno);
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
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        fail("cannot rename the temporary file to", path, err);
    }
    sync_directory(directory_of(target));
}

std::vector<std::uint8_t> read_regular_file(const std::string& path) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below like any non-regular file.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        throw std::runtime_error(path + ": " + (err == ENOENT ? std::string("no such file")
                                                              : std::string("cannot open: ") + std::strerror(err)));
    }
    struct closer {
        int fd;
        ~closer() { ::close(fd); }
    } const close_at_exit{fd};
    struct stat st;
    if (::fstat(fd, &st) != 0) fail("cannot read the status of", path, errno);
    if (!S_ISREG(st.st_mode)) {
        const std::string kind = kind_of(st.st_mode);
        throw std::runtime_error(path + ": is " + kind + (kind == "not a regular file" ? "" : ", not a regular file"));
    }
    if (std::uint64_t(st.st_size) > std::uint64_t(PTRDIFF_MAX)) throw std::runtime_error(path + ": file too large");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error(path + ": read error: " + std::strerror(errno));
        if (n == 0) throw std::runtime_error(path + ": the file became shorter while it was read");
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa, sb;
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

}  // namespace kfm::offline
