// The runtime pieces maclaurin-opt adds, on a built map: the gaussian prefactor (every output, the constant
// included, times exp(-|x'|^2/2) of the PREP'd input), block products (factor l of feature j reads
// t[proj_begin + l block_size + j]; consecutive passes share blocks), indexed product rows (entry k reads
// INDX[k], the layout of earlier files, here hand-built from the block products) and one-stage hadamard
// blocks (repeats = 1), against a double-precision reference of the map's own sections; and open()'s
// refusals of malformed block and indexed products, flags and stage counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;
namespace fmt = kfm::format;
using kfm::offline::map_contents;

namespace {

constexpr unsigned d = 6;  // padded to d2 = 8

map_contents built(unsigned features = 40) {
    offline::build_options o;
    o.method = fmt::method::maclaurin_opt;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = 1.4;
    o.seed = 11;
    o.data_rows = 50;
    for (std::size_t i = 0; i < o.data_rows * d; ++i) o.data.push_back(float(std::sin(0.7 * double(i)) + 0.3 * double(i % d)));
    return offline::build_map(o);
}

offline::section* find(map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return &s;
    return nullptr;
}

bool has_section(const map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) return true;
    return false;
}

template <class T>
T* data_of(map_contents& map, std::uint32_t tag) {
    return reinterpret_cast<T*>(find(map, tag)->bytes.data());
}

status open_status(const map_contents& map) {
    const file_buffer buffer(offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, isa::scalar);
}

// The Walsh-Hadamard transform of v (length a power of two), normalised: H v with H orthogonal.
std::vector<double> hadamard(std::vector<double> v) {
    for (std::size_t h = 1; h < v.size(); h *= 2)
        for (std::size_t i = 0; i < v.size(); i += 2 * h)
            for (std::size_t j = i; j < i + h; ++j) {
                const double a = v[j], b = v[j + h];
                v[j] = a + b, v[j + h] = a - b;
            }
    for (double& x : v) x /= std::sqrt(double(v.size()));
    return v;
}

// phi(x) from the map's sections in double: PREP, one H D stage per block, the identity segment, the block
// or indexed products, the constant, the prefactor.
std::vector<double> reference(const map_contents& map, const std::vector<float>& x) {
    const fmt::map_meta& m = map.meta;
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    const auto signs = section_values<std::uint8_t>(map, fmt::tag::signs);
    const auto rows = section_values<std::uint32_t>(map, fmt::tag::indices);
    const auto groups = section_values<std::uint32_t>(map, fmt::tag::groups);
    const std::uint32_t d2 = m.block_size, stride = fmt::hadamard_sign_stride(d2);
    std::vector<double> xp(d2, 0.0);
    double norm2 = 0.0;
    for (unsigned i = 0; i < d; ++i) {
        xp[i] = double((x[i] - prep[i]) * prep[d + i]);
        norm2 += xp[i] * xp[i];
    }
    std::vector<double> t;
    for (std::uint32_t b = 0; b < m.block_count; ++b) {
        std::vector<double> v(xp);
        for (std::uint32_t j = 0; j < d2; ++j) {
            const std::size_t bit = std::size_t(b) * stride + j;
            if ((signs[bit / 8] >> (bit % 8)) & 1) v[j] = -v[j];
        }
        const std::vector<double> h = hadamard(v);
        t.insert(t.end(), h.begin(), h.end());
    }
    std::vector<double> out(m.output_dim, 0.0);
    for (const fmt::feature_segment& s : section_values<fmt::feature_segment>(map, fmt::tag::segments))
        for (std::uint32_t j = 0; j < s.arg_count; ++j) {
            if (s.nonlinearity == static_cast<std::uint32_t>(fmt::nonlinearity::identity)) {
                out[s.out_begin + j] = double(s.weight) * double(s.scale) * t[s.proj_begin + j];
                continue;
            }
            double p = s.weight;
            if ((s.flags & fmt::segment_flag_block_product) != 0) {
                // Factor l from row l of its block on, wrapping round.
                for (std::uint32_t l = 0; l < s.proj_count / d2; ++l) p *= double(s.scale) * t[s.proj_begin + l * d2 + (j + l) % d2];
            } else {
                for (std::uint32_t k = groups[s.group_index + j]; k < groups[s.group_index + j + 1]; ++k)
                    p *= double(s.scale) * t[s.proj_begin + rows[k]];
            }
            out[s.out_begin + j] = p;
        }
    out[m.output_dim - 1] = 1.0;
    for (double& v : out) v *= std::exp(-0.5 * norm2);
    return out;
}

