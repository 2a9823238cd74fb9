// The warning about rows whose features all vanish (vanished_rows.hpp).
#include "cli/vanished_rows.hpp"

#include <cstdio>

#include "kfm/offline.hpp"

namespace kfm::cli {

void warn_vanished_rows(const std::string& command, const kfm::map& map, std::size_t vanished, std::size_t rows,
                        const std::string& path, const std::string& consequence) {
    if (vanished == 0) return;
    // Arc-cosine's k(x, x) = |x|^(2b) J_b(0) / pi is positive for x != 0; the other kernels that can vanish have 1.
    const bool arccos = map.kernel() == format::kernel::arccos;
    std::fprintf(stderr,
                 "kfm %s: warning: %zu of %zu rows of %s have all-zero features, so the map estimates k(x, x) = 0 "
                 "for them where the %s kernel's is %s%s (%s)\n",
                 command.c_str(), vanished, rows, path.c_str(), offline::kernel_name(map.kernel()),
                 arccos ? "positive" : "1", consequence.c_str(),
                 arccos ? "rows on the negative side of every direction of a map without reflected pairs; "
                          "--arccos-pairs reflected has none"
                        : "rows far from the data the map was built from");
}

}  // namespace kfm::cli
