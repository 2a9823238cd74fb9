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
        default:
            break;
    }
    throw std::invalid_argument(std::string("method '") + method_name(options.method) +
                                "' is not available in this build");
}

}  // namespace kfm::offline
