// End-to-end map benchmarks of the quadrature family: map/quadrature/<isa>/<d>/<D> (butterfly SR(3,3),
// gaussian, n = 1 and 4 i.e. D = 4n(d+1) + 1) against the same-size map/sorf (H D1 H D2 H D3 blocks),
// map/fastfood (H G Pi H B blocks) and
// the dense peer map/orf (gemv over the D/2 x d matrix; at d = 4096 map/rff, whose dense gemv costs the
// same, because Haar QR of 4096 x 4096 blocks is too slow to set up). d = 32, 64 and 128 (n = 1 only)
// cover the sizes where the single-vector path keeps a rule's network in registers, with the dense
// map/rff peer. Targets: quadrature at d = 1024 at least 10x faster than dense ORF for one vector; time
// growing like d log d across d; quadrature within 1.5x of SORF's time and faster than dense RFF.
// map/quadrature-blocked is the same map with --permutation blocked (every d here is a multiple of 8): its
// gathers move eight floats with one lane permute on AVX2 / AVX-512, the peer is map/quadrature.
#include <cmath>

#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"

namespace {

using kfm::offline::permutation_kind;

std::vector<std::uint8_t> gaussian_map(kfm::format::method method, unsigned d, unsigned features,
                                       permutation_kind permutation = permutation_kind::uniform) {
    kfm::offline::build_options o;
    o.permutation = permutation;
    o.method = method;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.seed = 1;
    return kfm::offline::serialize(kfm::offline::build_map(o));
}

// map/quadrature and map/quadrature-blocked of one size.
void register_quadrature(unsigned d, unsigned features) {
    using kfm::format::method;
    register_map_benchmarks("quadrature", d, features + 1, [=] { return gaussian_map(method::quadrature, d, features); });
    register_map_benchmarks("quadrature-blocked", d, features + 1,
                            [=] { return gaussian_map(method::quadrature, d, features, permutation_kind::blocked); });
}

const bool registered = [] {
    using kfm::format::method;
    for (unsigned d : {16u, 256u, 784u, 1024u, 4096u})
        for (unsigned n : {1u, 4u}) {
            const unsigned features = 4 * n * (d + 1);  // 2n rules of d+1 points, cos and sin
            register_quadrature(d, features);
            register_map_benchmarks("sorf", d, features, [=] { return gaussian_map(method::sorf, d, features); });
            register_map_benchmarks("fastfood", d, features, [=] { return gaussian_map(method::fastfood, d, features); });
            if (d < 4096)
                register_map_benchmarks("orf", d, features, [=] { return gaussian_map(method::orf, d, features); });
            else if (n == 1)
                register_map_benchmarks("rff", d, features, [=] { return gaussian_map(method::rff, d, features); });
        }
    for (unsigned d : {32u, 64u, 128u}) {
        const unsigned features = 4 * (d + 1);
        register_quadrature(d, features);
        register_map_benchmarks("sorf", d, features, [=] { return gaussian_map(method::sorf, d, features); });
        register_map_benchmarks("rff", d, features, [=] { return gaussian_map(method::rff, d, features); });
    }
    return true;
}();

}  // namespace