// The same map in the indexed-rows layout: each block product segment becomes an indexed product over the
// whole projection whose group j lists its factors' rows proj_begin + l d2 + j (GRPS and INDX added).
map_contents as_indexed_rows(map_contents map) {
    const std::uint32_t d2 = map.meta.block_size;
    std::vector<std::uint32_t> groups, rows;
    offline::section* segments = find(map, fmt::tag::segments);
    auto* s = reinterpret_cast<fmt::feature_segment*>(segments->bytes.data());
    for (std::uint64_t i = 0; i < segments->count; ++i) {
        if ((s[i].flags & fmt::segment_flag_block_product) == 0) continue;
        const std::uint32_t degree = s[i].proj_count / d2;
        s[i].group_index = std::uint32_t(groups.size());
        for (std::uint32_t j = 0; j < s[i].arg_count; ++j) {
            groups.push_back(std::uint32_t(rows.size()));
            for (std::uint32_t l = 0; l < degree; ++l) rows.push_back(s[i].proj_begin + l * d2 + (j + l) % d2);
        }
        groups.push_back(std::uint32_t(rows.size()));
        s[i].flags = fmt::segment_flag_indexed_rows;
        s[i].proj_begin = 0;
        s[i].proj_count = map.meta.projection_dim;
    }
    map.sections.push_back(offline::make_u32_section(fmt::tag::groups, groups));
    map.sections.push_back(offline::make_u32_section(fmt::tag::indices, rows));
    return map;
}

// Every output of the opened map within 1e-5 of the largest of the double reference (float transforms and
// products; the largest is the constant's prefactor).
void check_against_reference(const map_contents& map) {
    const opened_map opened = map_from_contents(map);
    for (int r = 0; r < 4; ++r) {
        std::vector<float> x(d);
        for (unsigned i = 0; i < d; ++i) x[i] = float(0.4 * std::cos(1.3 * r + i) + 0.3 * i);
        const std::vector<float> got = transform_one(opened, x);
        const std::vector<double> want = reference(map, x);
        double largest = 0.0;
        for (double v : want) largest = std::max(largest, std::fabs(v));
        for (std::size_t i = 0; i < want.size(); ++i) {
            CAPTURE(r);
            CAPTURE(i);
            CAPTURE(want[i]);
            CHECK(std::fabs(double(got[i]) - want[i]) <= 1e-5 * largest);
        }
    }
}

// The block product segments' passes, in order.
struct pass_layout {
    std::uint32_t first_block, degree, features;
};
std::vector<pass_layout> passes(const map_contents& map) {
    std::vector<pass_layout> out;
    const std::uint32_t d2 = map.meta.block_size;
    for (const fmt::feature_segment& s : section_values<fmt::feature_segment>(map, fmt::tag::segments))
        if ((s.flags & fmt::segment_flag_block_product) != 0) out.push_back({s.proj_begin / d2, s.proj_count / d2, s.arg_count});
    return out;
}

}  // namespace

TEST_CASE("maclaurin-opt runtime: phi(x) is the prefactor times the H D blocks' identity, block products and constant") {
    const map_contents map = built();
    REQUIRE(map.meta.repeats == 1);
    REQUIRE(!has_section(map, fmt::tag::indices));
    // The passes of up to d2 features are one chain of blocks from block 0 (the linear terms'): pass p reads
    // blocks p, ..., p + k - 1, so the map has (passes + the last degree - 1) blocks.
    const auto p = passes(map);
    REQUIRE(p.size() >= 2);
    std::uint32_t blocks = 1, out = map.meta.block_size;
    for (std::uint32_t i = 0; i < p.size(); ++i) {
        CAPTURE(i);
        CHECK(p[i].first_block == i);
        CHECK(p[i].features <= map.meta.block_size);
        blocks = std::max(blocks, i + p[i].degree);
        out += p[i].features;
    }
    CHECK(map.meta.block_count == blocks);
    CHECK(blocks == std::uint32_t(p.size()) + p.back().degree - 1);
    CHECK(out + 1 == map.meta.output_dim);
    check_against_reference(map);
}

