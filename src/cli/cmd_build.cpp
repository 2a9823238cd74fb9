// `kfm build`: parse the method, kernel and options, build the map offline, verify and write it atomically.
#include <algorithm>
#include <cstdio>

#include "cli/cli.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/bandwidth.hpp"
#include "kfm/offline/npy.hpp"

namespace kfm::cli {
namespace {

// Kernel options that only make sense for one kernel: giving them to another is a mistake worth
// reporting rather than silently ignoring.
void reject_foreign_kernel_options(const arguments& args, format::kernel kernel) {
    using k = format::kernel;
    struct owned {
        const char* option;
        std::vector<format::kernel> kernels;
    };
    const owned table[] = {
        {"--sigma", {k::gaussian, k::matern, k::rational_quadratic, k::laplacian}},
        {"--order", {k::arccos}},
        {"--arccos-pairs", {k::arccos}},
        {"--degree", {k::polynomial_sphere}},
        {"--scale", {k::polynomial_sphere}},
        {"--weights", {k::delta_gaussian}},
        {"--sigmas", {k::delta_gaussian}},
        {"--nu", {k::matern}},
        {"--alpha", {k::rational_quadratic}},
    };
    for (const auto& o : table) {
        if (!args.has(o.option) || std::find(o.kernels.begin(), o.kernels.end(), kernel) != o.kernels.end())
            continue;
        std::string owners;
        for (std::size_t i = 0; i < o.kernels.size(); ++i)
            owners += (i == 0 ? "" : ", ") + std::string(offline::kernel_name(o.kernels[i]));
        usage_error(std::string("option ") + o.option + " does not apply to kernel " + offline::kernel_name(kernel) +
                    " (it belongs to " + owners + ")");
    }
}

// --sigma S, or a data-driven bandwidth from --data X.npy: "median" (the median distance between
// rows, offline::median_heuristic_sigma) or "scale" (scikit-learn's gamma='scale'). The rule and the
// value chosen go to *note for the build's report; inspect shows the stored sigma.
double sigma_from(const arguments& args, unsigned input_dim, std::string* note) {
    const std::string text = args.value_or("--sigma", "");
    const bool from_data = text == "median" || text == "scale";
    const bool nystroem = args.value_or("--method", "") == "nystroem";  // its landmarks come from --data too
    if (args.has("--data") && !from_data && !nystroem)
        usage_error("--data is only used by --sigma median or --sigma scale, and by --method nystroem");
    if (!from_data) return args.real("--sigma", 1.0);
    if (!args.has("--data")) usage_error("--sigma " + text + " needs --data X.npy (the rows it is computed from)");
    const offline::npy_array x = offline::read_npy(args.value("--data"));
    if (x.cols != input_dim)
        usage_error("--data has " + std::to_string(x.cols) + " columns but --input-dim is " + std::to_string(input_dim));
    require_finite("--data", x.data.data(), x.rows, x.cols);
    const double sigma = text == "median" ? offline::median_heuristic_sigma(x.data.data(), x.rows, x.cols)
                                          : offline::variance_scale_sigma(x.data.data(), x.rows, x.cols);
    if (note != nullptr) *note = ", sigma " + json_number(sigma) + " from --sigma " + text;
    return sigma;
}

// Nystroem: m = --landmarks (its D) chosen among the rows of --data (or the caller's `rows`) by --landmark-init.
void nystroem_options(const arguments& args, const offline::npy_array* rows, offline::build_options* options) {
    if (args.has("--features")) usage_error("nystroem makes one feature per landmark: give --landmarks m, not --features");
    if (rows == nullptr && !args.has("--data"))
        usage_error("nystroem needs --data X.npy (the rows its landmarks are chosen from)");
    args.value("--landmarks");  // a usage error when absent
    options->features = args.u32("--landmarks", 0);
    options->landmark_init = args.value_or("--landmark-init", options->landmark_init);
    offline::npy_array x = rows != nullptr ? *rows : offline::read_npy(args.value("--data"));
    if (x.cols != options->input_dim)
        usage_error("--data has " + std::to_string(x.cols) + " columns but --input-dim is " +
                    std::to_string(options->input_dim));
    require_finite("--data", x.data.data(), x.rows, x.cols);
    options->data_rows = x.rows;
    options->data = std::move(x.data);
}

}  // namespace

const std::vector<option_spec>& build_option_specs() {
    static const std::vector<option_spec> specs = {
        {"--method", true},        {"--kernel", true},      {"--input-dim", true},
        {"--features", true},      {"--seed", true},        {"--sigma", true},
        {"--order", true},         {"--degree", true},      {"--scale", true},
        {"--weights", true},       {"--sigmas", true},      {"--data", true},
        {"--radial-points", true}, {"--radial-rule", true}, {"--sweeps", true},
        {"--fft-size", true},      {"--resample-radii", false}, {"--spectral", true},
        {"--directions", true},    {"--progress", false},   {"--haar-rotations", false},
        {"--arccos-pairs", true},  {"--nu", true},         {"--alpha", true},
        {"--partial-rule", false}, {"--gq-nodes", true},
        {"--landmarks", true},     {"--landmark-init", true}};
    return specs;
}

offline::build_options build_options_from(const arguments& args, std::string* sigma_note,
                                          const offline::npy_array* rows) {
    offline::build_options options;
    if (!offline::method_from_name(args.value("--method"), &options.method))
        usage_error("unknown method '" + args.value("--method") + "' (see 'kfm help build')");
    if (!offline::kernel_from_name(args.value("--kernel"), &options.kernel.kind))
        usage_error("unknown kernel '" + args.value("--kernel") + "' (see 'kfm help build')");
    reject_foreign_kernel_options(args, options.kernel.kind);
    args.value("--input-dim");  // a usage error when absent
    options.input_dim = args.u32("--input-dim", 0, 1);
    if (options.method == format::method::nystroem) {
        nystroem_options(args, rows, &options);
    } else {
        if (args.has("--landmarks") || args.has("--landmark-init"))
            usage_error("--landmarks and --landmark-init belong to --method nystroem");
        args.value("--features");
        options.features = args.u32("--features", 0, 1);
    }
    options.seed = args.u64("--seed", options.seed);

    options.kernel.sigma = sigma_from(args, options.input_dim, sigma_note);
    options.kernel.order = args.u32("--order", options.kernel.order);
    options.arccos_pairs = args.value_or("--arccos-pairs", options.arccos_pairs);
    options.kernel.degree = args.u32("--degree", options.kernel.degree);
    options.kernel.scale = args.real("--scale", options.kernel.scale);
    options.kernel.weights = args.reals("--weights");
    options.kernel.sigmas = args.reals("--sigmas");
    if (options.kernel.kind == format::kernel::delta_gaussian &&
        (options.kernel.weights.empty() || options.kernel.weights.size() != options.kernel.sigmas.size()))
        usage_error("kernel delta-gaussian needs --weights and --sigmas with the same number of values");
    if (options.kernel.kind == format::kernel::matern) {
        if (!args.has("--nu")) usage_error("kernel matern needs --nu NU (e.g. 0.5, 1.5 or 2.5)");
        options.kernel.nu = args.real("--nu", options.kernel.nu);
    }
    if (options.kernel.kind == format::kernel::rational_quadratic) {
        if (!args.has("--alpha")) usage_error("kernel rational-quadratic needs --alpha A");
        options.kernel.alpha = args.real("--alpha", options.kernel.alpha);
    }

    options.radial_points = args.u32("--radial-points", options.radial_points);
    options.radial_rule = args.value_or("--radial-rule", options.radial_rule);
    options.sweeps = args.u32("--sweeps", options.sweeps);
    options.fft_size = args.value_or("--fft-size", "") == "smallest" ? offline::ssf_fft_size_smallest
                                                                     : args.u32("--fft-size", options.fft_size, 2);
    options.resample_radii = args.has("--resample-radii");
    options.haar_rotations = args.has("--haar-rotations");
    options.partial_rule = args.has("--partial-rule");
    options.gq_nodes = args.u32("--gq-nodes", options.gq_nodes);
    options.spectral = args.value_or("--spectral", options.spectral);
    options.directions = args.value_or("--directions", options.directions);
    options.show_progress = args.has("--progress");
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
