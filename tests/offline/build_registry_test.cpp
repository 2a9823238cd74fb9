// The method registry and the option table (include/kfm/build_registry.hpp): the registry covers exactly
// the format's methods 1..method_last, each method builds exactly the kernels its row lists, the options
// a row lists exist as method options, and the option table parses, applies and refuses values with
// messages in the caller's spelling.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "kfm/build_registry.hpp"

namespace off = kfm::offline;
namespace fmt = kfm::format;

namespace {

// Small valid options for `m` with kernel `k` (the kernels' own parameters in range for every method).
off::build_options small_options(fmt::method m, fmt::kernel k) {
    off::build_options o;
    o.method = m;
    o.kernel.kind = k;
    o.input_dim = 8;
    o.features = 32;
    o.kernel.nu = 1.5;
    o.kernel.alpha = 2.0;
    o.kernel.scale = 3.0;
    o.kernel.weights = {1.0};
    o.kernel.sigmas = {1.0};
    const off::method_row* row = off::find_method(m);
    if (row != nullptr && (row->landmarks_from_data || row->fitted_to_data)) {
        o.data_rows = 40;
        o.data.resize(o.data_rows * o.input_dim);
        for (std::size_t i = 0; i < o.data.size(); ++i) o.data[i] = float(i * 37 % 17) / 17.0f;
        if (row->landmarks_from_data) o.features = 10;
    }
    return o;
}

using given_options = std::vector<std::pair<std::string, off::option_value>>;

}  // namespace

TEST_CASE("method registry: one row per format::method value 1..method_last, in value order") {
    const auto rows = off::method_table();
    REQUIRE(rows.size() == fmt::method_last);
    std::set<std::uint32_t> seen;
    for (const off::method_row& r : rows) {
        CAPTURE(off::method_name(r.id));
        seen.insert(static_cast<std::uint32_t>(r.id));
        CHECK(off::find_method(r.id) == &r);
        CHECK(bool(r.build));
        CHECK(r.kernels != 0);
        CHECK(std::string(r.summary).size() > 10);
        for (off::option o : r.options)
            CHECK((off::option_info(o).group == off::option_group::method || o == off::option::arccos_pairs));
    }
    CHECK(seen.size() == fmt::method_last);
    CHECK(*seen.begin() == 1u);
    CHECK(*seen.rbegin() == fmt::method_last);
    CHECK(off::find_method(fmt::method(fmt::method_last + 1)) == nullptr);
}

TEST_CASE("method registry: each method builds exactly the kernels its row lists") {
    for (const off::method_row& r : off::method_table())
        for (unsigned k = 1; k <= 7; ++k) {
            const auto kernel = fmt::kernel(k);
            CAPTURE(off::method_name(r.id));
            CAPTURE(off::kernel_name(kernel));
            if (r.kernels & off::kernel_bit(kernel)) CHECK_NOTHROW(off::build_map(small_options(r.id, kernel)));
            else CHECK_THROWS_AS(off::build_map(small_options(r.id, kernel)), std::invalid_argument);
        }
}

