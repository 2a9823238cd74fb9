// Recorded temporary files and the signal handlers that remove them (temporary_files.hpp). The record
// is a fixed array of slots so the handler touches no heap and calls only async-signal-safe functions
// (unlink, signal, raise).
#include "offline/io/temporary_files.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "kfm/offline.hpp"

namespace kfm::offline {
namespace {

// One command stages a handful of outputs; more concurrent temporaries than this (threads writing
// many files at once) are still created, only not removed by a signal.
constexpr int slot_count = 16;

struct slot {
    std::atomic<bool> used{false};
    char name[PATH_MAX];
};
slot slots[slot_count];
std::mutex slots_mutex;  // between threads; the handler only reads slots marked used

const int cleaned_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temporaries_and_reraise(int sig) {
    for (slot& s : slots)
        if (s.used.load(std::memory_order_acquire)) ::unlink(s.name);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

// Blocks the cleaned signals in this thread while alive.
class cleaned_signals_blocked {
public:
    cleaned_signals_blocked() {
        sigset_t set;
        sigemptyset(&set);
        for (int sig : cleaned_signals) sigaddset(&set, sig);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~cleaned_signals_blocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    cleaned_signals_blocked(const cleaned_signals_blocked&) = delete;
    cleaned_signals_blocked& operator=(const cleaned_signals_blocked&) = delete;

private:
    sigset_t old_;
};

void record(const std::string& name) {
    if (name.size() >= PATH_MAX) return;
    const std::lock_guard<std::mutex> lock(slots_mutex);
    for (slot& s : slots) {
        if (s.used.load(std::memory_order_relaxed)) continue;
        std::memcpy(s.name, name.c_str(), name.size() + 1);
        s.used.store(true, std::memory_order_release);
        return;
    }
}

void forget(const std::string& name) {
    const std::lock_guard<std::mutex> lock(slots_mutex);
    for (slot& s : slots)
        if (s.used.load(std::memory_order_relaxed) && name == s.name) {
            s.used.store(false, std::memory_order_release);
            return;
        }
}

// "<directory>/<base>" of the target, its base name cut so that "<base>.tmp.<number>" fits NAME_MAX.
std::string temporary_stem(const std::string& target) {
    const auto slash = target.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
    std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    constexpr std::size_t room = NAME_MAX - 16;  // ".tmp." and ten digits, with margin
    if (base.size() > room) base.resize(room);
    return dir + base;
}

}  // namespace

int create_recorded_temporary(const std::string& target, std::string* name) {
    static std::atomic<unsigned> counter{0};
    const std::string stem = temporary_stem(target);
    const auto now = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::uint64_t z = now + 0x9e3779b97f4a7c15ull * (++counter) + std::uint64_t(::getpid());
        z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;  // spread the bits; the name only needs to be unused
        *name = stem + ".tmp." + std::to_string(z % 1000000007ull);
        const cleaned_signals_blocked blocked;
        const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) record(*name);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

void remove_recorded_temporary(const std::string& name) {
    const cleaned_signals_blocked blocked;
    ::unlink(name.c_str());
    forget(name);
}

int rename_recorded_temporary(const std::string& name, const std::string& target) {
    const cleaned_signals_blocked blocked;
    if (::rename(name.c_str(), target.c_str()) != 0) return -1;
    forget(name);
    return 0;
}

void remove_temporaries_on_signals() {
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    for (int sig : cleaned_signals) sigaddset(&action.sa_mask, sig);
    for (int sig : cleaned_signals) {
        struct sigaction previous {};
        // A signal the parent set to be ignored (nohup) stays ignored.
        if (::sigaction(sig, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        ::sigaction(sig, &action, nullptr);
    }
}

}  // namespace kfm::offline
