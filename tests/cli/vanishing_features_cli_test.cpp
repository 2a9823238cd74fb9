// Rows whose features all vanish where the kernel's k(x, x) > 0, beyond the far rows of nystroem and
// maclaurin-opt (maclaurin_opt_cli_test.cpp): an arc-cosine map without reflected pairs gives all-zero
// features to the rows on the negative side of every one of its directions, where k(x, x) > 0, and to
// x = 0, where k(0, 0) = 0 too. `kfm inspect --json` reports the library's rule as "features_can_vanish";
// kfm map, predict and score count the first rows and not the second.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/cli_harness.hpp"
#include "kfm/offline/npy.hpp"

using namespace kfm_cli_test;

namespace {

constexpr std::size_t d = 3, n = 400;

// Row 0 is 0; the others spread over every direction (a deterministic sequence), with targets.
void write_rows(const scratch& s) {
    std::vector<float> x(d, 0.0f), y{0.0f};
    for (std::size_t i = 1; i < n; ++i) {
        for (std::size_t c = 0; c < d; ++c) x.push_back(std::sin(1.7f * float(i * (c + 2)) + float(c)));
        y.push_back(x[i * d] - x[i * d + 1]);
    }
    kfm::offline::write_npy_f32(s.path("x.npy"), n, d, x.data());
    kfm::offline::write_npy_f32_vector(s.path("y.npy"), n, y.data());
}

// The rows of phi (a .npy) whose features are all 0, but row 0 (x = 0).
std::size_t all_zero_rows_but_the_first(const scratch& s, const std::string& name) {
    const kfm::offline::npy_array phi = kfm::offline::read_npy(s.path(name));
    std::size_t count = 0;
    for (std::size_t r = 1; r < phi.rows; ++r) {
        const auto row = phi.data.begin() + std::ptrdiff_t(r * phi.cols);
        count += std::all_of(row, row + std::ptrdiff_t(phi.cols), [](float v) { return v == 0.0f; });
    }
    return count;
}

const std::string plain = "build --method orf --kernel arccos --order 1 --arccos-pairs plain --input-dim 3 --features 3 ";
const std::string tail = " rows of x.npy have all-zero features, so the map estimates k(x, x) = 0 for them where the "
                         "arccos kernel's is positive";
const std::string why = " (rows on the negative side of every direction of a map without reflected pairs; "
                        "--arccos-pairs reflected has none)\n";

}  // namespace

TEST_CASE("cli: kfm map warns about arc-cosine rows on the negative side of every direction, not about x = 0") {
    scratch s;
    write_rows(s);
    REQUIRE(s.kfm(plain + "-o plain.kfm").exit_code == 0);
    CHECK(s.kfm("inspect --json plain.kfm").out.find("\"features_can_vanish\": true") != std::string::npos);
    CHECK(s.kfm("inspect plain.kfm").out.find("\nall-zero features possible for rows where k(x, x) > 0") !=
          std::string::npos);
    const run_result mapped = s.kfm("map plain.kfm --in x.npy --out phi.npy");
    REQUIRE_MESSAGE(mapped.exit_code == 0, mapped.err);
    const std::size_t vanished = all_zero_rows_but_the_first(s, "phi.npy");
    REQUIRE(vanished > 0);  // three orthogonal directions: about an eighth of the rows
    CHECK(mapped.err == "kfm map: warning: " + std::to_string(vanished) + " of " + std::to_string(n) + tail + why);
    // The default reflected pairs keep a nonzero feature for every x != 0: no field, no warning.
    REQUIRE(s.kfm("build --method orf --kernel arccos --order 1 --input-dim 3 --features 6 -o pairs.kfm").exit_code == 0);
    CHECK(s.kfm("inspect --json pairs.kfm").out.find("\"features_can_vanish\": false") != std::string::npos);
    CHECK(s.kfm("inspect pairs.kfm").out.find("all-zero features") == std::string::npos);
    const run_result paired = s.kfm("map pairs.kfm --in x.npy --out pairs.npy");
    REQUIRE(paired.exit_code == 0);
    CHECK(paired.err.empty());
    CHECK(all_zero_rows_but_the_first(s, "pairs.npy") == 0);
}

TEST_CASE("cli: kfm predict and kfm score count the same arc-cosine rows as kfm map, not x = 0") {
    scratch s;
    write_rows(s);
    REQUIRE(s.kfm(plain + "-o plain.kfm").exit_code == 0);
    REQUIRE(s.kfm("fit plain.kfm --x x.npy --y y.npy --task regression -o model.kfm").exit_code == 0);
    REQUIRE(s.kfm("map model.kfm --in x.npy --out phi.npy").exit_code == 0);
    const std::size_t vanished = all_zero_rows_but_the_first(s, "phi.npy");
    REQUIRE(vanished > 0);
    const std::string warning = ": warning: " + std::to_string(vanished) + " of " + std::to_string(n) + tail +
                                ", and the model predicts its bias alone" + why;
    const run_result predicted = s.kfm("predict model.kfm --in x.npy --out p.npy");
    REQUIRE_MESSAGE(predicted.exit_code == 0, predicted.err);
    CHECK(predicted.err == "kfm predict" + warning);
    const run_result scored = s.kfm("score model.kfm --x x.npy --y y.npy --json");
    REQUIRE_MESSAGE(scored.exit_code == 0, scored.err);
    CHECK(scored.err == "kfm score" + warning);
    CHECK(scored.out.rfind("{\"metric\": \"r2\"", 0) == 0);
}