TEST_CASE("method registry: an unsupported fourier kernel names the methods that build it, from the registry") {
    CHECK_THROWS_WITH_AS(off::build_map(small_options(fmt::method::gorf, fmt::kernel::laplacian)),
                         doctest::Contains("; build it with rff, rff-phase or qmc"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(off::build_map(small_options(fmt::method::srf, fmt::kernel::matern)),
                         doctest::Contains("; build it with rff, rff-phase, orf, ssf, quadrature, sorf, qmc, fastfood or "
                                           "nystroem"),
                         std::invalid_argument);
}

TEST_CASE("option table: unique names, choices from the enums' name tables, both spellings") {
    std::set<std::string> names;
    for (const off::option_row& r : off::option_table()) {
        CAPTURE(r.name);
        CHECK(names.insert(r.name).second);
        CHECK(&off::option_info(r.id) == &r);
        CHECK(off::find_option("--" + std::string(r.name), off::spelling::command_line) == &r);
        std::string python = r.name;
        for (char& c : python) c = c == '-' ? '_' : c;
        CHECK(off::find_option(python, off::spelling::python) == &r);
        CHECK(off::option_text(r.id, off::spelling::python) == python);
        CHECK((r.type == off::option_type::choice) == (!r.choices.empty() || r.id == off::option::method ||
                                                       r.id == off::option::kernel));
        CHECK(std::string(r.help).size() > 10);
    }
    const auto& rule = off::option_info(off::option::radial_rule);
    REQUIRE(rule.choices.size() == std::size(off::radial_rule_names));
    for (std::size_t i = 0; i < rule.choices.size(); ++i) CHECK(std::string(rule.choices[i]) == off::radial_rule_names[i].name);
    CHECK(off::find_option("radial-rule", off::spelling::python) == nullptr);
    CHECK(off::find_option("--radial_rule", off::spelling::command_line) == nullptr);
}

TEST_CASE("option table: build_options_from applies every kind of value as kfm build does") {
    const given_options given = {{"method", {"ssf"}},          {"kernel", {"gaussian"}}, {"input_dim", {"16"}},
                                 {"features", {"64"}},         {"seed", {"18446744073709551615"}},
                                 {"sigma", {"2.5"}},           {"radial_rule", {"antithetic"}},
                                 {"radial_points", {"4"}},     {"fft_size", {"smallest"}},
                                 {"progress", {""}}};
    const off::build_options o = off::build_options_from(given, off::spelling::python);
    CHECK(o.method == fmt::method::ssf);
    CHECK(o.input_dim == 16);
    CHECK(o.features == 64);
    CHECK(o.seed == 18446744073709551615ull);
    CHECK(o.kernel.sigma == 2.5);
    CHECK(o.radial_rule == off::radial_rule_kind::antithetic);
    CHECK(o.radial_points == 4);
    CHECK(o.fft_size == off::ssf_fft_size_smallest);
    CHECK(o.show_progress);
    CHECK(o.option_names == off::spelling::python);
    // the same request through the table builds the same bytes as the options set by hand
    off::build_options by_hand;
    by_hand.method = fmt::method::ssf;
    by_hand.input_dim = 16;
    by_hand.features = 64;
    by_hand.seed = 18446744073709551615ull;
    by_hand.kernel.sigma = 2.5;
    by_hand.radial_rule = off::radial_rule_kind::antithetic;
    by_hand.radial_points = 4;
    by_hand.fft_size = off::ssf_fft_size_smallest;
    off::build_options quiet = o;
    quiet.show_progress = false;  // no progress lines in the test's output
    CHECK(off::serialize(off::build_map(quiet)) == off::serialize(off::build_map(by_hand)));
}

TEST_CASE("option table: refusals name the option in the caller's spelling") {
    const auto refused = [](const given_options& given, off::spelling s, const std::string& message) {
        CAPTURE(message);
        CHECK_THROWS_WITH_AS(off::build_options_from(given, s), doctest::Contains(message.c_str()), off::option_error);
    };
    const given_options base = {{"method", {"gq"}}, {"kernel", {"gaussian"}}, {"input_dim", {"4"}}, {"features", {"8"}}};
    auto with = [&](const char* name, const char* text) {
        given_options g = base;
        g.push_back({name, {text}});
        return g;
    };
    refused(with("landmark_init", "kmeans"), off::spelling::python, "landmarks and landmark_init belong to method nystroem");
    refused(with("directions", "circulant"), off::spelling::python, "unknown directions 'circulant' (dense, butterfly or hadamard)");
    refused(with("gq_nodes", "two"), off::spelling::python, "gq_nodes expects a non-negative integer, got 'two'");
    refused(with("gq_nodes", "4294967296"), off::spelling::python, "gq_nodes value '4294967296' is too large");
    refused(with("order", "1"), off::spelling::python, "option order does not apply to kernel gaussian (it belongs to arccos)");
    refused(with("sigma", "1e999"), off::spelling::python, "sigma value '1e999' is not a finite number");
    refused(with("colour", "red"), off::spelling::python, "unknown option 'colour'");
    refused(with("fft_size", "8"), off::spelling::python, "option fft_size does not apply to method gq (it belongs to ssf)");
    refused({{"method", {"gq"}}, {"kernel", {"gaussian"}}, {"input_dim", {"4"}}}, off::spelling::python, "build needs features");
    refused({{"--method", {"rff"}}, {"--kernel", {"matern"}}, {"--input-dim", {"4"}}, {"--features", {"8"}}},
            off::spelling::command_line, "kernel matern needs --nu NU");
    refused({{"--method", {"nystroem"}}, {"--kernel", {"gaussian"}}, {"--input-dim", {"4"}}, {"--landmarks", {"2"}}},
            off::spelling::command_line, "nystroem needs --data X.npy");
    // a builder's own message follows the spelling too
    off::build_options o = off::build_options_from(with("gq_nodes", "1"), off::spelling::python);
    CHECK_THROWS_WITH_AS(off::build_map(o), doctest::Contains("gq: gq_nodes 1 is outside 2.."), std::invalid_argument);
    o.option_names = off::spelling::command_line;
    CHECK_THROWS_WITH_AS(off::build_map(o), doctest::Contains("gq: --gq-nodes 1 is outside 2.."), std::invalid_argument);
}

TEST_CASE("build_map refuses a choice field holding a value outside its name table") {
    off::build_options o = small_options(fmt::method::srf, fmt::kernel::polynomial_sphere);
    o.directions = static_cast<off::directions_kind>(3);
    CHECK_THROWS_WITH_AS(off::build_map(o), doctest::Contains("--directions holds a value outside its choices"),
                         std::invalid_argument);
    o.directions = off::directions_kind::hadamard;
    CHECK_NOTHROW(off::build_map(o));
}
