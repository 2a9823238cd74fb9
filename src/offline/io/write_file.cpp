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
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/offline.hpp"
#include "offline/io/temporary_files.hpp"

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

// Where a path's bytes end up: the file its links finally name, identified by its directory's device and
// inode and its name there (so "p.npy", "./p.npy" and a link to it agree), and by its own device and
// inode when it exists (so hard links agree too).
struct destination {
    std::string target;
    bool dir_known = false, exists = false;
    dev_t dir_dev = 0, file_dev = 0;
    ino_t dir_ino = 0, file_ino = 0;
    std::string name;
};

destination destination_of(const std::string& path) {
    destination d;
    d.target = resolve_links(path);
    const auto slash = d.target.find_last_of('/');
    d.name = slash == std::string::npos ? d.target : d.target.substr(slash + 1);
    struct stat st;
    if (::stat(directory_of(d.target).c_str(), &st) == 0) {
        d.dir_known = true;
        d.dir_dev = st.st_dev;
        d.dir_ino = st.st_ino;
    }
    if (::stat(d.target.c_str(), &st) == 0) {
        d.exists = true;
        d.file_dev = st.st_dev;
        d.file_ino = st.st_ino;
    }
    return d;
}

bool same(const destination& a, const destination& b) {
    if (a.exists && b.exists) return a.file_dev == b.file_dev && a.file_ino == b.file_ino;
    if (a.dir_known && b.dir_known)
        return a.dir_dev == b.dir_dev && a.dir_ino == b.dir_ino && a.name == b.name;
    return a.target == b.target;
}

}  // namespace

struct output_files::staged {
    std::string path, target, temp;
    destination where;
};

output_files::output_files() = default;

output_files::~output_files() {
    for (const staged& s : staged_) remove_recorded_temporary(s.temp);
}

void output_files::add(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    add(path, [&](const sink& write) { write(bytes.data(), bytes.size()); });
}

void output_files::add(const std::string& path, const std::function<void(const sink&)>& produce) {
    if (committed_) throw std::logic_error("output_files::add after commit");
    if (path.empty()) throw std::runtime_error("an output file name is empty");
    if (path.find('\0') != std::string::npos)
        throw std::runtime_error("an output file name contains a NUL character");
    staged s{path, {}, {}, destination_of(path)};
    s.target = s.where.target;
    for (const staged& earlier : staged_)
        if (same(earlier.where, s.where))
            throw std::runtime_error("'" + path + "' and '" + earlier.path +
                                     "' are the same file: each output needs a file of its own");
    struct stat existing;
    const bool exists = ::stat(s.target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode))
        throw std::runtime_error(path + ": is " + kind_of(existing.st_mode) +
                                 "; kfm writes only regular files (choose another output path)");

    const int fd = create_recorded_temporary(s.target, &s.temp);
    if (fd < 0) fail("cannot create a temporary file beside", path, errno);
    const file_size_signal_blocked guard;
    bool abandoned = false;
    auto abandon = [&](const std::string& what, int err) {
        abandoned = true;
        ::close(fd);
        remove_recorded_temporary(s.temp);
        fail(what, path, err);
    };
    if (exists && ::fchmod(fd, existing.st_mode & 07777) != 0) abandon("cannot keep the permissions of", errno);
    auto write_all = [&](const std::uint8_t* bytes, std::size_t size) {
        std::size_t written = 0;
        while (written < size) {
            const ssize_t n = ::write(fd, bytes + written, size - written);
            if (n < 0) {
                if (errno == EINTR) continue;
                abandon("cannot write", errno);
            }
            written += static_cast<std::size_t>(n);
        }
    };
    // Small pieces (a streamed header's lines) are gathered into writes of 64 KiB; large ones go directly.
    std::vector<std::uint8_t> pending;
    constexpr std::size_t gather = std::size_t(1) << 16;
    const sink write = [&](const void* data, std::size_t size) {
        const auto* bytes = static_cast<const std::uint8_t*>(data);
        if (pending.size() + size > gather) {
            write_all(pending.data(), pending.size());
            pending.clear();
        }
        if (size >= gather) {
            write_all(bytes, size);
        } else {
            pending.insert(pending.end(), bytes, bytes + size);
        }
    };
    try {
        produce(write);
        write_all(pending.data(), pending.size());
    } catch (...) {
        // abandon() has already cleaned up when the write itself failed; the producer may fail too.
        if (!abandoned) {
            ::close(fd);
            remove_recorded_temporary(s.temp);
        }
        throw;
    }
    if (::fsync(fd) != 0) abandon("cannot flush", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        remove_recorded_temporary(s.temp);
        fail("cannot close", path, err);
    }
    staged_.push_back(std::move(s));
}

void output_files::commit() {
    if (committed_) throw std::logic_error("output_files::commit twice");
    committed_ = true;
    std::vector<staged> pending = std::move(staged_);
    staged_.clear();
    for (std::size_t i = 0; i < pending.size(); ++i) {
        if (rename_recorded_temporary(pending[i].temp, pending[i].target) == 0) continue;
        const int err = errno;
        std::string replaced;
        for (std::size_t j = 0; j < i; ++j) replaced += (j ? ", " : " (already replaced: ") + pending[j].path;
        for (std::size_t j = i; j < pending.size(); ++j) remove_recorded_temporary(pending[j].temp);
        fail("cannot rename the temporary file to", pending[i].path + (i ? replaced + ")" : ""), err);
    }
    for (const staged& s : pending) sync_directory(directory_of(s.target));
}

void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    output_files out;
    out.add(path, bytes);
    out.commit();
}

bool same_destination(const std::string& a, const std::string& b) {
    return same(destination_of(a), destination_of(b));
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
