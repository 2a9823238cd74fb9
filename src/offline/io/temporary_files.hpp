// The temporary files the writer has created and not yet renamed or removed, kept where a signal handler
// can reach them: on SIGINT, SIGTERM or SIGHUP (once remove_temporaries_on_signals() has installed the
// handlers) each is unlinked before the process ends with the signal's default action.
#pragma once
#include <string>

namespace kfm::offline {

// Creates a new file beside `target` (O_EXCL, mode 0666 & ~umask) and records its name; returns the file
// descriptor, or -1 with errno set. Signals are blocked between the creation and the recording, so a
// file is never created without being recorded. The name stays within NAME_MAX however long the
// target's own name is.
int create_recorded_temporary(const std::string& target, std::string* name);

// Unlinks a recorded temporary file and forgets it.
void remove_recorded_temporary(const std::string& name);

// Renames a recorded temporary file over `target` and forgets it; 0, or -1 with errno set (the file is
// then still recorded, for remove_recorded_temporary).
int rename_recorded_temporary(const std::string& name, const std::string& target);

}  // namespace kfm::offline
