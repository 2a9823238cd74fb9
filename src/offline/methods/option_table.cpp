// The build option table (include/kfm/build_registry.hpp): one row per option with its help and how
// its value is stored into build_options, and the checks every front end (kfm build, Python) shares.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "kfm/build_registry.hpp"

namespace kfm::offline {
namespace {

using k = format::kernel;

constexpr std::uint32_t fourier_kernels =
    kernel_bit(k::gaussian) | kernel_bit(k::matern) | kernel_bit(k::rational_quadratic) | kernel_bit(k::laplacian);

unsigned as_count(const option_value& v, option id, spelling s, unsigned min_value = 0) {
    const std::string name = option_text(id, s);
    const std::uint64_t n = parse_unsigned(name, v.text, std::numeric_limits<std::uint32_t>::max());
    if (n < min_value) throw option_error(name + " must be at least " + std::to_string(min_value) + ", got " + v.text);
    return unsigned(n);
}

double as_real(const option_value& v, option id, spelling s) { return parse_finite(option_text(id, s), v.text); }

std::vector<double> as_reals(const option_value& v, option id, spelling s) {
    std::vector<double> out;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = v.text.find(',', begin);
        out.push_back(as_real({v.text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)}, id, s));
        if (comma == std::string::npos) return out;
        begin = comma + 1;
    }
}

