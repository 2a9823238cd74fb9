// Documented figures recomputed: each entry of `checks` names a page, an exact piece of text on one of its
// lines (optionally inside a `<!-- begin: NAME -->` block that scripts/research/results-tables.sh
// regenerates) and a computation with the page's protocol (fixed seeds, so deterministic up to the ~1e-7 differences of the
// features between ISAs). The numbers that follow the text on that line must be the computed values as the
// page prints them: the computed value rounded to the documented digits, where a value within the ISA
// slack of a rounding boundary may round either way. A changed default or protocol shows up as a diff.
//
// To add a figure: append an entry (page, block or "", the text just before the figures, the data sets it
// needs, a computation returning the figures in order; NaN skips one). Keep each computation to seconds:
// the whole suite runs in CI (ctest label docs) and is skipped (exit 77) when no data set is found.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/datasets.hpp"
#include "repro/gorf_protocol.hpp"
#include "repro/protocols.hpp"

using namespace kfm;

namespace {

struct figure_check {
    const char* page;                              // relative to the source tree
    const char* block;                             // "" or the name of a begin/end marker pair on the page
    const char* text;                              // exact text; the figures are the numbers after it on its line
    std::vector<const char*> data;                 // data sets the computation needs
    std::function<std::vector<double>()> compute;  // the figures in order (NaN: not checked)
};

// ---- computations, memoised: several pages quote the same measurement ----

const offline::npy_array& dataset(const std::string& name) {
    static std::map<std::string, offline::npy_array> loaded;
    auto it = loaded.find(name);
    if (it == loaded.end()) {
        offline::npy_array data;
        if (!test::load_quffka_scaled(name, &data)) throw std::runtime_error(name + " is absent");
        it = loaded.emplace(name, std::move(data)).first;
    }
    return it->second;
}

// docs/results-quadrature.md's protocol: n rules, `runs` maps (seeds 1000 + r).
offline::interval quadrature(const std::string& data, format::method method, format::kernel kind, unsigned order,
                             unsigned n, unsigned runs, bool haar = false) {
    static std::map<std::string, offline::interval> done;
    const std::string key = data + "/" + std::to_string(int(method)) + "/" + std::to_string(int(kind)) + "/" +
                            std::to_string(order) + "/" + std::to_string(n) + "/" + std::to_string(runs) + "/" +
                            std::to_string(haar);
    auto it = done.find(key);
    if (it == done.end())
        it = done.emplace(key, repro::quadrature_errors(dataset(data), method, kind, order, n, runs, haar)).first;
    return it->second;
}

// RFF / quadrature at n = 1: ratio of the means and the conservative range (RFF interval / quadrature's).
std::vector<double> quadrature_ratio(const std::string& data, format::kernel kind, unsigned order, unsigned runs) {
    const auto rff = quadrature(data, format::method::rff, kind, order, 1, runs);
    const auto quad = quadrature(data, format::method::quadrature, kind, order, 1, runs);
    return {rff.mean / quad.mean, rff.low / quad.high, rff.high / quad.low};
}

// A row of docs/results-quadrature.md's "n = 1" table: RFF and quadrature intervals, then the ratio's.
std::vector<double> quadrature_n1_row(const std::string& data, format::kernel kind, unsigned order, unsigned runs) {
    const auto rff = quadrature(data, format::method::rff, kind, order, 1, runs);
    const auto quad = quadrature(data, format::method::quadrature, kind, order, 1, runs);
    const auto ratio = quadrature_ratio(data, kind, order, runs);
    return {rff.mean, rff.low, rff.high, quad.mean, quad.low, quad.high, ratio[0], ratio[1], ratio[2]};
}

// A row of a full quadrature table: RFF, ORF, SORF, QMC, quadrature, quadrature with Haar Q.
std::vector<double> quadrature_table_row(const std::string& data, format::kernel kind, unsigned order, unsigned n,
                                         unsigned runs) {
    std::vector<double> row;
    for (auto method : {format::method::rff, format::method::orf, format::method::sorf, format::method::qmc,
                        format::method::quadrature}) {
        const auto e = quadrature(data, method, kind, order, n, runs);
        row.insert(row.end(), {e.mean, e.low, e.high});
    }
    const auto haar = quadrature(data, format::method::quadrature, kind, order, n, runs, true);
    row.insert(row.end(), {haar.mean, haar.low, haar.high});
    return row;
}

// docs/results-ssf.md's protocol: D = factor * d, 3 maps (seeds 500 + r).
double ssf_error(const std::string& data, const repro::ssf_setting& s, unsigned factor) {
    static std::map<std::string, double> done;
    const std::string key = data + "/" + std::to_string(int(s.method)) + "/" + std::to_string(int(s.kind)) + "/" +
                            s.rule + "/" + std::to_string(s.radial) + "/" + std::to_string(factor);
    auto it = done.find(key);
    if (it == done.end()) {
        const auto& d = dataset(data);
        it = done.emplace(key, repro::ssf_mean_error(d, s, factor * unsigned(d.cols), 3)).first;
    }
    return it->second;
}

// A row of docs/results-ssf.md's tables (its generator's columns, tests/repro/ssf_repro_test.cpp).
std::vector<double> ssf_table_row(const std::string& data, unsigned factor) {
    using format::kernel;
    using format::method;
    return {ssf_error(data, {method::rff, kernel::gaussian}, factor),
            ssf_error(data, {method::ssf, kernel::gaussian, "auto", 0}, factor),
            ssf_error(data, {method::ssf, kernel::gaussian}, factor),
            ssf_error(data, {method::ssf, kernel::gaussian, "shifted"}, factor),
            ssf_error(data, {method::ssf, kernel::gaussian, "shifted", 4}, factor),
            ssf_error(data, {method::rff, kernel::arccos}, factor),
            ssf_error(data, {method::ssf, kernel::arccos}, factor)};
}

// SSF / RFF at D = 4d (the repro test's setting), LETTER then USPS; gaussian with SSF's default radii.
std::vector<double> ssf_ratios(format::kernel kind) {
    std::vector<double> ratios;
    for (const char* data : {"letter", "usps"}) {
        const auto row = ssf_table_row(data, 4);
        ratios.push_back(kind == format::kernel::gaussian ? row[1] / row[0] : row[6] / row[5]);
    }
    return ratios;
}

// File sizes at d = 784, D = 8192: SSF (midpoint) in the default layout, dense RFF, SSF's smallest FFT.
std::vector<double> ssf_storage() {
    offline::build_options o;
    o.input_dim = 784;
    o.features = 8192;
    o.kernel.kind = format::kernel::gaussian;
    o.kernel.sigma = 20.0;
    o.seed = 1;
    o.method = format::method::rff;
    const double dense = double(test::map_from_options(o).file_bytes());
    o.method = format::method::ssf;
    o.radial_rule = kfm::offline::radial_rule_kind::midpoint;
    const double ssf = double(test::map_from_options(o).file_bytes());
    o.fft_size = offline::ssf_fft_size_smallest;
    const double smallest = double(test::map_from_options(o).file_bytes());
    return {ssf, dense / 1e6, dense / ssf, smallest, dense / smallest};
}

// X_train as it is on disk (the pages that use scripts/research/accuracy_sweep.py on the raw data).
const offline::npy_array& raw_dataset(const std::string& name) {
    static std::map<std::string, offline::npy_array> loaded;
    auto it = loaded.find(name);
    if (it == loaded.end()) it = loaded.emplace(name, offline::read_npy(test::dataset_file(name))).first;
    return it->second;
}

// scripts/research/accuracy_sweep.py's protocol (kfm build --seed s, kfm eval --runs 1 --seed s): the relative
// Frobenius error of each map seed 1..seeds.
std::vector<double> sweep_errors(const offline::npy_array& x, offline::build_options o, unsigned seeds) {
    o.input_dim = unsigned(x.cols);
    std::vector<double> errors;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        o.seed = seed;
        const auto map = test::map_from_options(o);
        errors.push_back(offline::evaluate(map.view(), x.data.data(), x.rows, o.input_dim, repro::kernel_sample_rows, 1,
                                           seed)
                             .rel_frobenius.mean);
    }
    return errors;
}

