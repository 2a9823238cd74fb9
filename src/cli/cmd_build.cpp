// `kfm build`: parse the method, kernel and options, build the map offline, verify and write it atomically.
#include <cstdio>

#include "cli/cli.hpp"
#include "kfm/build_registry.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/bandwidth.hpp"
#include "kfm/offline/npy.hpp"

namespace kfm::cli {
namespace {

// --sigma median | scale: the bandwidth computed from the rows (offline::median_heuristic_sigma, or
// scikit-learn's gamma='scale'); the rule and the value chosen go to *note for the build's report.
double sigma_from_data(const std::string& rule, const offline::npy_array& x, unsigned input_dim, std::string* note) {
    if (x.cols != input_dim)
        usage_error("--data has " + std::to_string(x.cols) + " columns but --input-dim is " + std::to_string(input_dim));
    require_finite("--data", x.data.data(), x.rows, x.cols);
    const double sigma = rule == "median" ? offline::median_heuristic_sigma(x.data.data(), x.rows, x.cols)
                                          : offline::variance_scale_sigma(x.data.data(), x.rows, x.cols);
    if (note != nullptr) *note = ", sigma " + json_number(sigma) + " from --sigma " + rule;
    return sigma;
}

}  // namespace

const std::vector<option_spec>& build_option_specs() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const offline::option_row& r : offline::option_table())
            out.push_back(offline::option_text(r.id, offline::spelling::command_line));
        return out;
    }();
    static const std::vector<option_spec> specs = [] {
        std::vector<option_spec> out;
        for (std::size_t i = 0; i < names.size(); ++i)
            out.push_back({names[i].c_str(), offline::option_table()[i].type != offline::option_type::flag});
        return out;
    }();
    return specs;
}

offline::build_options build_options_from(const arguments& args, std::string* sigma_note) {
    const std::string sigma_text = args.value_or("--sigma", "");
    const bool sigma_from_rows = sigma_text == "median" || sigma_text == "scale";
    format::method method{};
    const offline::method_row* row =
        offline::method_from_name(args.value_or("--method", ""), &method) ? offline::find_method(method) : nullptr;
    const bool reads_data = row != nullptr && (row->landmarks_from_data || row->fitted_to_data);
    if (args.has("--data") && !sigma_from_rows && !reads_data) {
        std::string methods;
        for (const offline::method_row& m : offline::method_table())
            if (m.landmarks_from_data || m.fitted_to_data)
                methods += std::string(methods.empty() ? "" : " or ") + offline::method_name(m.id);
        usage_error("--data is only used by --sigma median or --sigma scale, and by --method " + methods);
    }
    if (sigma_from_rows && !args.has("--data"))
        usage_error("--sigma " + sigma_text + " needs --data X.npy (the rows it is computed from)");

    std::vector<std::pair<std::string, offline::option_value>> given;
    for (const auto& [name, value] : args.values())
        if (name != "--data" && name != "-o") given.push_back({name, {name == "--sigma" && sigma_from_rows ? "1" : value}});
    const offline::npy_array rows = args.has("--data") ? offline::read_npy(args.value("--data")) : offline::npy_array{};
    // An empty file is not a missing --data (its null row pointer would read as one below).
    if (args.has("--data") && rows.data.empty())
        throw cli_error(args.value("--data") + ": --data holds no rows (the file's array is empty)");
    offline::build_options options;
    try {
        options = offline::build_options_from(given, offline::spelling::command_line,
                                              reads_data && args.has("--data") ? rows.data.data() : nullptr,
                                              rows.rows, rows.cols);
    } catch (const offline::option_error& e) {
        usage_error(e.what());
    }
    if (sigma_from_rows) options.kernel.sigma = sigma_from_data(sigma_text, rows, options.input_dim, sigma_note);
    return options;
}

int run_build(const std::vector<std::string>& argv) {
    std::vector<option_spec> specs = build_option_specs();
    specs.push_back({"-o", true});
    const arguments args("build", argv, specs, 0);
    const std::string out = args.value("-o");
    if (out.empty()) usage_error("-o needs a file name");
    if (args.has("--data")) refuse_overwriting_inputs("-o", out, {{"--data", args.value("--data")}});
    std::string sigma_note;
    const offline::build_options options = build_options_from(args, &sigma_note);

    // build_map throws std::invalid_argument for impossible parameters; main reports it.
    const offline::map_contents map = offline::build_map(options);
    offline::write_map_file(out, map);
    std::printf("wrote %s (%s, %s, input_dim %u, output_dim %u%s)\n", out.c_str(),
                 offline::method_name(options.method), offline::kernel_name(options.kernel.kind),
                 map.meta.input_dim, map.meta.output_dim, sigma_note.c_str());
    return 0;
}

}  // namespace kfm::cli