template <class E>
E as_choice(const option_value& v, option id, spelling s) {
    E value{};
    if (choice_from_name(v.text, &value)) return value;
    std::string names;
    const auto table = names_of(E{});
    for (std::size_t i = 0; i < table.size(); ++i)
        names += std::string(i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + table[i].name;
    throw option_error("unknown " + option_text(id, s) + " '" + v.text + "' (" + names + ")");
}

template <class E>
std::vector<const char*> names(E) {
    std::vector<const char*> out;
    for (const auto& n : names_of(E{})) out.push_back(n.name);
    return out;
}

// Set by build_options_from before the table's rows apply.
void nothing(build_options&, const option_value&, spelling) {}

const std::vector<option_row>& rows() {
    using o = option;
    using t = option_type;
    using g = option_group;
    static const std::vector<option_row> table = {
        {o::method, "method", t::choice, "M", {}, "", g::general, 0,
         "one of the methods below (nystroem: --landmarks m and --data X.npy instead\n"
         "of --features)",
         nothing},
        {o::kernel, "kernel", t::choice, "K", {}, "", g::general, 0,
         "gaussian | arccos | polynomial-sphere | delta-gaussian | matern |\n"
         "rational-quadratic | laplacian (the methods below list the kernels each\n"
         "builds; quadrature needs nu > 1, alpha > 1, nystroem nu = 0.5, 1.5 or 2.5)",
         nothing},
        {o::input_dim, "input-dim", t::count, "d", {}, "", g::general, 0, "input dimension",
         [](build_options& b, const option_value& v, spelling s) { b.input_dim = as_count(v, o::input_dim, s, 1); }},
        {o::features, "features", t::count, "D", {}, "", g::general, 0,
         "requested output dimension; a method with a natural granularity rounds it\n"
         "('kfm inspect' reports the real output_dim)",
         [](build_options& b, const option_value& v, spelling s) { b.features = as_count(v, o::features, s, 1); }},
        {o::seed, "seed", t::seed, "S", {}, "1", g::general, 0,
         "random seed (default 1); the same seed and options give the same bytes",
         [](build_options& b, const option_value& v, spelling s) { b.seed = parse_unsigned(option_text(o::seed, s), v.text); }},

        {o::sigma, "sigma", t::real, "S", {}, "1", g::kernel, fourier_kernels,
         "gaussian: exp(-|x-y|^2 / (2 S^2)) (default 1); matern, rational-quadratic: the\n"
         "length l; laplacian: exp(-|x-y|_1 / S), the L1 distance. S may be computed from data:\n"
         "--sigma median --data X.npy   S = the median distance between rows of X (at most 1000 evenly\n"
         "spaced rows; the lower median)\n"
         "--sigma scale --data X.npy    S = sqrt(d Var(X) / 2), scikit-learn's gamma='scale' (1 / (d Var));\n"
         "X must have d = --input-dim columns and finite values; inspect shows the S chosen",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.sigma = as_real(v, o::sigma, s); }},
        {o::nu, "nu", t::real, "NU", {}, "", g::kernel, kernel_bit(k::matern),
         "matern smoothness, 0 < NU <= 100 (required): NU = 0.5 is exp(-r/l),\n"
         "1.5 is (1 + sqrt(3) r/l) exp(-sqrt(3) r/l), r = |x-y|",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.nu = as_real(v, o::nu, s); }},
        {o::alpha, "alpha", t::real, "A", {}, "", g::kernel, kernel_bit(k::rational_quadratic),
         "rational-quadratic A > 0 (required): (1 + |x-y|^2 / (2 A l^2))^(-A)",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.alpha = as_real(v, o::alpha, s); }},
        {o::order, "order", t::count, "b", {}, "0", g::kernel, kernel_bit(k::arccos),
         "arccos order 0, 1 or 2 (default 0)",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.order = as_count(v, o::order, s); }},
        {o::arccos_pairs, "arccos-pairs", t::choice, "P", names(arccos_pairs_kind{}), "reflected", g::kernel,
         kernel_bit(k::arccos),
         "arccos with rff | orf | qmc | sorf: reflected (default: D/2 directions w, each\n"
         "giving the pair f(w.x), f(-w.x); lower error) | plain (D directions, one each)",
         [](build_options& b, const option_value& v, spelling s) {
             b.arccos_pairs = as_choice<arccos_pairs_kind>(v, o::arccos_pairs, s);
         }},
        {o::degree, "degree", t::count, "p", {}, "1", g::kernel, kernel_bit(k::polynomial_sphere),
         "polynomial-sphere degree p >= 1 (default 1)",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.degree = as_count(v, o::degree, s); }},
        {o::scale, "scale", t::real, "a", {}, "2", g::kernel, kernel_bit(k::polynomial_sphere),
         "polynomial-sphere a >= 2: (1 - |x-y|^2/a^2)^p on unit-norm inputs (default 2)",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.scale = as_real(v, o::scale, s); }},
        {o::weights, "weights", t::reals, "c1,c2,..", {}, "", g::kernel, kernel_bit(k::delta_gaussian),
         "delta-gaussian mixture weights (any sign)",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.weights = as_reals(v, o::weights, s); }},
        {o::sigmas, "sigmas", t::reals, "s1,s2,..", {}, "", g::kernel, kernel_bit(k::delta_gaussian),
         "delta-gaussian bandwidths: sum_i c_i exp(-|x-y|^2 / (2 s_i^2))",
         [](build_options& b, const option_value& v, spelling s) { b.kernel.sigmas = as_reals(v, o::sigmas, s); }},

        {o::radial_points, "radial-points", t::count, "M", {}, "", g::method, 0,
         "SSF radial points per direction, M >= 1 (default: the rule's, 2 antithetic,\n"
         "else 1)",
         [](build_options& b, const option_value& v, spelling s) { b.radial_points = as_count(v, o::radial_points, s, 1); }},
        {o::radial_rule, "radial-rule", t::choice, "R", names(radial_rule_kind{}), "auto", g::method, 0,
         "SSF radial rule: auto (default) | midpoint | shifted | antithetic |\n"
         "stratified; gaussian auto = antithetic (M = 2, radii at quantiles U, 1 - U\n"
         "per direction; unbiased) when d <= 32 and D/4 directions fill a block of\n"
         "the smallest FFT length, else midpoint (M = 1; the old default, biased: its\n"
         "error stops falling); matern / rational-quadratic auto = stratified (one\n"
         "radius per direction, the map's radii one per stratum of the radial law).\n"
         "Quadrature: auto | shifted (independent radii, the paper's) | stratified;\n"
         "auto = stratified for matern / rational-quadratic, else shifted",
         [](build_options& b, const option_value& v, spelling s) {
             b.radial_rule = as_choice<radial_rule_kind>(v, o::radial_rule, s);
         }},
        {o::sweeps, "sweeps", t::count, "T", {}, "10", g::method, 0, "SSF index-set optimiser sweeps (default 10)",
         [](build_options& b, const option_value& v, spelling s) { b.sweeps = as_count(v, o::sweeps, s); }},
        {o::fft_size, "fft-size", t::count, "n", {}, "", g::method, 0,
         "SSF FFT length, a power of two > d/2, or smallest (blocks of the smallest\n"
         "length sharing one index set: the old default, faster, about 10% higher\n"
         "error for arccos on LETTER at D = 8d, 16d). Default: one block holding every\n"
         "direction (the SSF paper's layout), at most 8x the smallest length and\n"
         "m n <= 2^19 (m = d/2); past that, blocks of the capped length",
         [](build_options& b, const option_value& v, spelling s) {
             b.fft_size = v.text == "smallest" ? ssf_fft_size_smallest : as_count(v, o::fft_size, s, 2);
         }},
        {o::resample_radii, "resample-radii", t::flag, "", {}, "", g::method, 0,
         "quadrature: the paper's biased variant (radius resampled until a0 >= 0)",
         [](build_options& b, const option_value&, spelling) { b.resample_radii = true; }},
        {o::haar_rotations, "haar-rotations", t::flag, "", {}, "", g::method, 0,
         "quadrature: dense Haar rotations instead of butterflies (accuracy reference)",
         [](build_options& b, const option_value&, spelling) { b.haar_rotations = true; }},
        {o::partial_rule, "partial-rule", t::flag, "", {}, "", g::method, 0,
         "quadrature: exactly D outputs (D/2 points, D even), the last rule truncated\n"
         "(default: D rounded to whole rules of 2 (d + 1))",
         [](build_options& b, const option_value&, spelling) { b.partial_rule = true; }},
        {o::permutation, "permutation", t::choice, "P", names(permutation_kind{}), "uniform", g::method, 0,
         "quadrature: the butterflies' gather permutations, uniform (default, the\n"
         "paper's) | blocked (d a multiple of 8: groups of eight inputs move whole, so\n"
         "AVX2 / AVX-512 gather a register with one permute; single vectors 0.89-0.94x\n"
         "the time from d = 64 on AVX2, Gram error 1-3% higher)",
         [](build_options& b, const option_value& v, spelling s) {
             b.permutation = as_choice<permutation_kind>(v, o::permutation, s);
         }},
        {o::gq_nodes, "gq-nodes", t::count, "N", {}, "2", g::method, 0,
         "gq: Gauss-Hermite nodes per coordinate, 2..64 (default 2, quffka's)",
         [](build_options& b, const option_value& v, spelling s) { b.gq_nodes = as_count(v, o::gq_nodes, s); }},
        {o::spectral, "spectral", t::choice, "S", names(spectral_kind{}), "signed-mixture", g::method, 0,
         "GORF/GRFF polynomial-sphere spectral model: signed-mixture (default; unbiased)\n"
         "| bessel-1d (the GORF paper's model, kept to reproduce it; biased: its\n"
         "kernel is +0.15 above K at |x-y| = 2 for a = 3, p = 1)",
         [](build_options& b, const option_value& v, spelling s) {
             b.spectral = as_choice<spectral_kind>(v, o::spectral, s);
         }},
        {o::directions, "directions", t::choice, "D", names(directions_kind{}), "dense", g::method, 0,
         "SRF/GORF directions: dense | hadamard | butterfly (default dense)",
         [](build_options& b, const option_value& v, spelling s) {
             b.directions = as_choice<directions_kind>(v, o::directions, s);
         }},
        {o::landmarks, "landmarks", t::count, "m", {}, "", g::method, 0,
         "nystroem: D = m landmarks, rows of --data X.npy (1 <= m <= rows of X); the\n"
         "file stores them and K_mm^{-1/2}, so it depends on X",
         [](build_options& b, const option_value& v, spelling s) { b.features = as_count(v, o::landmarks, s); }},
        {o::landmark_init, "landmark-init", t::choice, "I", names(landmark_init_kind{}), "uniform", g::method, 0,
         "nystroem: uniform (default; without replacement) | kmeans++ (D^2 seeding)",
         [](build_options& b, const option_value& v, spelling s) {
             b.landmark_init = as_choice<landmark_init_kind>(v, o::landmark_init, s);
         }},
        {o::data, "data", t::path, "X.npy", {}, "", g::method, 0,
         "the rows --sigma median | scale computes S from, nystroem's landmarks are\n"
         "chosen from, and maclaurin-opt is fitted to (float32/float64/integer,\n"
         "d = --input-dim columns, finite)",
         nothing},
        {o::progress, "progress", t::flag, "", {}, "", g::method, 0, "show optimiser progress on stderr",
         [](build_options& b, const option_value&, spelling) { b.show_progress = true; }},
    };
    return table;
}

