// ctr-srht's complex block products on a built map, against a double-precision reference of the map's own
// sections (normalise, append sqrt(q), one H D stage per block, then per pass feature j's factor l the complex
// number scale ((H D_2l x~)_(j+l mod d2) + i (H D_2l+1 x~)_(j+l mod d2)), the pass's real parts then its
// imaginary parts), on every ISA this host runs; and open()'s refusals of malformed complex block products.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "common/isa_coverage.hpp"
#include "common/stats_util.hpp"
#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

using namespace kfm;
using namespace kfm::test;
namespace fmt = kfm::format;
using kfm::offline::map_contents;

namespace {

constexpr unsigned d = 6;  // x~ has 7 coordinates, padded to d2 = 8

// 22 outputs: 11 complex features, a full pass of 8 and a partial pass of 3.
map_contents built(unsigned degree = 3) {
    offline::build_options o;
    o.method = fmt::method::ctr_srht;
    o.input_dim = d;
    o.features = 22;
    o.kernel.kind = fmt::kernel::polynomial_sphere;
    o.kernel.degree = degree;
    o.kernel.scale = 3.0;
    o.seed = 17;
    return offline::build_map(o);
}

template <class T>
T* data_of(map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return reinterpret_cast<T*>(s.bytes.data());
    return nullptr;
}

status open_status(const map_contents& map) {
    const file_buffer buffer(offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, isa::scalar);
}

// phi(x) from the map's sections in double.
std::vector<double> reference(const map_contents& map, const std::vector<float>& x) {
    const fmt::map_meta& m = map.meta;
    const auto signs = section_values<std::uint8_t>(map, fmt::tag::signs);
    const std::uint32_t d2 = m.block_size, stride = fmt::hadamard_sign_stride(d2);
    double norm2 = 0.0;
    for (float v : x) norm2 += double(v) * double(v);
    std::vector<double> work(d2, 0.0);
    for (unsigned i = 0; i < d; ++i) work[i] = double(x[i]) / std::sqrt(norm2);
    work[d] = m.input_append;
    // Block b's row r: sum_i H_ri s_i work_i, H_ri = (-1)^popcount(r & i) / sqrt(d2).
    std::vector<double> t;
    for (std::uint32_t b = 0; b < m.block_count; ++b)
        for (std::uint32_t r = 0; r < d2; ++r) {
            double sum = 0.0;
            for (std::uint32_t i = 0; i < d2; ++i) {
                const std::size_t bit = std::size_t(b) * stride + i;
                const double sign = ((signs[bit / 8] >> (bit % 8)) & 1) ? -1.0 : 1.0;
                sum += ((__builtin_popcount(r & i) % 2) ? -1.0 : 1.0) * sign * work[i];
            }
            t.push_back(sum / std::sqrt(double(d2)));
        }
    std::vector<double> out(m.output_dim, 0.0);
    for (const fmt::feature_segment& s : section_values<fmt::feature_segment>(map, fmt::tag::segments)) {
        REQUIRE(s.flags == fmt::segment_flag_complex_block_product);
        const std::uint32_t factors = s.proj_count / (2 * d2);
        for (std::uint32_t j = 0; j < s.arg_count; ++j) {
            std::complex<double> z = s.weight;
            for (std::uint32_t l = 0; l < factors; ++l) {
                const std::size_t row = s.proj_begin + 2 * l * d2 + (j + l) % d2;
                z *= double(s.scale) * std::complex<double>(t[row], t[row + d2]);
            }
            out[s.out_begin + j] = z.real();
            out[s.out_begin + s.arg_count + j] = z.imag();
        }
    }
    return out;
}

}  // namespace

TEST_CASE("ctr-srht runtime: phi(x) is the real and imaginary parts of products of the map's complex H D factors, on every ISA") {
    const map_contents map = built();
    REQUIRE(map.meta.output_dim == 22);
    REQUIRE(map.meta.block_count == 2 * 2 * 3);  // two passes of three factors, two blocks each
    const std::vector<fmt::feature_segment> segments = section_values<fmt::feature_segment>(map, fmt::tag::segments);
    REQUIRE(segments.size() == 2);
    CHECK(segments[1].out_begin == 16);
    CHECK(segments[1].arg_count == 3);
    const file_buffer buffer(offline::serialize(map));
    for (isa i : known_isas()) {
        kfm::map v;
        if (kfm::open(buffer.data(), buffer.size(), &v, i) != status::ok) continue;  // not on this host
        CAPTURE(kfm::isa_name(i));
        std::vector<std::uint8_t> ws(kfm::workspace_bytes(v, 1));
        for (int r = 0; r < 4; ++r) {
            std::vector<float> x(d);
            for (unsigned k = 0; k < d; ++k) x[k] = float(0.4 * std::cos(1.3 * r + k) + 0.3 * k);
            std::vector<float> got(map.meta.output_dim);
            REQUIRE(kfm::transform(v, x.data(), d, got.data(), got.size(), ws.data(), ws.size()) == status::ok);
            const std::vector<double> want = reference(map, x);
            double largest = 0.0;
            for (double w : want) largest = std::max(largest, std::fabs(w));
            for (std::size_t k = 0; k < want.size(); ++k) {
                CAPTURE(r);
                CAPTURE(k);
                CAPTURE(want[k]);
                CHECK(std::fabs(double(got[k]) - want[k]) <= 1e-5 * largest);
            }
        }
    }
}

TEST_CASE("ctr-srht runtime: open refuses malformed complex block products") {
    CHECK(open_status(built()) == status::ok);
    struct mutation {
        const char* name;
        void (*apply)(map_contents&);
        status expected;
    };
    static constexpr auto first = [](map_contents& m) { return &data_of<fmt::feature_segment>(m, fmt::tag::segments)[0]; };
    const mutation mutations[] = {
        {"an odd number of blocks (a factor without its imaginary row)", [](map_contents& m) { first(m)->proj_count -= m.meta.block_size; },
         status::bad_meta},
        {"more features than a block", [](map_contents& m) { first(m)->arg_count = m.meta.block_size + 1; }, status::bad_meta},
        {"past the projections", [](map_contents& m) { first(m)->proj_begin = m.meta.projection_dim - 2 * m.meta.block_size; },
         status::index_out_of_range},
        {"a group index", [](map_contents& m) { first(m)->group_index = 0; }, status::bad_meta},
        {"also indexed rows", [](map_contents& m) { first(m)->flags |= fmt::segment_flag_indexed_rows; }, status::bad_meta},
        {"also a real block product", [](map_contents& m) { first(m)->flags |= fmt::segment_flag_block_product; }, status::bad_meta},
        {"on an identity segment", [](map_contents& m) { first(m)->nonlinearity = static_cast<std::uint32_t>(fmt::nonlinearity::identity); },
         status::bad_meta},
        {"on a fastfood map", [](map_contents& m) { m.meta.projection = static_cast<std::uint32_t>(fmt::projection::fastfood); },
         status::bad_meta},
        // A pass writes 2 arg_count outputs: the next pass must start right after its imaginary parts.
        {"the second pass's outputs not after the first's real and imaginary parts",
         [](map_contents& m) { data_of<fmt::feature_segment>(m, fmt::tag::segments)[1].out_begin -= 1; }, status::index_out_of_range},
        {"unknown segment flag bit 4", [](map_contents& m) { first(m)->flags |= 1u << 4; }, status::bad_meta},
    };
    for (const mutation& mu : mutations) {
        map_contents map = built();
        mu.apply(map);
        INFO(mu.name);
        CHECK(open_status(map) == mu.expected);
    }
}
