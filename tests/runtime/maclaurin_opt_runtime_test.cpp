// The runtime pieces maclaurin-opt adds, on a built map: the gaussian prefactor (every output, the constant
// included, times exp(-|x'|^2/2) of the PREP'd input), indexed product rows (entry k reads INDX[k]) and
// one-stage hadamard blocks (repeats = 1), against a double-precision reference of the map's own sections;
// and open()'s refusals of malformed indexed products, flags and stage counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

// phi(x) from the map's sections in double: PREP, one H D stage per block, the identity segment, the
// indexed products, the constant, the prefactor.
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
            for (std::uint32_t k = groups[s.group_index + j]; k < groups[s.group_index + j + 1]; ++k) p *= double(s.scale) * t[rows[k]];
            out[s.out_begin + j] = p;
        }
    out[m.output_dim - 1] = 1.0;
    for (double& v : out) v *= std::exp(-0.5 * norm2);
    return out;
}

}  // namespace

TEST_CASE("maclaurin-opt runtime: phi(x) is the prefactor times the H D blocks' identity, indexed products and constant") {
    const map_contents map = built();
    REQUIRE(map.meta.repeats == 1);
    REQUIRE(map.meta.block_count >= 2);
    const opened_map opened = map_from_contents(map);
    for (int r = 0; r < 4; ++r) {
        std::vector<float> x(d);
        for (unsigned i = 0; i < d; ++i) x[i] = float(0.4 * std::cos(1.3 * r + i) + 0.3 * i);
        const std::vector<float> got = transform_one(opened, x);
        const std::vector<double> want = reference(map, x);
        // Float transforms and products: within 1e-5 of the largest output (the constant's prefactor).
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

TEST_CASE("maclaurin-opt runtime: open refuses malformed indexed products, flags and stage counts") {
    CHECK(open_status(built()) == status::ok);
    struct mutation {
        const char* name;
        void (*apply)(map_contents&);
        status expected;
    };
    const mutation mutations[] = {
        {"index at proj_count", [](map_contents& m) { data_of<std::uint32_t>(m, fmt::tag::indices)[3] = m.meta.projection_dim; },
         status::index_out_of_range},
        {"no INDX", [](map_contents& m) { m.sections.erase(m.sections.begin() + (find(m, fmt::tag::indices) - m.sections.data())); },
         status::missing_section},
        {"groups past INDX", [](map_contents& m) {
             auto* idx = find(m, fmt::tag::indices);
             idx->count -= 1;
             idx->bytes.resize(idx->bytes.size() - 4);
         }, status::index_out_of_range},
        {"indexed flag on the identity segment", [](map_contents& m) {
             data_of<fmt::feature_segment>(m, fmt::tag::segments)[0].flags = fmt::segment_flag_indexed_rows;
         }, status::bad_meta},
        {"unknown meta flag bit 2", [](map_contents& m) { m.meta.flags |= 1u << 2; }, status::bad_meta},
        {"two hadamard stages", [](map_contents& m) { m.meta.repeats = 2; }, status::bad_meta},
        {"INDX on a fastfood map", [](map_contents& m) { m.meta.projection = static_cast<std::uint32_t>(fmt::projection::fastfood); },
         status::unexpected_section},
    };
    for (const mutation& mu : mutations) {
        map_contents map = built();
        mu.apply(map);
        INFO(mu.name);
        CHECK(open_status(map) == mu.expected);
    }
}
