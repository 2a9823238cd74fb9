// write_file_streamed: offline::write_file_atomic's rules for a file written in pieces through a small
// buffer, so memory does not grow with the output.
#include "cli/streamed_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace kfm::cli {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
    throw std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

std::string directory_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The file `path` names after following symbolic links (it need not exist), replaced in its own directory.
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

// The temporary file beside the target: created with O_EXCL, removed unless committed.
class temporary_file {
public:
    explicit temporary_file(const std::string& target) {
        for (unsigned attempt = 0; attempt < 100; ++attempt) {
            name_ = target + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
            fd_ = ::open(name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ >= 0 || errno != EEXIST) break;
        }
    }
    ~temporary_file() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(name_.c_str());
    }
    temporary_file(const temporary_file&) = delete;
    temporary_file& operator=(const temporary_file&) = delete;

    int fd() const { return fd_; }
    const std::string& name() const { return name_; }
    int close() {
        const int result = ::close(fd_);
        fd_ = -1;
        return result;
    }
    void committed() { committed_ = true; }

private:
    std::string name_;
    int fd_ = -1;
    bool committed_ = false;
};

// SIGXFSZ blocked in this thread while alive, so exceeding ulimit -f makes write() fail with EFBIG
// instead of killing the process; a SIGXFSZ raised meanwhile is consumed before the mask comes back.
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

void write_all(int fd, const char* data, std::size_t size, const std::string& path) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot write", path, errno);
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

}  // namespace

void write_file_streamed(const std::string& path,
                         const std::function<void(const std::function<void(std::string_view)>& write)>& produce) {
    if (path.empty()) throw std::runtime_error("write_file_streamed: empty path");
    const std::string target = resolve_links(path);
    struct stat existing;
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode))
        throw std::runtime_error(path + ": is not a regular file; kfm writes only regular files (choose another output path)");

    temporary_file temp(target);
    if (temp.fd() < 0) fail("cannot create a temporary file beside", path, errno);
    const file_size_signal_blocked guard;
    if (exists && ::fchmod(temp.fd(), existing.st_mode & 07777) != 0) fail("cannot keep the permissions of", path, errno);

    std::vector<char> buffer;
    buffer.reserve(1 << 16);
    produce([&](std::string_view text) {
        if (buffer.size() + text.size() > buffer.capacity()) {
            write_all(temp.fd(), buffer.data(), buffer.size(), path);
            buffer.clear();
        }
        if (text.size() >= buffer.capacity()) write_all(temp.fd(), text.data(), text.size(), path);
        else buffer.insert(buffer.end(), text.begin(), text.end());
    });
    write_all(temp.fd(), buffer.data(), buffer.size(), path);
    if (::fsync(temp.fd()) != 0) fail("cannot flush", path, errno);
    if (temp.close() != 0) fail("cannot close", path, errno);
    if (::rename(temp.name().c_str(), target.c_str()) != 0) fail("cannot rename the temporary file to", path, errno);
    temp.committed();
    const int dir = ::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);  // makes the rename durable; a failure here cannot undo it
        ::close(dir);
    }
}

}  // namespace kfm::cli
