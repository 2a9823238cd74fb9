// maclaurin-opt beside its peers at the same d and D, at D = 2d, 4d and 8d for d = 16, 64 and 256 (the LETTER,
// digits and USPS sizes of docs/results-maclaurin.md), through register_map_benchmarks:
// - gaussian (the same sigma): map/maclaurin-opt/<isa>/<d>/<D> beside map/sorf/<isa>/<d>/<D>, so
//   --benchmark_filter='map/(sorf|maclaurin-opt)/avx2/16/' times a pair in one run;
// - polynomial-sphere p = 3, a = 4: map/maclaurin-opt-sphere/... beside map/gorf-sphere/... (dense
//   directions) and map/srf-sphere/..., --benchmark_filter='map/(gorf|srf|maclaurin-opt)-sphere/avx2/16/'.
// maclaurin-opt is fitted to 400 deterministic rows with a per-row offset and spread (its allocation, hence its
// cost, follows them).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"

namespace {

constexpr unsigned dims[] = {16, 64, 256};
constexpr unsigned multiples[] = {2, 4, 8};

kfm::offline::build_options options(kfm::format::method m, unsigned d, unsigned D) {
    kfm::offline::build_options o;
    o.method = m;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = 0.5 * std::sqrt(double(d));  // about the median distance of the rows below
    o.input_dim = d;
    o.features = D;
    o.seed = 7;
    return o;
}

kfm::offline::build_options sphere_options(kfm::format::method m, unsigned d, unsigned D) {
    kfm::offline::build_options o = options(m, d, D);
    o.kernel = {};
    o.kernel.kind = kfm::format::kernel::polynomial_sphere;
    o.kernel.degree = 3;
    o.kernel.scale = 4.0;
    return o;
}

// 400 rows in [0, 1) from an LCG (the bench does not depend on the offline generator).
void add_rows(kfm::offline::build_options* o) {
    o->data_rows = 400;
    o->data.resize(o->data_rows * o->input_dim);
    std::uint32_t state = 2024u;
    for (float& v : o->data) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<float>(state >> 8) / 16777216.0f;
    }
}

std::vector<std::uint8_t> fitted(kfm::offline::build_options o) {
    add_rows(&o);
    return kfm::offline::serialize(kfm::offline::build_map(o));
}

std::vector<std::uint8_t> built(const kfm::offline::build_options& o) {
    return kfm::offline::serialize(kfm::offline::build_map(o));
}

int register_all() {
    using kfm::format::method;
    for (unsigned d : dims)
        for (unsigned multiple : multiples) {
            const unsigned D = multiple * d;
            register_map_benchmarks("sorf", d, D, [d, D] { return built(options(method::sorf, d, D)); });
            register_map_benchmarks("maclaurin-opt", d, D,
                                    [d, D] { return fitted(options(method::maclaurin_opt, d, D)); });
            register_map_benchmarks("gorf-sphere", d, D, [d, D] { return built(sphere_options(method::gorf, d, D)); });
            register_map_benchmarks("srf-sphere", d, D, [d, D] { return built(sphere_options(method::srf, d, D)); });
            register_map_benchmarks("maclaurin-opt-sphere", d, D,
                                    [d, D] { return fitted(sphere_options(method::maclaurin_opt, d, D)); });
        }
    return 0;
}

const int registered = register_all();

}  // namespace
