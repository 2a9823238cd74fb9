// SSF workspace: exactly the pipeline's buffers (x_work, t) and the projection's two n-float FFT buffers,
// each rounded to 64 bytes, plus the 63 bytes of alignment slack: no per-buffer padding (it measured no
// gain: src/runtime/projection_ssf.cpp), and one lane for a single row also where batches interleave
// (n <= 32: the row runs fft_batch_row, not a padded lane group), so a small model's RAM is a small figure,
// the same in the firmware profile, and the workspace of one vector does not depend on the ISA.
#include <doctest/doctest.h>

#include <cmath>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "offline/methods/builders.hpp"
#include "runtime/pipeline.hpp"
#include "runtime/projection.hpp"

using kfm::isa;
using namespace kfm::test;

namespace {

std::size_t rounded(std::size_t floats) { return (floats * sizeof(float) + 63) / 64 * 64; }

}  // namespace

TEST_CASE("ssf workspace of one vector is the pipeline and FFT buffers with no slack, on every ISA") {
    struct shape {
        unsigned d, D;
    };
    for (const shape s : {shape{12, 256}, shape{64, 1024}, shape{784, 8192}}) {
        kfm::offline::build_options o;
        o.method = kfm::format::method::ssf;
        o.kernel.kind = kfm::format::kernel::gaussian;
        o.kernel.sigma = std::sqrt(s.d / 2.0);
        o.input_dim = s.d;
        o.features = s.D;
        o.seed = 3;
        const auto contents = kfm::offline::build_map(o);
        const auto& m = contents.meta;
        const file_buffer buffer(kfm::offline::serialize(contents));
        if (s.d == 12) REQUIRE(m.block_size <= 32);  // a map whose batches interleave: one lane all the same
        const std::size_t want = 64 + rounded(m.work_dim) + rounded(m.projection_dim) + rounded(2 * std::size_t(m.block_size));
        CAPTURE(s.d);
        CAPTURE(s.D);
        for (isa i : known_isas()) {
            if (!kfm::isa_available(i)) continue;
            CAPTURE(kfm::isa_name(i));
            const kfm::map view = open_or_fail(buffer, i);
            CHECK(kfm::workspace_bytes(view, 1) == want);
        }
    }
}