TEST_CASE("maclaurin-opt runtime: a hand-built indexed-rows map of the same features maps as its reference and as the block products") {
    const map_contents map = built();
    const map_contents indexed = as_indexed_rows(map);
    REQUIRE(has_section(indexed, fmt::tag::indices));
    check_against_reference(indexed);
    const opened_map a = map_from_contents(map), b = map_from_contents(indexed);
    const std::vector<float> x{0.9f, -0.2f, 1.4f, 0.3f, 0.0f, 2.1f};
    const std::vector<float> ya = transform_one(a, x), yb = transform_one(b, x);
    for (std::size_t i = 0; i < ya.size(); ++i) CHECK(double(ya[i]) == doctest::Approx(yb[i]).epsilon(1e-6).scale(1e-6));
}

TEST_CASE("maclaurin-opt runtime: without the prefactor flag every output is exp(|x'|^2/2) times larger") {
    map_contents map = built();
    const opened_map with = map_from_contents(map);
    map.meta.flags &= ~fmt::meta_flag_gaussian_prefactor;
    const opened_map without = map_from_contents(map);
    const std::vector<float> x{0.9f, -0.2f, 1.4f, 0.3f, 0.0f, 2.1f};
    const auto prep = section_values<float>(map, fmt::tag::preprocess);
    double norm2 = 0.0;
    for (unsigned i = 0; i < d; ++i) norm2 += std::pow(double((x[i] - prep[i]) * prep[d + i]), 2);
    const std::vector<float> a = transform_one(with, x), b = transform_one(without, x);
    CHECK(b.back() == 1.0f);  // the constant, unscaled
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(double(a[i]) == doctest::Approx(std::exp(-0.5 * norm2) * b[i]).epsilon(1e-6));
}

TEST_CASE("maclaurin-opt runtime: an input whose PREP'd x' is not finite is refused, the outputs untouched, single and batch") {
    map_contents map = built();
    float* prep = data_of<float>(map, fmt::tag::preprocess);
    for (unsigned i = 0; i < d; ++i) prep[d + i] = 2.0f;  // scale 2: a finite x near the float limit overflows
    const opened_map opened = map_from_contents(map);
    const std::uint32_t D = map.meta.output_dim;
    std::vector<std::uint8_t> ws(kfm::workspace_bytes(opened.view(), 2));
    const std::vector<float> good{0.9f, -0.2f, 1.4f, 0.3f, 0.0f, 2.1f};
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::max()}) {
        CAPTURE(bad);
        std::vector<float> x = good;
        x[3] = bad;
        std::vector<float> out(D, -7.0f);
        CHECK(kfm::transform(opened.view(), x.data(), d, out.data(), D, ws.data(), ws.size()) == status::non_finite_input);
        CHECK(out == std::vector<float>(D, -7.0f));
        // The second row bad: the first is not written either.
        std::vector<float> xs = good;
        xs.insert(xs.end(), x.begin(), x.end());
        std::vector<float> outs(2 * D, -7.0f);
        CHECK(kfm::transform_batch(opened.view(), xs.data(), 2, d, d, outs.data(), D, ws.data(), ws.size()) ==
              status::non_finite_input);
        CHECK(outs == std::vector<float>(2 * D, -7.0f));
    }
    std::vector<float> out(D);
    CHECK(kfm::transform(opened.view(), good.data(), d, out.data(), D, ws.data(), ws.size()) == status::ok);
}

TEST_CASE("maclaurin-opt runtime: a batch of several passes gives every row's single-vector bits; a bad row in any pass writes nothing") {
    // PREP's x' (and the prefactor's |x'|^2) is computed once per row: the check leaves the first pass's
    // rows prepared and each later pass prepares its own, so every pass must map as the single-vector call.
    map_contents map = built();
    float* prep = data_of<float>(map, fmt::tag::preprocess);
    for (unsigned i = 0; i < d; ++i) prep[d + i] = 2.0f;  // scale 2: a finite x near the float limit overflows
    const opened_map opened = map_from_contents(map);
    const std::uint32_t D = map.meta.output_dim;
    constexpr std::size_t n = 7;
    std::vector<float> xs(n * d);
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = float(std::cos(0.37 * double(i))) * (1.0f + float(i % 5));
    std::vector<float> singles(n * D);
    std::vector<std::uint8_t> one(kfm::workspace_bytes(opened.view(), 1));
    for (std::size_t r = 0; r < n; ++r)
        REQUIRE(kfm::transform(opened.view(), xs.data() + r * d, d, singles.data() + r * D, D, one.data(), one.size()) ==
                status::ok);
    // The smallest workspace (one row per pass) and the largest a batch of n asks for.
    for (const std::size_t bytes : {kfm::workspace_bytes(opened.view(), 1), kfm::workspace_bytes(opened.view(), n)}) {
        CAPTURE(bytes);
        std::vector<std::uint8_t> ws(bytes);
        std::vector<float> out(n * D, -7.0f);
        REQUIRE(kfm::transform_batch(opened.view(), xs.data(), n, d, d, out.data(), D, ws.data(), ws.size()) == status::ok);
        CHECK(std::memcmp(out.data(), singles.data(), out.size() * sizeof(float)) == 0);
        for (const std::size_t bad_row : {std::size_t(0), std::size_t(1), n - 1}) {
            CAPTURE(bad_row);
            std::vector<float> bad = xs;
            bad[bad_row * d + 2] = std::numeric_limits<float>::max();  // finite, but x' overflows
            std::vector<float> untouched(n * D, -7.0f);
            CHECK(kfm::transform_batch(opened.view(), bad.data(), n, d, d, untouched.data(), D, ws.data(), ws.size()) ==
                  status::non_finite_input);
            CHECK(untouched == std::vector<float>(n * D, -7.0f));
        }
    }
}