const option_value* value_of(const std::vector<std::pair<std::string, option_value>>& options, option id, spelling s) {
    for (const auto& [name, value] : options)
        if (find_option(name, s) == &option_info(id)) return &value;
    return nullptr;
}

bool given(const std::vector<std::pair<std::string, option_value>>& options, option id, spelling s) {
    return value_of(options, id, s) != nullptr;
}

// The data set of a landmarks_from_data method: input_dim columns of finite values (a NaN is a bad
// input, not a bad option: std::invalid_argument).
void take_rows(build_options& options, const float* rows, std::size_t row_count, std::size_t cols, spelling s) {
    const std::string data = option_text(option::data, s);
    if (cols != options.input_dim)
        throw option_error(data + " has " + std::to_string(cols) + " columns but " + option_text(option::input_dim, s) +
                           " is " + std::to_string(options.input_dim));
    for (std::size_t i = 0; i < row_count; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            if (!std::isfinite(rows[i * cols + j]))
                throw std::invalid_argument(data + ": row " + std::to_string(i) + ", column " + std::to_string(j) +
                                            " is " + (std::isnan(rows[i * cols + j]) ? "NaN" : "infinite") +
                                            " (the map needs finite inputs)");
    options.data.assign(rows, rows + row_count * cols);
    options.data_rows = row_count;
}

// A required option: option_error naming it when absent.
const option_value& required(const std::vector<std::pair<std::string, option_value>>& options, option id, spelling s) {
    const option_value* v = value_of(options, id, s);
    if (v == nullptr)
        throw option_error(s == spelling::command_line ? "'kfm build' needs " + option_text(id, s) + " (see 'kfm help build')"
                                                       : "build needs " + option_text(id, s));
    return *v;
}

std::string joined_kernels(std::uint32_t bits) {
    std::string out;
    for (format::kernel kernel : kernels_in(bits)) out += std::string(out.empty() ? "" : ", ") + kernel_name(kernel);
    return out;
}

std::string landmark_methods(spelling s) {
    std::string out;
    for (const method_row& m : method_table())
        if (m.landmarks_from_data) out += std::string(out.empty() ? "" : " or ") + method_name(m.id);
    return option_text(option::method, s) + " " + out;
}

// The methods that read --data: the landmark ones and those fitted to the rows.
std::string data_methods(spelling s) {
    std::string out;
    for (const method_row& m : method_table())
        if (m.landmarks_from_data || m.fitted_to_data) out += std::string(out.empty() ? "" : " or ") + method_name(m.id);
    return option_text(option::method, s) + " " + out;
}

// The methods whose registry rows list `id` among the options they read ("" for an option none lists).
std::string methods_reading(option id) {
    std::string out;
    for (const method_row& m : method_table())
        if (std::find(m.options.begin(), m.options.end(), id) != m.options.end())
            out += std::string(out.empty() ? "" : ", ") + method_name(m.id);
    return out;
}

}  // namespace

