// The rule for rows whose features all vanish where the kernel's k(x, x) > 0
// (kfm/offline/vanishing_features.hpp) on every method and kernel the registry builds, and the row counts:
// under arc-cosine a row whose input is 0 after a model's PREP is not counted, and vanished_predictions
// finds, through the head's bias, the rows vanished_rows finds in the features.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "kfm/build_registry.hpp"
#include "kfm/offline.hpp"

namespace off = kfm::offline;
namespace fmt = kfm::format;

namespace {

off::build_options options_for(fmt::method m, fmt::kernel k, off::arccos_pairs_kind pairs) {
    off::build_options o;
    o.method = m;
    o.kernel.kind = k;
    o.input_dim = 5;
    o.features = 24;
    o.kernel.nu = 1.5;
    o.kernel.alpha = 2.0;
    o.kernel.scale = 3.0;
    o.kernel.order = 1;
    o.kernel.weights = {1.0};
    o.kernel.sigmas = {1.0};
    o.arccos_pairs = pairs;
    const off::method_row* row = off::find_method(m);
    if (row->landmarks_from_data || row->fitted_to_data) {
        o.data_rows = 40;
        o.data.resize(o.data_rows * o.input_dim);
        for (std::size_t i = 0; i < o.data.size(); ++i) o.data[i] = float(i * 37 % 17) / 17.0f;
        if (row->landmarks_from_data) o.features = 10;
    }
    return o;
}

off::map_file opened(const off::map_contents& contents) {
    const std::vector<std::uint8_t> bytes = off::serialize_verified(contents);
    return off::open_map_bytes(bytes.data(), bytes.size(), "test");
}

std::vector<float> features_of(const kfm::map& map, const std::vector<float>& x, std::size_t rows) {
    std::vector<float> phi(rows * map.output_dim());
    off::map_rows_parallel(map, x.data(), rows, map.input_dim(), phi.data(), 1);
    return phi;
}

}  // namespace

TEST_CASE("vanishing features: nystroem, maclaurin-opt's gaussian and plain arc-cosine maps, no other") {
    for (const off::method_row& r : off::method_table())
        for (const fmt::kernel k : off::kernels_in(r.kernels))
            for (const auto pairs : {off::arccos_pairs_kind::reflected, off::arccos_pairs_kind::plain}) {
                const bool plain = pairs == off::arccos_pairs_kind::plain;
                if (plain && (k != fmt::kernel::arccos ||
                              std::find(r.options.begin(), r.options.end(), off::option::arccos_pairs) == r.options.end()))
                    continue;
                CAPTURE(off::method_name(r.id));
                CAPTURE(off::kernel_name(k));
                CAPTURE(plain);
                const off::map_file file = opened(off::build_map(options_for(r.id, k, pairs)));
                const bool expected = r.id == fmt::method::nystroem ||
                                      (r.id == fmt::method::maclaurin_opt && k == fmt::kernel::gaussian) || plain;
                CHECK(off::features_can_vanish(file.view) == expected);
            }
}

TEST_CASE("vanishing features: a model's zero input under arc-cosine is not counted, and predictions find the rows phi does") {
    constexpr std::size_t d = 3, n = 1 + 7 * 7 * 7;
    off::build_options o = options_for(fmt::method::orf, fmt::kernel::arccos, off::arccos_pairs_kind::plain);
    o.input_dim = d;
    o.features = d;  // one orthogonal block: its negative cone holds an eighth of the directions
    off::map_contents contents = off::build_map(o);
    const off::input_scaling scaling{{0.25f, -0.5f, 1.0f}, {2.0f, 0.5f, 1.5f}};
    off::add_preprocessing(contents, scaling);
    off::linear_head head;
    head.outputs = 1;
    head.weights.assign(d, 0.75f);
    head.bias = {0.125f};
    off::add_head(contents, head);
    const off::map_file file = opened(contents);
    const kfm::map& model = file.view;

    // Row 0 is the shift, 0 after PREP: all-zero features where k(0, 0) = 0 too. Then a grid around it,
    // on both sides of every direction.
    std::vector<float> x(scaling.shift);
    for (int a = -3; a <= 3; ++a)
        for (int b = -3; b <= 3; ++b)
            for (int c = -3; c <= 3; ++c) x.insert(x.end(), {float(a), float(b), float(c)});
    const std::vector<float> phi = features_of(model, x, n);
    std::size_t expected = 0;
    for (std::size_t r = 1; r < n; ++r)
        expected += std::all_of(phi.begin() + std::ptrdiff_t(r * d), phi.begin() + std::ptrdiff_t((r + 1) * d),
                                [](float v) { return v == 0.0f; });
    REQUIRE(std::all_of(phi.begin(), phi.begin() + d, [](float v) { return v == 0.0f; }));
    REQUIRE(expected > 0);
    CHECK(off::vanished_rows(model, x.data(), phi.data(), n) == expected);
    CHECK(off::vanished_rows(model, x.data(), n) == expected);

    std::vector<float> scores(n);
    std::vector<unsigned char> workspace(kfm::workspace_bytes(model, 1));
    for (std::size_t r = 0; r < n; ++r)
        REQUIRE(kfm::predict(model, x.data() + r * d, d, &scores[r], 1, nullptr, workspace.data(), workspace.size()) ==
                kfm::status::ok);
    CHECK(off::vanished_predictions(model, x.data(), scores.data(), n) == expected);
    // A row that scores the bias without all-zero features is mapped again and not counted.
    std::vector<float> biased(scores);
    for (std::size_t r = 0; r < n; ++r) biased[r] = head.bias[0];
    CHECK(off::vanished_predictions(model, x.data(), biased.data(), n) == expected);
}

TEST_CASE("vanishing features: a map that cannot vanish counts nothing, even all-zero rows") {
    off::build_options o = options_for(fmt::method::rff, fmt::kernel::gaussian, off::arccos_pairs_kind::reflected);
    const off::map_file file = opened(off::build_map(o));
    const std::vector<float> x(2 * o.input_dim, 0.5f), zeros(2 * file.view.output_dim(), 0.0f);
    CHECK_FALSE(off::features_can_vanish(file.view));
    CHECK(off::vanished_rows(file.view, x.data(), zeros.data(), 2) == 0);
}
