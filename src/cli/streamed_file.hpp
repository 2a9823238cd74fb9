// An output file written piece by piece, for outputs much larger than what produces them (kfm export's
// header is about 6.3 bytes per map byte). The same rules as offline::write_file_atomic (docs/reliability.md,
// "Output files"): symbolic links followed, only regular files replaced, a new temporary file beside the
// target, fsync'ed and renamed over it (mode kept), removed on every error; SIGXFSZ is an error.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace kfm::cli {

// Calls produce(write) once; each write(text) appends text to the new file. When produce returns, the
// file replaces `path` atomically; when it or a write throws, `path` is unchanged and nothing is left.
// Throws std::runtime_error naming `path` for a system error.
void write_file_streamed(const std::string& path,
                         const std::function<void(const std::function<void(std::string_view)>& write)>& produce);

}  // namespace kfm::cli
