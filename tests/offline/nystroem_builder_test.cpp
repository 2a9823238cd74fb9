// Nystroem's builder: landmark selection (uniform without replacement; k-means++ seeding with its first
// pick uniform, no row picked twice and the D^2 weighting checked against the known probabilities of a
// tiny 1-D set), the refusals, the stored K_mm^{-1/2} against its definition, and the error falling as m
// grows on a slice of LETTER.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/datasets.hpp"
#include "common/map_sections.hpp"
#include "kfm/offline.hpp"
#include "kfm/offline/bandwidth.hpp"
#include "kfm/offline/evaluate.hpp"
#include "offline/methods/nystroem/landmarks.hpp"

namespace fmt = kfm::format;
using namespace kfm::offline;

namespace {

// |observed/trials - p| within 4.5 standard deviations of a binomial proportion.
void check_proportion(std::size_t hits, std::size_t trials, double p) {
    const double sd = std::sqrt(p * (1 - p) / double(trials));
    INFO("observed " << double(hits) / double(trials) << ", expected " << p);
    CHECK(std::fabs(double(hits) / double(trials) - p) <= 4.5 * sd);
}

build_options nystroem(std::vector<float> data, unsigned d, unsigned m) {
    build_options o;
    o.method = fmt::method::nystroem;
    o.input_dim = d;
    o.features = m;
    o.data_rows = data.size() / d;
    o.data = std::move(data);
    return o;
}

void check_refused(const build_options& o, const std::string& part) {
    try {
        build_map(o);
        FAIL("built: expected a refusal mentioning '" << part << "'");
    } catch (const std::invalid_argument& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find(part) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("uniform landmarks: m distinct rows, each row equally likely") {
    const std::size_t n = 5, trials = 20000;
    std::vector<std::size_t> count(n, 0);
    for (std::uint64_t s = 0; s < trials; ++s) {
        rng r(s);
        const auto rows = uniform_landmarks(n, 2, r);
        REQUIRE(rows.size() == 2);
        CHECK(rows[0] != rows[1]);
        for (auto i : rows) ++count[i];
    }
    for (std::size_t i = 0; i < n; ++i) check_proportion(count[i], 2 * trials, 1.0 / n);
    rng r(1);
    const auto all = uniform_landmarks(n, n, r);
    CHECK(std::set<std::size_t>(all.begin(), all.end()).size() == n);
}

TEST_CASE("k-means++ landmarks: first pick uniform, no row twice, later picks D^2-weighted") {
    // 1-D rows 0, 1, 3. After row 0: D^2 = (0, 1, 9), so row 2 with probability 0.9; after row 2 (x = 3):
    // D^2 = (9, 4, 0), so row 0 with probability 9/13; after row 1: D^2 = (1, 0, 4), row 2 with 0.8.
    const std::vector<float> x = {0.0f, 1.0f, 3.0f};
    const std::size_t trials = 30000;
    std::size_t first[3] = {0, 0, 0}, second_hit[3] = {0, 0, 0};
    const std::size_t likely_second[3] = {2, 2, 0};
    for (std::uint64_t s = 0; s < trials; ++s) {
        rng r(s);
        const auto rows = kmeanspp_landmarks(x.data(), 3, 1, 2, r);
        REQUIRE(rows.size() == 2);
        REQUIRE(rows[0] != rows[1]);
        ++first[rows[0]];
        if (rows[1] == likely_second[rows[0]]) ++second_hit[rows[0]];
    }
    for (int i = 0; i < 3; ++i) check_proportion(first[i], trials, 1.0 / 3.0);
    check_proportion(second_hit[0], first[0], 0.9);
    check_proportion(second_hit[1], first[1], 0.8);
    check_proportion(second_hit[2], first[2], 9.0 / 13.0);

    // Copies of rows: every row index still comes once (once only copies are left, uniformly).
    const std::vector<float> copies = {1, 1, 1, 2, 2, 5};
    for (std::uint64_t s = 0; s < 200; ++s) {
        rng r(s);
        const auto rows = kmeanspp_landmarks(copies.data(), copies.size(), 1, copies.size(), r);
        CHECK(std::set<std::size_t>(rows.begin(), rows.end()).size() == copies.size());
        // The three distinct values come first: a copy of a chosen value has D^2 = 0.
        std::set<float> values;
        for (int k = 0; k < 3; ++k) values.insert(copies[rows[k]]);
        CHECK(values.size() == 3);
    }
}

TEST_CASE("nystroem builder refusals: no data, m > N, m < 1, NaN, dimension mismatch, other kernels") {
    const std::vector<float> data = {0, 1, 2, 3, 4, 5, 6, 7};  // 4 rows of d = 2
    build_options o = nystroem({}, 2, 2);
    check_refused(o, "needs a data set");
    check_refused(nystroem(data, 2, 5), "is more than the 4 rows");
    check_refused(nystroem(data, 2, 0), "at least 1");
    o = nystroem(data, 2, 2);
    o.data[5] = std::nanf("");
    check_refused(o, "row 2, column 1 is not finite");
    check_refused(nystroem(data, 3, 2), "--input-dim is 3");
    o = nystroem(data, 2, 2);
    o.kernel.kind = fmt::kernel::arccos;
    check_refused(o, "not supported");
    o.kernel.kind = fmt::kernel::laplacian;
    check_refused(o, "not supported");
    o.kernel.kind = fmt::kernel::matern;
    o.kernel.nu = 2.0;
    check_refused(o, "matern --nu 2 is not supported");
    o.kernel.nu = 1.5;
    CHECK_NOTHROW(build_map(o));
    o.kernel.kind = fmt::kernel::rational_quadratic;
    o.kernel.alpha = 0.0;
    check_refused(o, "alpha must be positive");
    o = nystroem(data, 2, 2);
    o.landmark_init = static_cast<kfm::offline::landmark_init_kind>(7);
    check_refused(o, "--landmark-init holds a value outside its choices");
    CHECK_NOTHROW(build_map(nystroem(data, 2, 4)));
}

TEST_CASE("nystroem stores M = K_mm^{-1/2}: symmetric with M K M = I (m = 5, 6, 7: the product's blocks of 4 and its tails)") {
    // Rows 1.3 apart along the first axis at sigma 1: K_mm is well conditioned, so the float rounding of M
    // shows in M K M only at the 1e-6 level.
    const unsigned d = 3, n = 12;
    std::vector<float> data;
    for (unsigned i = 0; i < n; ++i)
        for (float v : {1.3f * float(i), float(std::sin(1.7 * i)), float(std::cos(2.3 * i))}) data.push_back(v);
    for (unsigned m : {5u, 6u, 7u}) {
        INFO("m = " << m);
        const map_contents map = build_map(nystroem(data, d, m));
        const std::vector<float> landmarks = kfm::test::f32_values(*kfm::test::find_section(map, fmt::tag::dense));
        const std::vector<float> root = kfm::test::f32_values(*kfm::test::find_section(map, fmt::tag::kernel_inverse_root));
        REQUIRE(root.size() == std::size_t(m) * m);
        std::vector<double> k(std::size_t(m) * m);
        for (unsigned a = 0; a < m; ++a)
            for (unsigned b = 0; b < m; ++b) {
                double sq = 0.0;
                for (unsigned i = 0; i < d; ++i) sq += std::pow(double(landmarks[a * d + i]) - landmarks[b * d + i], 2);
                k[a * m + b] = std::exp(-sq / 2.0);
            }
        double asymmetry = 0.0, identity_error = 0.0;
        for (unsigned i = 0; i < m; ++i)
            for (unsigned j = 0; j < m; ++j) {
                asymmetry = std::max(asymmetry, std::fabs(double(root[i * m + j]) - root[j * m + i]));
                double mkm = 0.0;
                for (unsigned a = 0; a < m; ++a)
                    for (unsigned b = 0; b < m; ++b) mkm += double(root[i * m + a]) * k[a * m + b] * root[b * m + j];
                identity_error = std::max(identity_error, std::fabs(mkm - (i == j ? 1.0 : 0.0)));
            }
        CHECK(asymmetry <= 1e-6);
        CHECK(identity_error <= 1e-5);
    }
}

TEST_CASE("nystroem on LETTER: the Gram error falls as m grows (both seedings; every kernel it builds)" *
          doctest::skip(kfm::test::missing_data({"letter"}))) {
    npy_array letter;
    REQUIRE(kfm::test::load_quffka_scaled("letter", &letter));
    const unsigned d = unsigned(letter.cols);
    const std::size_t pool = 1000, held = 200;
    REQUIRE(letter.rows >= pool + held);
    std::vector<float> data(letter.data.begin(), letter.data.begin() + pool * d);
    const float* y = letter.data.data() + pool * d;
    kernel_spec gaussian;
    gaussian.sigma = median_heuristic_sigma(data.data(), pool, d);
    std::vector<std::pair<kernel_spec, const char*>> cases = {{gaussian, "uniform"}, {gaussian, "kmeans++"}};
    for (double nu : {0.5, 1.5, 2.5}) {
        kernel_spec k = gaussian;
        k.kind = fmt::kernel::matern;
        k.nu = nu;
        cases.push_back({k, "uniform"});
    }
    kernel_spec rq = gaussian;
    rq.kind = fmt::kernel::rational_quadratic;
    rq.alpha = 0.75;
    cases.push_back({rq, "uniform"});
    for (const auto& [k, init] : cases) {
        const auto exact = exact_gram(k, y, held, y, held, d);
        double previous = INFINITY, first = 0.0;
        for (unsigned m : {8u, 32u, 128u, 512u}) {
            build_options o = nystroem(data, d, m);
            o.kernel = k;
            o.landmark_init = kfm::offline::choice_named<kfm::offline::landmark_init_kind>(init);
            o.seed = 3;
            const auto bytes = serialize(build_map(o));
            std::vector<std::uint64_t> aligned((bytes.size() + 7) / 8);
            std::memcpy(aligned.data(), bytes.data(), bytes.size());
            kfm::map map;
            REQUIRE(kfm::open(aligned.data(), bytes.size(), &map) == kfm::status::ok);
            const double err = compare_grams(exact, approx_gram(map, y, held, y, held, d)).rel_frobenius;
            MESSAGE("letter nystroem " << std::string(kernel_name(k.kind)) << (k.kind == fmt::kernel::matern ? " nu " + std::to_string(k.nu) : "")
                    << " " << std::string(init) << " m = " << m << ": relative Frobenius error " << err);
            CHECK(err < previous);
            if (m == 8) first = err;
            previous = err;
        }
        // m = 512 against m = 8: measured 0.0024-0.0088 for the smooth kernels, 0.25 for Matern 1/2 (whose
        // spectrum decays slowest)
        CHECK(previous < 0.3 * first);
        if (k.kind == fmt::kernel::gaussian) CHECK(previous < 0.05);
    }
}