double sweep_mean(const std::string& data, const offline::build_options& o, unsigned seeds) {
    return offline::mean_interval(sweep_errors(dataset(data), o, seeds)).mean;
}

// A row of an accuracy_sweep.py table: A's mean and half-width, B's, and the ratio of the means (its
// bootstrap interval is not recomputed).
std::vector<double> sweep_row(const std::string& data, const offline::build_options& a, const offline::build_options& b,
                              unsigned seeds) {
    const auto ia = offline::mean_interval(sweep_errors(raw_dataset(data), a, seeds));
    const auto ib = offline::mean_interval(sweep_errors(raw_dataset(data), b, seeds));
    return {ia.mean, ia.high - ia.mean, ib.mean, ib.high - ib.mean, ia.mean / ib.mean};
}

// rff, arccos 0, D = 64 on raw LETTER: plain pairs (the old form) against reflected pairs (the default).
std::vector<double> reflected_pairs_row() {
    offline::build_options o;
    o.method = format::method::rff;
    o.kernel.kind = format::kernel::arccos;
    o.kernel.order = 0;
    o.features = 64;
    auto plain = o;
    plain.arccos_pairs = kfm::offline::arccos_pairs_kind::plain;
    return sweep_row("letter", plain, o, 10);
}

// Gaussian SSF on LETTER at D = 16d, 10 seeds: the midpoint radius's error over the default's (antithetic).
std::vector<double> ssf_antithetic_gain() {
    offline::build_options o;
    o.method = format::method::ssf;
    o.kernel.kind = format::kernel::gaussian;
    o.kernel.sigma = 2.8284271;  // the sweep's --sigma letter=2.8284271, sqrt(d / 2)
    o.features = 256;
    const double by_default = sweep_mean("letter", o, 10);
    o.radial_rule = kfm::offline::radial_rule_kind::midpoint;
    return {sweep_mean("letter", o, 10) / by_default};
}

