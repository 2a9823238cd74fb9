// transform / transform_batch / kernel_estimate on dense maps against the double-precision reference
// of the pipeline (tests/common), for every nonlinearity and option, plus the bad-input contract:
// an error status and an untouched output.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;

namespace {

struct runner {
    file_buffer buffer;
    kfm::map view;
    std::vector<float> ws;

    explicit runner(const kfm::offline::map_contents& map, kfm::isa i = kfm::isa::scalar, std::size_t batch = 1)
        : buffer(kfm::offline::serialize(map)), view(open_or_fail(buffer, i)),
          ws(kfm::workspace_bytes(view, batch) / sizeof(float) + 1) {}

    std::size_t ws_bytes() const { return ws.size() * sizeof(float); }

    std::vector<float> run(const std::vector<float>& x) {
        std::vector<float> out(view.output_dim(), -7.0f);
        REQUIRE(kfm::transform(view, x.data(), x.size(), out.data(), out.size(), ws.data(), ws_bytes()) == status::ok);
        return out;
    }
};

void check_against_reference(const kfm::offline::map_contents& map, const std::string& name) {
    runner r(map);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        auto x = test_vector(map.meta.input_dim, seed);
        const auto got = r.run(x);
        const auto want = reference_transform(map, x);
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            INFO(name << " seed " << seed << " feature " << i);
            CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-4).scale(1.0));
        }
    }
}

}  // namespace

TEST_CASE("dense maps match the double-precision reference for every nonlinearity and option") {
    const fmt::nonlinearity kinds[] = {fmt::nonlinearity::cos_sin, fmt::nonlinearity::cos_phase, fmt::nonlinearity::relu,
                                       fmt::nonlinearity::step,    fmt::nonlinearity::relu2,     fmt::nonlinearity::identity};
    for (auto kind : kinds) {
        for (int variant = 0; variant < 4; ++variant) {
            dense_spec spec;
            spec.kind = kind;
            spec.input_dim = 7;
            spec.projection_dim = 12;
            spec.scale_array = variant & 1;
            spec.weight_array = (variant & 2) != 0;
            spec.two_segments = variant >= 2;
            spec.passes = variant == 3 ? 3 : 1;  // several radial passes per projection
            const bool real = kind != fmt::nonlinearity::cos_sin && kind != fmt::nonlinearity::cos_phase;
            spec.reflect = real && variant % 2 == 1;
            spec.constants = variant;
            check_against_reference(make_dense_map(spec), "kind " + std::to_string(int(kind)) + " variant " + std::to_string(variant));
        }
    }
}

TEST_CASE("normalisation, padding and the appended value") {
    dense_spec spec;
    spec.normalize = true;
    spec.pad = 3;
    spec.input_append = 1.75;
    check_against_reference(make_dense_map(spec), "normalise+pad+append");

    // A zero input with a normalising map stays zero: every cos is w cos(0) = w, every sin 0.
    spec.input_append = 0.0;
    const auto map = make_dense_map(spec);
    runner r(map);
    const auto out = r.run(std::vector<float>(spec.input_dim, 0.0f));
    for (std::uint32_t i = 0; i < spec.projection_dim; ++i) {
        CHECK(out[i] == doctest::Approx(spec.weight));
        CHECK(out[spec.projection_dim + i] == 0.0f);
    }
    // Normalisation makes the map scale-invariant.
    auto x = test_vector(spec.input_dim, 9);
    auto x3 = x;
    for (auto& v : x3) v *= 3.0f;
    const auto a = r.run(x), b = r.run(x3);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-5));
}

TEST_CASE("product segments follow the groups section") {
    check_against_reference(make_product_map(product_spec{}), "product");
    product_spec scalars;
    scalars.scale_array = scalars.weight_array = false;
    check_against_reference(make_product_map(scalars), "product scalars");
}