TEST_CASE("maclaurin-opt runtime: open refuses malformed block and indexed products, flags and stage counts") {
    CHECK(open_status(built()) == status::ok);
    CHECK(open_status(as_indexed_rows(built())) == status::ok);
    struct mutation {
        const char* name;
        bool indexed;  // on the hand-built indexed-rows form
        void (*apply)(map_contents&);
        status expected;
    };
    // The first block product segment (segment 0 is the identity).
    static constexpr auto product = [](map_contents& m) { return &data_of<fmt::feature_segment>(m, fmt::tag::segments)[1]; };
    const mutation mutations[] = {
        {"block product degree not a whole number of blocks", false, [](map_contents& m) { product(m)->proj_count -= 1; },
         status::bad_meta},
        {"block product with more features than a block", false, [](map_contents& m) { product(m)->arg_count = m.meta.block_size + 1; },
         status::bad_meta},
        {"block product past the projections", false, [](map_contents& m) { product(m)->proj_begin = m.meta.projection_dim - m.meta.block_size; },
         status::index_out_of_range},
        {"block product with a group index", false, [](map_contents& m) { product(m)->group_index = 0; }, status::bad_meta},
        {"block product also indexed", false, [](map_contents& m) { product(m)->flags |= fmt::segment_flag_indexed_rows; },
         status::bad_meta},
        {"block product flag on the identity segment", false, [](map_contents& m) {
             data_of<fmt::feature_segment>(m, fmt::tag::segments)[0].flags = fmt::segment_flag_block_product;
         }, status::bad_meta},
        {"block product on a fastfood map", false, [](map_contents& m) {
             m.meta.projection = static_cast<std::uint32_t>(fmt::projection::fastfood);
         }, status::bad_meta},
        {"unknown segment flag bit 4", false, [](map_contents& m) { product(m)->flags |= 1u << 4; }, status::bad_meta},
        {"index at proj_count", true, [](map_contents& m) { data_of<std::uint32_t>(m, fmt::tag::indices)[3] = m.meta.projection_dim; },
         status::index_out_of_range},
        {"no INDX", true, [](map_contents& m) { m.sections.erase(m.sections.begin() + (find(m, fmt::tag::indices) - m.sections.data())); },
         status::missing_section},
        {"groups past INDX", true, [](map_contents& m) {
             auto* idx = find(m, fmt::tag::indices);
             idx->count -= 1;
             idx->bytes.resize(idx->bytes.size() - 4);
         }, status::index_out_of_range},
        {"indexed flag on the identity segment", true, [](map_contents& m) {
             data_of<fmt::feature_segment>(m, fmt::tag::segments)[0].flags = fmt::segment_flag_indexed_rows;
         }, status::bad_meta},
        {"unknown meta flag bit 2", false, [](map_contents& m) { m.meta.flags |= 1u << 2; }, status::bad_meta},
        {"two hadamard stages", false, [](map_contents& m) { m.meta.repeats = 2; }, status::bad_meta},
        {"INDX on a fastfood map", true, [](map_contents& m) { m.meta.projection = static_cast<std::uint32_t>(fmt::projection::fastfood); },
         status::unexpected_section},
    };
    for (const mutation& mu : mutations) {
        map_contents map = mu.indexed ? as_indexed_rows(built()) : built();
        mu.apply(map);
        INFO(mu.name);
        CHECK(open_status(map) == mu.expected);
    }
}