std::span<const option_row> option_table() { return rows(); }

std::vector<format::kernel> kernels_in(std::uint32_t bits) {
    std::vector<format::kernel> out;
    for (unsigned i = 1; i < 32; ++i)
        if (bits & (1u << i)) out.push_back(format::kernel(i));
    return out;
}

const option_row& option_info(option id) {
    for (const option_row& r : rows())
        if (r.id == id) return r;
    throw std::logic_error("option without a row in the option table");
}

const option_row* find_option(const std::string& name, spelling s) {
    for (const option_row& r : rows())
        if (name == option_text(r.id, s)) return &r;
    return nullptr;
}

std::string option_text(option id, spelling s) {
    std::string name = option_info(id).name;
    if (s == spelling::command_line) return "--" + name;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

std::uint64_t parse_unsigned(const std::string& name, const std::string& text, std::uint64_t max) {
    const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits_only) throw option_error(name + " expects a non-negative integer, got '" + text + "'");
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v > max) throw option_error(name + " value '" + text + "' is too large");
    return v;
}

double parse_finite(const std::string& name, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || text.find_first_of(" \t\n") != std::string::npos)
        throw option_error(name + " expects a number, got '" + text + "'");
    // strtod also reads C's hexadecimal floats ("0x10" is 16): a typo there would build silently.
    if (text.find_first_of("xX") != std::string::npos)
        throw option_error(name + " expects a decimal number, got '" + text + "'");
    if (!std::isfinite(v)) throw option_error(name + " value '" + text + "' is not a finite number");
    // ERANGE with a finite result is underflow: a subnormal is a valid value (whether it is usable is
    // the builder's call), only a non-zero text that rounds to zero is unrepresentable.
    if (errno == ERANGE && v == 0.0)
        throw option_error(name + " " + text + " is too small: it is below the smallest double and rounds to 0");
    return v;
}