// docs/results-poly.md's Table II at s = d (GORF protocol, 10 runs): the mean error of each variant.
enum class gorf_kernel { polynomial, delta_gaussian };
std::vector<double> gorf_means(const std::string& data, gorf_kernel which) {
    static std::map<std::string, std::vector<double>> done;
    const std::string key = data + (which == gorf_kernel::polynomial ? "/polynomial" : "/delta");
    auto it = done.find(key);
    if (it == done.end()) {
        const auto rows = repro::load_unit_rows(data);
        if (!rows) throw std::runtime_error(data + " is absent");
        std::vector<repro::gorf_variant> variants;
        if (which == gorf_kernel::polynomial) {
            const auto k = repro::polynomial(1, 3.0);
            variants = {{format::method::grff, k, "bessel-1d", 1.0},
                        {format::method::gorf, k, "bessel-1d", 1.0},
                        {format::method::gorf, k, "signed-mixture", 1.0}};
        } else {
            const auto k = repro::delta_gaussian();
            variants = {{format::method::grff, k, "bessel-1d", 0.0}, {format::method::gorf, k, "bessel-1d", 0.0}};
        }
        std::vector<double> means;
        for (const auto& e : repro::gorf_errors(*rows, variants, 10)) means.push_back(offline::mean_interval(e).mean);
        it = done.emplace(key, means).first;
    }
    return it->second;
}

using format::kernel;
using format::method;
constexpr double unchecked = std::numeric_limits<double>::quiet_NaN();

