// Nystroem beside dense RFF at the same d and D (D = m landmarks, gaussian kernel, same sigma), and Nystroem
// with the Matern 3/2 and rational-quadratic landmark kernels (kernel_of_dots' costlier kinds: sqrt + exp,
// log1p + exp): map/nystroem/<isa>/<d>/<D>, map/nystroem-matern1.5/..., map/nystroem-rq1.5/... and
// map/rff/<isa>/<d>/<D> through register_map_benchmarks, so
// --benchmark_filter='map/(rff|nystroem.*)/.*/64/(64|256)' times them all in one run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <utility>

#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"

namespace {

struct size_pair {
    unsigned d, D;
};
constexpr size_pair sizes[] = {{64, 64}, {64, 256}};

kfm::offline::build_options options(kfm::format::method m, unsigned d, unsigned D,
                                    kfm::format::kernel kernel = kfm::format::kernel::gaussian) {
    kfm::offline::build_options o;
    o.method = m;
    o.kernel.kind = kernel;
    o.kernel.sigma = 4.0;
    o.kernel.nu = 1.5;
    o.kernel.alpha = 1.5;
    o.input_dim = d;
    o.features = D;
    o.seed = 7;
    return o;
}

// The landmark pool: 2D deterministic rows in [-1, 1) (an LCG, so the bench does not depend on the
// offline generator); the speed depends on m and d only, not on which rows are chosen.
void add_landmark_pool(kfm::offline::build_options* o) {
    o->data_rows = 2 * std::size_t(o->features);
    o->data.resize(o->data_rows * o->input_dim);
    std::uint32_t state = 2024u;
    for (float& v : o->data) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
}

int register_all() {
    for (const auto& s : sizes) {
        const unsigned d = s.d, D = s.D;
        register_map_benchmarks("rff", d, D, [d, D] {
            return kfm::offline::serialize(kfm::offline::build_map(options(kfm::format::method::rff, d, D)));
        });
        const std::pair<const char*, kfm::format::kernel> kernels[] = {
            {"nystroem", kfm::format::kernel::gaussian},
            {"nystroem-matern1.5", kfm::format::kernel::matern},
            {"nystroem-rq1.5", kfm::format::kernel::rational_quadratic}};
        for (const auto& [name, kernel] : kernels)
            register_map_benchmarks(name, d, D, [d, D, kernel] {
                auto o = options(kfm::format::method::nystroem, d, D, kernel);
                add_landmark_pool(&o);
                return kfm::offline::serialize(kfm::offline::build_map(o));
            });
    }
    return 0;
}

const int registered = register_all();

}  // namespace
