// End-to-end map benchmarks of the polynomial / indefinite family at d = D (the SRF paper's Figure 4b
// setting, p = 3, a = 4): map/srf (dense gemv D x d + cos), map/tensorsketch (p count sketches + p FFTs of
// length D), map/maclaurin (about D Rademacher rows + products), map/gorf (delta-gaussian, D/2 x d gemv +
// cos/sin; at d = 4096 map/grff, same runtime cost, because Haar QR of a 4096 x 4096 block is slow to set
// up); map/srf-hadamard, map/gorf-hadamard, map/srf-butterfly and map/gorf-butterfly use structured
// directions. Paper's claim: SRF faster than
// TensorSketch up to D ~ 4000 at d = D.
#include "kfm/offline.hpp"
#include "register_map_benchmarks.hpp"

namespace {

std::vector<std::uint8_t> poly_map(kfm::format::method method, unsigned d, unsigned D, const char* directions = "dense") {
    kfm::offline::build_options o;
    o.method = method;
    o.input_dim = d;
    o.features = D;
    o.seed = 1;
    o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(directions);
    if (method == kfm::format::method::gorf || method == kfm::format::method::grff) {
        o.kernel.kind = kfm::format::kernel::delta_gaussian;
        o.kernel.weights = {1.0, -1.0};
        o.kernel.sigmas = {1.0, 10.0};
    } else {
        o.kernel.kind = kfm::format::kernel::polynomial_sphere;
        o.kernel.degree = 3;
        o.kernel.scale = 4.0;
    }
    return kfm::offline::serialize(kfm::offline::build_map(o));
}

const bool registered = [] {
    using kfm::format::method;
    for (unsigned d : {256u, 512u, 1024u, 2048u, 4096u}) {
        const unsigned D = d;
        register_map_benchmarks("srf", d, D, [=] { return poly_map(method::srf, d, D); });
        register_map_benchmarks("tensorsketch", d, D, [=] { return poly_map(method::tensorsketch, d, D); });
        register_map_benchmarks("maclaurin", d, D, [=] { return poly_map(method::maclaurin, d, D); });
        // Structured directions (H D1 H D2 H D3 blocks): target 10x faster than dense at d = 1024.
        register_map_benchmarks("srf-hadamard", d, D, [=] { return poly_map(method::srf, d, D, "hadamard"); });
        register_map_benchmarks("gorf-hadamard", d, D, [=] { return poly_map(method::gorf, d, D, "hadamard"); });
        register_map_benchmarks("srf-butterfly", d, D, [=] { return poly_map(method::srf, d, D, "butterfly"); });
        register_map_benchmarks("gorf-butterfly", d, D, [=] { return poly_map(method::gorf, d, D, "butterfly"); });
        if (d < 4096)
            register_map_benchmarks("gorf", d, D, [=] { return poly_map(method::gorf, d, D); });
        else
            register_map_benchmarks("grff", d, D, [=] { return poly_map(method::grff, d, D); });
    }
    return true;
}();

}  // namespace