const std::vector<figure_check> checks = {
    // docs/results.md: the headline "ours" column.
    {"docs/results.md", "", "| Quadrature (001) | RFF/quadrature rel. Frobenius error, LETTER gaussian, n = 1 | 23 | ",
     {"letter"}, [] { return std::vector<double>{quadrature_ratio("letter", kernel::gaussian, 0, 30)[0]}; }},
    {"docs/results.md", "", "| | same, LETTER arccos 1 | 33 | ", {"letter"},
     [] { return std::vector<double>{quadrature_ratio("letter", kernel::arccos, 1, 30)[0]}; }},
    {"docs/results.md", "", "| | same, USPS arccos 1 (20 runs) | 8.3 | ", {"usps"},
     [] { return quadrature_ratio("usps", kernel::arccos, 1, 20); }},
    {"docs/results.md", "", "| SSF (000) | SSF/RFF error at equal D, gaussian (LETTER, USPS, D = 4d) | ≈ 1/3 | ",
     {"letter", "usps"}, [] { return ssf_ratios(kernel::gaussian); }},
    {"docs/results.md", "", "| | same, arccos 1 | ≈ 1/5 | ", {"letter", "usps"},
     [] { return ssf_ratios(kernel::arccos); }},
    {"docs/results.md", "", "| | storage at d = 784, D = 8192 (midpoint rule) | O(d) | ", {}, ssf_storage},
    {"docs/results.md", "", "| GORF (002) | Table II at s = d, GRFF / GORF, e.g. LETTER delta-gaussian | .2736 / .1133 | ",
     {"letter"}, [] { return gorf_means("letter", gorf_kernel::delta_gaussian); }},
    {"docs/results.md", "", "| | polynomial (a = 3, p = 1), USPS | .0213 / .0194 | ", {"usps"},
     [] { return gorf_means("usps", gorf_kernel::polynomial); }},
    // docs/results-quadrature.md: the n = 1 table and the first row of each arc-cosine table.
    {"docs/results-quadrature.md", "quadrature n = 1", "| LETTER, gaussian | 30 | ", {"letter"},
     [] { return quadrature_n1_row("letter", kernel::gaussian, 0, 30); }},
    {"docs/results-quadrature.md", "quadrature n = 1", "| LETTER, arccos 0 | 30 | ", {"letter"},
     [] { return quadrature_n1_row("letter", kernel::arccos, 0, 30); }},
    {"docs/results-quadrature.md", "quadrature n = 1", "| LETTER, arccos 1 | 30 | ", {"letter"},
     [] { return quadrature_n1_row("letter", kernel::arccos, 1, 30); }},
    {"docs/results-quadrature.md", "quadrature n = 1", "| USPS, arccos 1 | 20 | ", {"usps"},
     [] { return quadrature_n1_row("usps", kernel::arccos, 1, 20); }},
    {"docs/results-quadrature.md", "quadrature letter gaussian", "| 1 | ", {"letter"},
     [] { return quadrature_table_row("letter", kernel::gaussian, 0, 1, 30); }},
    {"docs/results-quadrature.md", "quadrature letter arccos 0", "| 1 | ", {"letter"},
     [] { return quadrature_table_row("letter", kernel::arccos, 0, 1, 30); }},
    {"docs/results-quadrature.md", "quadrature letter arccos 1", "| 1 | ", {"letter"},
     [] { return quadrature_table_row("letter", kernel::arccos, 1, 1, 30); }},
    {"docs/results-quadrature.md", "quadrature usps arccos 1 ratios", "| 1 | ", {"usps"},
     [] { return quadrature_ratio("usps", kernel::arccos, 1, 20); }},
    // docs/results-poly.md: Table II (its paper figures in brackets are not checked).
    {"docs/results-poly.md", "", "| letter (16) | polynomial, bessel-1d | ", {"letter"},
     [] {
         const auto m = gorf_means("letter", gorf_kernel::polynomial);
         return std::vector<double>{m[0], unchecked, m[1], unchecked, m[2]};
     }},
    {"docs/results-poly.md", "", "| ijcnn1 (22) | polynomial, bessel-1d | ", {"ijcnn1"},
     [] {
         const auto m = gorf_means("ijcnn1", gorf_kernel::polynomial);
         return std::vector<double>{m[0], unchecked, m[1], unchecked, m[2]};
     }},
    {"docs/results-poly.md", "", "| usps (256) | polynomial, bessel-1d | ", {"usps"},
     [] {
         const auto m = gorf_means("usps", gorf_kernel::polynomial);
         return std::vector<double>{m[0], unchecked, m[1], unchecked, m[2]};
     }},
    {"docs/results-poly.md", "", "| letter (16) | delta-gaussian | ", {"letter"},
     [] {
         const auto m = gorf_means("letter", gorf_kernel::delta_gaussian);
         return std::vector<double>{m[0], unchecked, m[1], unchecked};
     }},
    // docs/results-accuracy.md: signed-mixture GORF (the default) against bessel-1d.
    {"docs/results-accuracy.md", "", "default's error is ", {"letter", "ijcnn1", "usps"},
     [] {
         std::vector<double> signed_mixture, bessel;
         for (const char* data : {"letter", "ijcnn1", "usps"}) {
             const auto m = gorf_means(data, gorf_kernel::polynomial);
             signed_mixture.push_back(m[2]);
             bessel.push_back(m[1]);
         }
         signed_mixture.push_back(unchecked);  // the 1 of "bessel-1d's"
         signed_mixture.insert(signed_mixture.end(), bessel.begin(), bessel.end());
         return signed_mixture;
     }},
    {"docs/results-accuracy.md", "accuracy rff arccos 0", "| letter | 64 (4d) | ", {"letter"}, reflected_pairs_row},
    // docs/results-ssf.md: the D = 4d and 16d rows.
    {"docs/results-ssf.md", "ssf letter", "| 4 | ", {"letter"}, [] { return ssf_table_row("letter", 4); }},
    {"docs/results-ssf.md", "ssf letter", "| 16 | ", {"letter"}, [] { return ssf_table_row("letter", 16); }},
    {"docs/results-ssf.md", "ssf usps", "| 4 | ", {"usps"}, [] { return ssf_table_row("usps", 4); }},
    // README.md's figures.
    {"README.md", "", "per direction, unbiased; ", {"letter"}, ssf_antithetic_gain},
};

// ---- the page side ----

