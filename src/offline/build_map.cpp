// Dispatches a build request to the builder of its method.
#include <stdexcept>

#include "offline/builders.hpp"

namespace kfm::offline {

map_contents build_map(const build_options& options) {
    switch (options.method) {
        case format::method::rff:
        case format::method::rff_phase:
        case format::method::orf:
            return build_random_fourier(options);
        case format::method::quadrature: return build_quadrature(options);
        case format::method::sorf: return build_sorf(options);
        case format::method::qmc: return build_qmc(options);
        case format::method::ssf: return build_ssf(options);
        case format::method::gorf:
        case format::method::grff: return build_gorf(options);
        case format::method::maclaurin: return build_maclaurin(options);
        case format::method::tensorsketch: return build_tensorsketch(options);
        case format::method::srf: return build_srf(options);
        default:
            break;
    }
    throw std::invalid_argument(std::string("method '") + method_name(options.method) +
                                "' is not available in this build");
}

}  // namespace kfm::offline
