// The seed papers' kernel-approximation protocols as the repro suite runs them, shared by its checks, its
// table generators (the "... results table" cases, which print docs/results-*.md's tables between the
// markers scripts/research/results-tables.sh replaces) and the docs suite (tests/docs), which recomputes
// documented figures. Data: test::load_quffka_scaled (LETTER (x+1)/2, USPS / max).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/evaluate.hpp"
#include "kfm/offline/npy.hpp"

namespace kfm::repro {

// Rows per sample: the quffka / SSF protocol compares K(X, Y) on two independent samples of 550 rows.
constexpr unsigned kernel_sample_rows = 550;

// Quadrature paper (quffka): outputs for n are gaussian 2n(d+1) points with cos/sin (4n(d+1) outputs,
// quadrature: 2n rules); arccos 2n(d+1) outputs (quadrature: n rules plus reflections); sigma^2 = d/2.
inline offline::build_options quadrature_options(format::method method, format::kernel kind, unsigned order,
                                                 unsigned d, unsigned n, std::uint64_t seed) {
    offline::build_options o;
    o.method = method;
    o.input_dim = d;
    o.kernel.kind = kind;
    o.kernel.order = order;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.features = (kind == format::kernel::gaussian ? 4 : 2) * n * (d + 1);
    o.seed = seed;
    return o;
}

// Relative Frobenius errors over `runs` maps (map r has seed 1000 + r and its own two samples, seed 77 + r):
// mean and 95% Student-t interval.
inline offline::interval quadrature_errors(const offline::npy_array& data, format::method method, format::kernel kind,
                                           unsigned order, unsigned n, unsigned runs, bool haar = false) {
    const unsigned d = unsigned(data.cols);
    std::vector<double> values;
    for (unsigned r = 0; r < runs; ++r) {
        auto o = quadrature_options(method, kind, order, d, n, 1000 + r);
        o.haar_rotations = haar;
        const auto map = test::map_from_options(o);
        const auto e = offline::evaluate(map.view(), data.data.data(), data.rows, d, kernel_sample_rows, 1, 77 + r);
        values.push_back(e.rel_frobenius.mean);
    }
    return offline::mean_interval(values);
}

// SSF paper: equal output dimension D for every method, gaussian sigma^2 = d/2 or arc-cosine order 1.
struct ssf_setting {
    format::method method;
    format::kernel kind;
    const char* rule = "midpoint";
    unsigned radial = 1;
};

// Mean relative Frobenius error over `runs` maps (map r: seed 500 + r, its own two samples, seed 31 + r).
inline double ssf_mean_error(const offline::npy_array& data, const ssf_setting& s, unsigned features, unsigned runs) {
    const unsigned d = unsigned(data.cols);
    double sum = 0.0;
    for (unsigned r = 0; r < runs; ++r) {
        offline::build_options o;
        o.method = s.method;
        o.input_dim = d;
        o.kernel.kind = s.kind;
        o.kernel.order = 1;
        o.kernel.sigma = std::sqrt(d / 2.0);
        o.features = features;
        o.radial_points = s.radial;
        o.radial_rule = kfm::offline::choice_named<kfm::offline::radial_rule_kind>(s.rule);
        o.seed = 500 + r;
        const auto map = test::map_from_options(o);
        sum += offline::evaluate(map.view(), data.data.data(), data.rows, d, kernel_sample_rows, 1, 31 + r).rel_frobenius.mean;
    }
    return sum / runs;
}

// A generated docs block: scripts/research/results-tables.sh replaces the page's lines between the same two markers.
inline void begin_doc_block(const std::string& name) { std::printf("\n<!-- begin: %s -->\n", name.c_str()); }
inline void end_doc_block(const std::string& name) {
    std::printf("<!-- end: %s -->\n", name.c_str());
    std::fflush(stdout);
}

}  // namespace kfm::repro
