// The C API (include/kfm/kfm.h) gives the same results and statuses as the C++ API.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/test_maps.hpp"
#include "kfm/kfm.h"

using namespace kfm::test;

TEST_CASE("C API: open, transform, batch, kernel_estimate and statuses") {
    kfm::test::dense_spec spec;
    spec.negative_dim = 3;
    const auto map = make_dense_map(spec);
    const file_buffer buffer(kfm::offline::serialize(map));

    kfm_map m = {{0}};
    CHECK(kfm_output_dim(&m) == 0);
    CHECK(kfm_open(buffer.data(), buffer.size(), "no-such-isa", &m) == KFM_UNKNOWN_ISA);
    CHECK(kfm_open(buffer.data(), buffer.size() - 1, nullptr, &m) == KFM_FILE_SIZE_MISMATCH);
    REQUIRE(kfm_open(buffer.data(), buffer.size(), "scalar", &m) == KFM_OK);
    CHECK(std::string(kfm_isa(&m)) == "scalar");
    CHECK(kfm_input_dim(&m) == spec.input_dim);
    CHECK(kfm_output_dim(&m) == map.meta.output_dim);
    CHECK(kfm_negative_dim(&m) == 3);

    const kfm::map v = open_or_fail(buffer);
    const auto x = test_vector(spec.input_dim, 3), y = test_vector(spec.input_dim, 4);
    std::vector<float> ws(kfm_workspace_bytes(&m, 2) / sizeof(float) + 1);
    CHECK(kfm_workspace_bytes(&m, 1) == kfm::workspace_bytes(v, 1));
    const std::size_t D = kfm_output_dim(&m);
    std::vector<float> a(D), b(D), ref(D);
    REQUIRE(kfm_transform(&m, x.data(), x.size(), a.data(), D, ws.data(), ws.size() * sizeof(float)) == KFM_OK);
    REQUIRE(kfm::transform(v, x.data(), x.size(), ref.data(), D, ws.data(), ws.size() * sizeof(float)) == kfm::status::ok);
    CHECK(a == ref);
    REQUIRE(kfm_transform(&m, y.data(), y.size(), b.data(), D, ws.data(), ws.size() * sizeof(float)) == KFM_OK);
    CHECK(kfm_kernel_estimate(&m, a.data(), b.data()) == kfm::kernel_estimate(v, a.data(), b.data()));
    CHECK(kfm_transform(&m, x.data(), x.size() + 1, a.data(), D, ws.data(), ws.size() * sizeof(float)) == KFM_WRONG_DIMENSION);

    std::vector<float> xs(x), outs(2 * D);
    xs.insert(xs.end(), y.begin(), y.end());
    REQUIRE(kfm_transform_batch(&m, xs.data(), 2, spec.input_dim, spec.input_dim, outs.data(), D, ws.data(),
                                ws.size() * sizeof(float)) == KFM_OK);
    for (std::size_t i = 0; i < D; ++i) {
        CHECK(outs[i] == doctest::Approx(a[i]).epsilon(1e-6).scale(1.0));
        CHECK(outs[D + i] == doctest::Approx(b[i]).epsilon(1e-6).scale(1.0));
    }

    CHECK(std::string(kfm_status_string(KFM_OK)) == "ok");
    CHECK(std::string(kfm_status_string(KFM_NON_FINITE_INPUT)) == kfm::status_string(kfm::status::non_finite_input));
    CHECK(std::string(kfm_status_string(-1)) == "unknown status");
    CHECK(kfm_transform(nullptr, x.data(), x.size(), a.data(), D, ws.data(), ws.size()) == KFM_NULL_ARGUMENT);
    CHECK(std::isnan(kfm_kernel_estimate(nullptr, a.data(), b.data())));
}