TEST_CASE("kernel_estimate subtracts the last negative_dim features, in double") {
    dense_spec spec;
    spec.constants = 2;
    spec.negative_dim = 5;
    const auto map = make_dense_map(spec);
    runner r(map);
    const auto px = r.run(test_vector(spec.input_dim, 1));
    const auto py = r.run(test_vector(spec.input_dim, 2));
    double expected = 0.0;
    const std::size_t D = px.size();
    for (std::size_t i = 0; i < D; ++i) expected += (i < D - 5 ? 1.0 : -1.0) * double(px[i]) * double(py[i]);
    CHECK(kfm::kernel_estimate(r.view, px.data(), py.data()) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(std::isnan(kfm::kernel_estimate(r.view, nullptr, py.data())));
}

TEST_CASE("bad input: an error status and the output untouched") {
    const auto map = make_dense_map(dense_spec{});
    runner r(map);
    const std::size_t d = map.meta.input_dim, D = map.meta.output_dim;
    auto x = test_vector(static_cast<std::uint32_t>(d), 4);
    std::vector<float> out(D, -3.0f);
    const std::vector<float> untouched = out;
    auto call = [&](const float* xp, std::size_t xd, float* op, std::size_t od, void* w, std::size_t wb) {
        return kfm::transform(r.view, xp, xd, op, od, w, wb);
    };
    CHECK(call(x.data(), d - 1, out.data(), D, r.ws.data(), r.ws_bytes()) == status::wrong_dimension);
    CHECK(call(x.data(), d + 1, out.data(), D, r.ws.data(), r.ws_bytes()) == status::wrong_dimension);
    CHECK(call(x.data(), d, out.data(), D - 1, r.ws.data(), r.ws_bytes()) == status::output_too_small);
    CHECK(call(x.data(), d, out.data(), D, r.ws.data(), kfm::workspace_bytes(r.view) - 1) == status::workspace_too_small);
    CHECK(call(x.data(), d, out.data(), D, nullptr, r.ws_bytes()) == status::workspace_too_small);
    CHECK(call(nullptr, d, out.data(), D, r.ws.data(), r.ws_bytes()) == status::null_argument);
    CHECK(call(x.data(), d, nullptr, D, r.ws.data(), r.ws_bytes()) == status::null_argument);
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
        auto xb = x;
        xb[d - 1] = bad;
        CHECK(call(xb.data(), d, out.data(), D, r.ws.data(), r.ws_bytes()) == status::non_finite_input);
    }
    CHECK(out == untouched);
    kfm::map empty;
    CHECK(kfm::transform(empty, x.data(), d, out.data(), D, r.ws.data(), r.ws_bytes()) == status::not_open);
    CHECK(out == untouched);
}

TEST_CASE("workspace: any alignment of the caller's buffer works with workspace_bytes bytes") {
    const auto map = make_dense_map(dense_spec{});
    runner r(map);
    const auto x = test_vector(map.meta.input_dim, 5);
    const auto want = r.run(x);
    const std::size_t need = kfm::workspace_bytes(r.view);
    std::vector<unsigned char> raw(need + 64);
    for (std::size_t shift = 0; shift < 64; shift += 4) {
        std::vector<float> out(want.size());
        REQUIRE(kfm::transform(r.view, x.data(), x.size(), out.data(), out.size(), raw.data() + shift, need) == status::ok);
        CHECK(out == want);
    }
}

TEST_CASE("transform_batch equals a loop of single transforms, with any workspace size") {
    dense_spec spec;
    spec.kind = fmt::nonlinearity::cos_phase;
    spec.constants = 1;
    spec.input_dim = 9;
    spec.projection_dim = 16;
    const auto map = make_dense_map(spec);
    const std::size_t n = 70, d = spec.input_dim, x_stride = d + 3;
    runner r(map, kfm::isa::scalar, n);
    const std::size_t D = r.view.output_dim(), out_stride = D + 2;
    std::vector<float> xs(n * x_stride, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = test_vector(static_cast<std::uint32_t>(d), 100 + i);
        std::copy(x.begin(), x.end(), xs.begin() + static_cast<std::ptrdiff_t>(i * x_stride));
    }
    for (std::size_t ws_bytes : {kfm::workspace_bytes(r.view, 1), kfm::workspace_bytes(r.view, 5), kfm::workspace_bytes(r.view, n)}) {
        std::vector<float> out(n * out_stride, -1.0f);
        REQUIRE(kfm::transform_batch(r.view, xs.data(), n, x_stride, d, out.data(), out_stride, r.ws.data(), ws_bytes) == status::ok);
        for (std::size_t i = 0; i < n; ++i) {
            const std::vector<float> x(xs.begin() + static_cast<std::ptrdiff_t>(i * x_stride), xs.begin() + static_cast<std::ptrdiff_t>(i * x_stride + d));
            const auto single = r.run(x);
            for (std::size_t j = 0; j < D; ++j) REQUIRE(out[i * out_stride + j] == doctest::Approx(single[j]).epsilon(1e-5).scale(1.0));
            CHECK(out[i * out_stride + D] == -1.0f);  // stride gap untouched
        }
    }
    CHECK(kfm::workspace_bytes(r.view, n) > kfm::workspace_bytes(r.view, 1));
}

