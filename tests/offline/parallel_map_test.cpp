// offline::map_rows_parallel: every thread count gives the same bytes, each row is its kfm::transform (up
// to rounding: blocks go through the batch path, whose interleaved FFT may round differently), and a
// refused block is reported with its row range whatever the threads' timing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stats_util.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/parallel_map.hpp"

namespace {

kfm::offline::build_options ssf_options(unsigned d, unsigned D) {
    kfm::offline::build_options o;
    o.method = kfm::format::method::ssf;
    o.kernel.kind = kfm::format::kernel::gaussian;
    o.kernel.sigma = 2.0;
    o.input_dim = d;
    o.features = D;
    o.seed = 3;
    return o;
}

}  // namespace

TEST_CASE("map_rows_parallel gives the same output on 1, 2, 3 and 7 threads, each row its transform") {
    const unsigned d = 12;
    const std::size_t n = 203;  // three full 64-row blocks and a partial one
    const auto map = kfm::test::map_from_options(ssf_options(d, 192));
    const auto x = kfm::test::random_points(n, d, 5, 1.0);
    const std::size_t D = map.output_dim();
    std::vector<float> expected(n * D);
    for (std::size_t i = 0; i < n; ++i) {
        const auto phi = kfm::test::transform_one(map, std::vector<float>(x.begin() + i * d, x.begin() + (i + 1) * d));
        std::copy(phi.begin(), phi.end(), expected.begin() + i * D);
    }
    std::vector<float> one_thread(n * D, -1.0f);
    kfm::offline::map_rows_parallel(map.view(), x.data(), n, d, one_thread.data(), 1);
    double worst = 0.0;
    for (std::size_t i = 0; i < n * D; ++i) worst = std::max(worst, double(std::fabs(one_thread[i] - expected[i])));
    CHECK(worst < 1e-5);  // features are O(sqrt(2 / D)) = O(0.1)
    for (unsigned threads : {2u, 3u, 7u}) {
        CAPTURE(threads);
        std::vector<float> out(n * D, -1.0f);
        kfm::offline::map_rows_parallel(map.view(), x.data(), n, d, out.data(), threads);
        CHECK(out == one_thread);
    }
    CHECK_NOTHROW(kfm::offline::map_rows_parallel(map.view(), x.data(), 0, d, nullptr, 2));
}

TEST_CASE("map_rows_parallel reports the first refused block") {
    const unsigned d = 8;
    const std::size_t n = 300;
    const auto map = kfm::test::map_from_options(ssf_options(d, 128));
    auto x = kfm::test::random_points(n, d, 9, 1.0);
    x[100 * d + 3] = std::numeric_limits<float>::quiet_NaN();  // block 64..127
    x[290 * d] = std::numeric_limits<float>::infinity();       // block 256..299
    std::vector<float> out(n * map.output_dim());
    for (unsigned threads : {1u, 4u}) {
        CAPTURE(threads);
        try {
            kfm::offline::map_rows_parallel(map.view(), x.data(), n, d, out.data(), threads);
            FAIL("a non-finite row was accepted");
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()).rfind("rows 64..127: ", 0) == 0);
        }
    }
    // A wrong input dimension is the runtime's refusal too.
    CHECK_THROWS_AS(kfm::offline::map_rows_parallel(map.view(), x.data(), 2, d + 1, out.data(), 2), std::runtime_error);
}

TEST_CASE("resolve_thread_count: 0 means every core, otherwise as given") {
    CHECK(kfm::offline::resolve_thread_count(0) >= 1);
    CHECK(kfm::offline::resolve_thread_count(5) == 5);
}
