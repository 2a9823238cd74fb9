// `kfm inspect`: verify a .kfm file and print what it holds, as text or one JSON object.
#include <cstdio>

#include "cli/cli.hpp"
#include "kfm/offline/describe.hpp"

namespace kfm::cli {

int run_inspect(const std::vector<std::string>& argv) {
    const arguments args("inspect", argv, {{"--json", false}}, 1);
    if (args.positional().empty()) usage_error("'kfm inspect' needs a FILE (see 'kfm help inspect')");
    const loaded_map file = load_map(args.positional()[0]);
    const std::string report = args.has("--json") ? offline::describe_map_json(file, file.path) + "\n"
                                                  : offline::describe_map_text(file, file.path);
    std::fputs(report.c_str(), stdout);
    return 0;
}

}  // namespace kfm::cli
