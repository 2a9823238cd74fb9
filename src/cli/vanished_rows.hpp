// The warning `kfm map`, `kfm predict` and `kfm score` give about rows whose features all vanish where the
// kernel's k(x, x) > 0 (counted by offline::vanished_rows / vanished_predictions, whose header states
// which maps can: nystroem and maclaurin-opt's gaussian far from their data, arc-cosine maps without
// reflected pairs on the negative side of every direction).
#pragma once
#include <cstddef>
#include <string>

#include "kfm/kfm.hpp"

namespace kfm::cli {

// Writes "kfm <command>: warning: <vanished> of <rows> rows of <path> have all-zero features, ..." on
// stderr, with `consequence` (may be empty) before the closing explanation; nothing when vanished is 0.
void warn_vanished_rows(const std::string& command, const kfm::map& map, std::size_t vanished, std::size_t rows,
                        const std::string& path, const std::string& consequence);

}  // namespace kfm::cli
