// Dispatches a build request to the builder of its method (the method registry, registry.cpp), between
// checks shared by every method:
// the requested dimensions against the format's limits (before the builder allocates anything), and the
// built map's dimensions and stored values (so that an impossible request is reported with the option
// that caused it rather than as a file the runtime refuses).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kfm/build_registry.hpp"
#include "offline/sampling/fourier_kernels.hpp"

namespace kfm::offline {
namespace {

const std::string limit_text = std::to_string(format::max_dim) + " (2^24, the largest dimension kfm::open accepts)";

[[noreturn]] void over_limit(const std::string& what) {
    throw std::invalid_argument(what + " is above the limit of " + limit_text);
}

// Before any builder runs: the requested sizes fit the format.
void check_requested_dims(const build_options& o, const method_row& method) {
    const std::string input_dim = option_name(o, option::input_dim), features = option_name(o, option::features);
    if (o.input_dim > format::max_dim) over_limit(input_dim + " " + std::to_string(o.input_dim));
    if (o.features > format::max_dim) over_limit(features + " " + std::to_string(o.features));
    const std::uint64_t least = method.least_output_dim != nullptr ? method.least_output_dim(o) : o.features;
    if (least > format::max_dim)
        over_limit(features + " " + std::to_string(o.features) + " with " + input_dim + " " + std::to_string(o.input_dim) +
                   " gives " + method_name(o.method) + " at least " + std::to_string(least) + " outputs, which");
}

// After the build: the exact dimensions the method chose.
void check_built_dims(const build_options& o, const format::map_meta& m) {
    const auto check = [&](const char* field, std::uint32_t value, option id, std::uint32_t requested) {
        if (value > format::max_dim)
            over_limit(option_name(o, id) + " " + std::to_string(requested) + " makes the " + method_name(o.method) +
                       " map's " + field + " " + std::to_string(value) + ", which");
    };
    check("work_dim", m.work_dim, option::input_dim, o.input_dim);
    check("projection_dim", m.projection_dim, option::features, o.features);
    check("output_dim", m.output_dim, option::features, o.features);
}

std::string shortest(double v) {
    char text[32];
    const auto r = std::to_chars(text, text + sizeof text, v);
    return std::string(text, r.ptr);
}

// The option whose value scales the stored values of this kernel, quoted with its value and what is
// wrong with it (frequencies scale as 1 / sigma, so only a tiny bandwidth overflows them; Matérn and the
// rational quadratic draw heavy-tailed frequencies, the heavier the smaller nu or alpha).
std::string scaling_option(const build_options& o) {
    const kernel_spec& k = o.kernel;
    const std::string sigma = option_name(o, option::sigma), nu = option_name(o, option::nu),
                      alpha = option_name(o, option::alpha);
    switch (k.kind) {
        case format::kernel::matern:
            return nu + " " + shortest(k.nu) + " with " + sigma + " " + shortest(k.sigma) +
                   " is too small (a small nu draws heavy-tailed frequencies; raise " + nu + " or " + sigma + ")";
        case format::kernel::rational_quadratic:
            return alpha + " " + shortest(k.alpha) + " with " + sigma + " " + shortest(k.sigma) +
                   " is too small (a small alpha draws heavy-tailed frequencies; raise " + alpha + " or " + sigma + ")";
        case format::kernel::gaussian:
        case format::kernel::laplacian: return sigma + " " + shortest(k.sigma) + " is too small";
        case format::kernel::delta_gaussian: return option_name(o, option::sigmas) + ": a bandwidth is too small";
        case format::kernel::polynomial_sphere: return option_name(o, option::scale) + " " + shortest(k.scale) + " is out of range";
        default: return "";
    }
}

std::string tag_text(std::uint32_t tag) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += static_cast<char>((tag >> (8 * i)) & 0xffu);
    return s;
}

template <class T>
bool all_finite(const std::vector<std::uint8_t>& bytes) {
    for (std::size_t i = 0; i + sizeof(T) <= bytes.size(); i += sizeof(T)) {
        T v;
        std::memcpy(&v, bytes.data() + i, sizeof(T));
        if (!std::isfinite(v)) return false;
    }
    return true;
}

// The feature segments' float scale and weight (a record section, so all_finite does not see them).
bool segments_finite(const section& s) {
    for (std::size_t i = 0; i + sizeof(format::feature_segment) <= s.bytes.size(); i += sizeof(format::feature_segment)) {
        format::feature_segment segment;
        std::memcpy(&segment, s.bytes.data() + i, sizeof segment);
        if (!std::isfinite(segment.scale) || !std::isfinite(segment.weight)) return false;
    }
    return true;
}

// Stored floating-point values overflow (to Inf or NaN) when a bandwidth is extreme, e.g. W / sigma
// for a sigma of 1e-300, or sqrt(q) appended to the input for a polynomial-sphere scale of 1e200; the
// runtime refuses such a file, so name the option instead.
void check_built_values(const build_options& o, const map_contents& map) {
    const auto refuse = [&](const std::string& what) {
        const std::string culprit = scaling_option(o);
        throw std::invalid_argument(culprit.empty() ? what : culprit + ": " + what);
    };
    for (const section& s : map.sections) {
        const bool finite = s.type == format::dtype::f32   ? all_finite<float>(s.bytes)
                            : s.type == format::dtype::f64 ? all_finite<double>(s.bytes)
                            : s.tag == format::tag::segments ? segments_finite(s)
                                                           : true;
        if (!finite) refuse("the map's " + tag_text(s.tag) + " section would hold values that are not finite");
    }
    if (!std::isfinite(map.meta.input_append)) refuse("the value the map appends to its input (META input_append) would not be finite");
}

// open's status for the built map (in the scalar kernels: the contract does not depend on the ISA).
status open_status(const map_contents& map) {
    const std::vector<std::uint8_t> bytes = serialize(map);
    std::vector<std::uint64_t> aligned((bytes.size() + 7) / 8);
    std::memcpy(aligned.data(), bytes.data(), bytes.size());
    kfm::map opened;
    return kfm::open(aligned.data(), bytes.size(), &opened, isa::scalar);
}

// The largest polynomial degree below o's whose map passes the finite-output contract with every other
// option unchanged (0 when none does), found by bisection: the products' bound grows with the degree.
// Only on the error path, so the extra builds cost nothing when the request is fine.
std::uint32_t largest_degree_within_contract(const build_options& o, const method_row& method) {
    build_options lower = o;
    std::uint32_t passes = 0, fails = o.kernel.degree;
    while (fails - passes > 1) {
        lower.kernel.degree = passes + (fails - passes) / 2;
        bool ok = false;
        try {
            ok = open_status(method.build(lower)) == status::ok;
        } catch (const std::invalid_argument&) {
        }
        (ok ? passes : fails) = lower.kernel.degree;
    }
    return passes;
}

// Two refusals of open that the options cause. The kernel's parameters as the runtime computes them in
// float (nystroem's -1/(2 sigma^2) for a sigma of 1e-30) must be finite; and the finite-output contract
// (docs/format.md): open refuses a map whose stored values could turn an input with |x_i| <= 2^20 into
// Inf or NaN. Name the options instead.
void check_open_refusals(const build_options& o, const method_row& method, const map_contents& map) {
    const status s = open_status(map);
    if (s == status::bad_parameter_value && !scaling_option(o).empty())
        throw std::invalid_argument(scaling_option(o) +
                                    ": the kernel's parameters in the runtime's float arithmetic would not be finite");
    if (s != status::value_too_large) return;
    std::string culprit = scaling_option(o);
    if (o.kernel.kind == format::kernel::polynomial_sphere) {
        const std::uint32_t largest = largest_degree_within_contract(o, method);
        culprit = option_name(o, option::degree) + " " + std::to_string(o.kernel.degree) + " with " +
                  option_name(o, option::input_dim) + " " + std::to_string(o.input_dim) + " and " +
                  option_name(o, option::scale) + " " + shortest(o.kernel.scale) + " is too large (" +
                  (largest == 0 ? std::string("no degree is within the bound there")
                                : "the largest degree within the bound there is " + std::to_string(largest)) +
                  ")";
    }
    throw std::invalid_argument((culprit.empty() ? std::string(method_name(o.method)) : culprit) +
                                ": the map's stored values are so large that an input with |x_i| <= " +
                                std::to_string(format::max_input_abs) +
                                " could give Inf or NaN features (kfm's finite-output contract; kfm::open refuses the map)");
}

// Every choice field holds a value of its name table (a caller may cast any number into the enum).
void check_choices(const build_options& o) {
    const auto check = [&](const char* value_name, option id) {
        if (value_name == nullptr)
            throw std::invalid_argument(option_name(o, id) + " holds a value outside its choices");
    };
    check(choice_name(o.arccos_pairs), option::arccos_pairs);
    check(choice_name(o.radial_rule), option::radial_rule);
    check(choice_name(o.spectral), option::spectral);
    check(choice_name(o.directions), option::directions);
    check(choice_name(o.landmark_init), option::landmark_init);
}

}  // namespace

map_contents build_map(const build_options& options) {
    const method_row* method = find_method(options.method);
    if (method == nullptr)
        throw std::invalid_argument(std::string("method '") + method_name(options.method) +
                                    "' is not available in this build");
    check_choices(options);
    check_requested_dims(options, *method);
    check_method_supports(options.method, options.kernel.kind);
    map_contents map = method->build(options);
    check_built_dims(options, map.meta);
    check_built_values(options, map);
    check_open_refusals(options, *method, map);
    return map;
}

}  // namespace kfm::offline