build_options build_options_from(const std::vector<std::pair<std::string, option_value>>& given_options, spelling s,
                                 const float* rows, std::size_t row_count, std::size_t cols) {
    const auto& g = given_options;
    for (const auto& [name, value] : g)
        if (find_option(name, s) == nullptr)
            throw option_error("unknown option '" + name + "'" +
                               (s == spelling::command_line ? " for 'kfm build' (see 'kfm help build')" : ""));
    build_options options;
    options.option_names = s;
    const option_value& method = required(g, option::method, s);
    if (!method_from_name(method.text, &options.method))
        throw option_error("unknown method '" + method.text + "' (see 'kfm help build')");
    const option_value& kernel = required(g, option::kernel, s);
    if (!kernel_from_name(kernel.text, &options.kernel.kind))
        throw option_error("unknown kernel '" + kernel.text + "' (see 'kfm help build')");
    // Kernel options given to another kernel are a mistake worth reporting rather than ignoring.
    for (const option_row& r : option_table())
        if (r.kernels != 0 && given(g, r.id, s) && !(r.kernels & kernel_bit(options.kernel.kind)))
            throw option_error("option " + option_text(r.id, s) + " does not apply to kernel " +
                               kernel_name(options.kernel.kind) + " (it belongs to " + joined_kernels(r.kernels) + ")");
    option_info(option::input_dim).apply(options, required(g, option::input_dim, s), s);

    const method_row* row = find_method(options.method);
    if (row != nullptr && row->landmarks_from_data) {
        const std::string name = method_name(options.method);
        if (given(g, option::features, s))
            throw option_error(name + " makes one feature per landmark: give " + option_text(option::landmarks, s) +
                               " m, not " + option_text(option::features, s));
        if (rows == nullptr)
            throw option_error(name + " needs " + option_text(option::data, s) +
                               (s == spelling::command_line ? " X.npy" : "") + " (the rows its landmarks are chosen from)");
        option_info(option::landmarks).apply(options, required(g, option::landmarks, s), s);
        take_rows(options, rows, row_count, cols, s);
    } else {
        if (given(g, option::landmarks, s) || given(g, option::landmark_init, s))
            throw option_error(option_text(option::landmarks, s) + " and " + option_text(option::landmark_init, s) +
                               " belong to " + landmark_methods(s));
        const bool fitted = row != nullptr && row->fitted_to_data;
        if (fitted && rows == nullptr)
            throw option_error(std::string(method_name(options.method)) + " needs " + option_text(option::data, s) +
                               (s == spelling::command_line ? " X.npy" : "") + " (the rows it is fitted to)");
        if (!fitted && rows != nullptr) throw option_error(option_text(option::data, s) + " is only used by " + data_methods(s));
        option_info(option::features).apply(options, required(g, option::features, s), s);
        if (fitted) take_rows(options, rows, row_count, cols, s);
    }
    for (const option_row& r : option_table()) {
        const bool done = r.id == option::method || r.id == option::kernel || r.id == option::input_dim ||
                          r.id == option::features || r.id == option::landmarks;
        if (const option_value* v = value_of(g, r.id, s); v != nullptr && !done) r.apply(options, *v, s);
    }
    // So are options of other methods (rff --fft-size 8 was built as if it were not given); checked once
    // their values parse, so a malformed value is named as such first.
    for (const option_row& r : option_table()) {
        const std::string readers = methods_reading(r.id);
        if (row != nullptr && !readers.empty() && given(g, r.id, s) &&
            std::find(row->options.begin(), row->options.end(), r.id) == row->options.end())
            throw option_error("option " + option_text(r.id, s) + " does not apply to method " +
                               method_name(options.method) + " (it belongs to " + readers + ")");
    }

    const kernel_spec& spec = options.kernel;
    if (spec.kind == k::delta_gaussian && (spec.weights.empty() || spec.weights.size() != spec.sigmas.size()))
        throw option_error("kernel delta-gaussian needs " + option_text(option::weights, s) + " and " +
                           option_text(option::sigmas, s) + " with the same number of values");
    if (spec.kind == k::matern && !given(g, option::nu, s))
        throw option_error("kernel matern needs " + option_text(option::nu, s) + " NU (e.g. 0.5, 1.5 or 2.5)");
    if (spec.kind == k::rational_quadratic && !given(g, option::alpha, s))
        throw option_error("kernel rational-quadratic needs " + option_text(option::alpha, s) + " A");

    return options;
}

}  // namespace kfm::offline