TEST_CASE("transform_batch checks every row before writing any") {
    const auto map = make_dense_map(dense_spec{});
    runner r(map);
    const std::size_t n = 6, d = map.meta.input_dim, D = map.meta.output_dim;
    std::vector<float> xs(n * d, 0.25f);
    xs[(n - 1) * d + 2] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> out(n * D, 9.0f);
    const auto untouched = out;
    CHECK(kfm::transform_batch(r.view, xs.data(), n, d, d, out.data(), D, r.ws.data(), r.ws_bytes()) == status::non_finite_input);
    CHECK(out == untouched);
    CHECK(kfm::transform_batch(r.view, xs.data(), n, d, d + 1, out.data(), D, r.ws.data(), r.ws_bytes()) == status::wrong_dimension);
    CHECK(kfm::transform_batch(r.view, xs.data(), n, d, d, out.data(), D - 1, r.ws.data(), r.ws_bytes()) == status::output_too_small);
    CHECK(kfm::transform_batch(r.view, xs.data(), n, d, d, out.data(), D, r.ws.data(), 8) == status::workspace_too_small);
    CHECK(out == untouched);
    CHECK(kfm::transform_batch(r.view, xs.data(), 0, d, d, out.data(), D, r.ws.data(), r.ws_bytes()) == status::ok);
}

TEST_CASE("transform_batch accepts exactly the rows transform accepts, PREP'd x' near the float limit") {
    // A batch checks a row with every |x_i| <= format::max_input_abs by reading it alone (open bounded PREP's
    // x' there) and computes x' only for the others: large rows whose x' is finite must still map, with the
    // single-vector bits, and rows whose x' overflows must still be refused, whichever pass they are in.
    const float big = std::numeric_limits<float>::max();
    const float values[] = {0.5f, -3.0f, float(fmt::max_input_abs), std::nextafter(float(fmt::max_input_abs), big),
                            1e30f, -1e30f, 3e38f, -3e38f, big, -big,
                            std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
    const float shifts[] = {0.0f, 1e30f, -1e30f, 3e38f / 4, 5.0f};
    const float scales[] = {1e-10f, 1.0f, -1e5f, 4.0f};
    dense_spec spec;
    auto map = make_dense_map(spec);
    const std::uint32_t d = spec.input_dim, D = map.meta.output_dim;
    kfm::offline::input_scaling scaling;
    for (std::uint32_t i = 0; i < d; ++i) {
        scaling.shift.push_back(shifts[i % 5]);
        scaling.scale.push_back(i % 5 == 3 ? 1e-30f : scales[i % 4]);  // the 3e38/4 shift: x' stays small
    }
    kfm::offline::add_preprocessing(map, scaling);
    runner r(map, kfm::isa::scalar, 3);
    const std::vector<float> good = test_vector(d, 4);
    const std::vector<float> good_out = r.run(good);
    std::uint64_t state = 12345;
    int accepted_large = 0, refused = 0;
    for (int trial = 0; trial < 400; ++trial) {
        std::vector<float> row = good;
        for (std::uint32_t i = 0; i < d; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            if ((state >> 60) < 4) row[i] = values[(state >> 33) % (sizeof values / sizeof values[0])];
        }
        CAPTURE(trial);
        std::vector<float> single(D, -7.0f);
        const status expected = kfm::transform(r.view, row.data(), d, single.data(), D, r.ws.data(), r.ws_bytes());
        // The row first, in the middle and last, with one pass of three rows and with one row per pass.
        for (const std::size_t position : {std::size_t(0), std::size_t(1), std::size_t(2)}) {
            std::vector<float> xs;
            for (std::size_t k = 0; k < 3; ++k) xs.insert(xs.end(), k == position ? row.begin() : good.begin(),
                                                          k == position ? row.end() : good.end());
            for (const std::size_t bytes : {kfm::workspace_bytes(r.view, 1), r.ws_bytes()}) {
                std::vector<float> out(3 * D, -7.0f);
                REQUIRE(kfm::transform_batch(r.view, xs.data(), 3, d, d, out.data(), D, r.ws.data(), bytes) == expected);
                for (std::size_t k = 0; k < 3; ++k) {
                    const std::vector<float> got(out.begin() + k * D, out.begin() + (k + 1) * D);
                    if (expected != status::ok) CHECK(got == std::vector<float>(D, -7.0f));
                    else CHECK(std::memcmp(got.data(), (k == position ? single : good_out).data(), D * sizeof(float)) == 0);
                }
            }
        }
        bool large = false;
        for (const float v : row) large = large || !(std::fabs(v) <= float(fmt::max_input_abs));
        if (expected == status::ok && large) ++accepted_large;
        if (expected != status::ok) ++refused;
    }
    // Both outcomes occur, and rows beyond max_input_abs are accepted too (the computed check's branch).
    CHECK(accepted_large > 20);
    CHECK(refused > 50);
}

TEST_CASE("status strings are distinct and never null") {
    for (int i = 0; i <= static_cast<int>(status::non_finite_input); ++i) {
        const char* s = kfm::status_string(static_cast<status>(i));
        REQUIRE(s != nullptr);
        CHECK(std::string(s).size() > 1);
        for (int j = 0; j < i; ++j) CHECK(std::string(s) != kfm::status_string(static_cast<status>(j)));
    }
    CHECK(std::string(kfm::status_string(status::ok)) == "ok");
}
