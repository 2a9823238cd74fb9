// `kfm export FILE --c-header OUT.h --name SYMBOL`: the verified file as a C99 header for firmware
// (kfm/offline/c_header.hpp writes it).
#include "cli/cli.hpp"
#include "kfm/offline.hpp"

namespace kfm::cli {

int run_export(const std::vector<std::string>& argv) {
    const arguments args("export", argv, {{"--c-header", true}, {"--name", true}}, 1);
    if (args.positional().empty()) usage_error("'kfm export' needs a FILE.kfm (see 'kfm help export')");
    const std::string out = args.value("--c-header"), name = args.value("--name");
    if (out.empty()) usage_error("--c-header needs a file name");
    if (const std::string why = offline::c_header_name_refusal(name); !why.empty())
        usage_error("--name '" + name + "' cannot name the header's array: " + why);
    refuse_overwriting_inputs("--c-header", out, {{"FILE", args.positional()[0]}});
    const loaded_map file = load_map(args.positional()[0]);
    offline::output_files output;
    offline::add_c_header(output, out, file, name);
    output.commit();
    return 0;
}

}  // namespace kfm::cli
