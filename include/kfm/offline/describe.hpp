// What a verified .kfm file (a map or a model) holds, described for people and for programs: the text
// `kfm inspect` prints and the JSON object of `kfm inspect --json` and the Python package's Map.inspect().
#pragma once
#include <string>

#include "kfm/offline/map_file.hpp"

namespace kfm::offline {

// One JSON object on one line (no newline): "file" (`name`), "file_bytes", "workspace_bytes" (per
// vector), "format_version", "method" (and the option value the method records, gq's "gq_nodes"),
// "kernel", "kernel_params", the dimensions, "projection", "output_convention", "normalize_input",
// "gaussian_prefactor", "features_can_vanish" (the rule of kfm/offline/vanishing_features.hpp),
// "seed", "isa", "preprocessing", "head", "segments" and "sections" (tag, dtype, count, bytes, offset).
std::string describe_map_json(const map_file& file, const std::string& name);

// The same facts as aligned text lines, each ending in a newline (`kfm inspect`); `name` as above.
std::string describe_map_text(const map_file& file, const std::string& name);

}  // namespace kfm::offline