struct printed_number {
    double value;
    int decimals;
    std::string text;
};

std::string read_page(const std::string& page) {
    std::ifstream in(std::string(KFM_SOURCE_DIR) + "/" + page);
    if (!in) throw std::runtime_error(page + ": cannot read");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The line holding `text` (exactly once, inside the block when one is named) and the numbers after it.
std::vector<printed_number> documented_numbers(const figure_check& c) {
    const std::string page = read_page(c.page);
    std::size_t from = 0, to = page.size();
    if (*c.block != '\0') {
        const std::string begin = "<!-- begin: " + std::string(c.block) + " -->";
        const std::string end = "<!-- end: " + std::string(c.block) + " -->";
        from = page.find(begin);
        to = page.find(end);
        if (from == std::string::npos || to == std::string::npos || to < from)
            throw std::runtime_error(std::string(c.page) + ": no block \"" + c.block + "\"");
    }
    const std::string region = page.substr(from, to - from);
    const auto at = region.find(c.text);
    if (at == std::string::npos || region.find(c.text, at + 1) != std::string::npos)
        throw std::runtime_error(std::string(c.page) + ": \"" + c.text + "\" is " +
                                 (at == std::string::npos ? "absent" : "there more than once"));
    const auto rest_begin = at + std::string(c.text).size();
    const std::string rest = region.substr(rest_begin, region.find('\n', rest_begin) - rest_begin);
    // 12,845,504 or 0.0312 or .2718 or 28
    static const std::regex number(R"([0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]*\.?[0-9]+)");
    std::vector<printed_number> numbers;
    for (std::sregex_iterator it(rest.begin(), rest.end(), number), end; it != end; ++it) {
        std::string text = it->str(), digits;
        for (char ch : text)
            if (ch != ',') digits += ch;
        const auto dot = digits.find('.');
        numbers.push_back({std::stod(digits), dot == std::string::npos ? 0 : int(digits.size() - dot - 1), text});
    }
    return numbers;
}

// The computed value as the page would print it: equal after rounding to the printed digits, with a slack
// for the features' cross-ISA differences (~1e-7 absolute in an error, relatively more in a ratio of two).
bool prints_as(const printed_number& documented, double computed) {
    const double unit = std::pow(10.0, -documented.decimals);
    const double slack = 1e-6 + 2e-5 * std::fabs(computed);
    return std::fabs(documented.value - computed) <= unit / 2 + slack;
}

void check_page(const std::string& page) {
    unsigned checked = 0;
    for (const auto& c : checks) {
        if (c.page != page) continue;
        bool have_data = true;
        for (const char* name : c.data) have_data = have_data && std::ifstream(test::dataset_file(name)).good();
        if (!have_data) {
            MESSAGE(std::string(page + ": \"" + c.text + "\" not checked: its data set is absent"));
            continue;
        }
        const std::string where = page + (*c.block ? std::string(", block \"") + c.block + "\"" : std::string()) +
                                  ", \"" + c.text + "\"";
        INFO(where);
        std::vector<printed_number> documented;
        try {
            documented = documented_numbers(c);
        } catch (const std::exception& e) {
            FAIL_CHECK(std::string(e.what()));
            continue;
        }
        const auto computed = c.compute();
        if (documented.size() < computed.size()) {
            FAIL_CHECK("the line has " << documented.size() << " numbers, the check computes " << computed.size());
            continue;
        }
        std::string diff;
        for (std::size_t i = 0; i < computed.size(); ++i) {
            if (std::isnan(computed[i])) continue;
            if (prints_as(documented[i], computed[i])) continue;
            char line[160];
            std::snprintf(line, sizeof line, "  figure %zu: - %s (documented)  + %.*f (computed)\n", i + 1,
                          documented[i].text.c_str(), documented[i].decimals, computed[i]);
            diff += line;
        }
        CHECK_MESSAGE(diff.empty(), "documented figures differ from this build's (regenerate the table, "
                                    "scripts/research/results-tables.sh, or the page's own command, and fix the "
                                    "prose):\n",
                      diff);
        ++checked;
    }
    MESSAGE(std::string(page + ": " + std::to_string(checked) + " line(s) of figures checked"));
}

}  // namespace

TEST_CASE("documented figures match this build" * doctest::skip(test::missing_data({"letter", "usps"}))) {
    std::vector<std::string> pages;
    for (const auto& c : checks)
        if (std::find(pages.begin(), pages.end(), c.page) == pages.end()) pages.push_back(c.page);
    for (const auto& page : pages) check_page(page);
}
