// The structured projections of the quadrature family against dense double-precision references, on
// every ISA this host runs: butterfly_simplex (t = (Q_k v_j).x, transform = w cos/sin(rho/sigma t)),
// hadamard (H D1 H D2 H D3 blocks), butterfly_blocks (stacked M_k x), and their open-time checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "common/isa_coverage.hpp"
#include "common/test_maps.hpp"
#include "kernels/kernel_table.hpp"
#include "kfm/offline.hpp"
#include "offline/sampling/butterfly_angles.hpp"
#include "offline/sampling/random.hpp"
#include "offline/methods/quadrature/simplex.hpp"
#include "runtime/projection.hpp"
#include "format/bits.hpp"
#include "runtime/map_state.hpp"

using namespace kfm;
using kfm::detail::section;

namespace {

const std::vector<isa> all_isas = kfm::test::known_isas();

std::vector<bool> bits_of(const offline::map_contents& m, std::uint32_t tag) {
    for (const auto& s : m.sections)
        if (s.tag == tag) {
            std::vector<bool> v(static_cast<std::size_t>(s.count));
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = (s.bytes[i / 8] >> (i % 8)) & 1u;
            return v;
        }
    return {};
}

// Runs only the projection stage of an opened map on x (already work_dim long).
std::vector<float> project(const map& v, const std::vector<float>& x) {
    const detail::map_state& state = *detail::state_of(v);
    const auto* ops = state.ops;
    REQUIRE(ops != nullptr);
    std::vector<float> t(state.meta->projection_dim), scratch(ops->scratch_floats(*state.meta) + 16);
    auto* aligned = reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(scratch.data()) + 63) & ~std::uintptr_t(63));
    ops->apply(state, x.data(), t.data(), aligned);
    return t;
}

offline::build_options options(format::method method, unsigned d, unsigned features) {
    offline::build_options o;
    o.method = method;
    o.input_dim = d;
    o.features = features;
    o.kernel.kind = format::kernel::gaussian;
    o.kernel.sigma = std::sqrt(d / 2.0);
    o.seed = 17 + d;
    return o;
}

// Largest |a - b| relative to the largest |b| (at least 1).
double max_rel_diff(const std::vector<float>& a, const std::vector<double>& b) {
    double diff = 0.0, scale = 1.0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        diff = std::max(diff, std::fabs(double(a[i]) - b[i]));
        scale = std::max(scale, std::fabs(b[i]));
    }
    return diff / scale;
}

}  // namespace

TEST_CASE("butterfly_simplex: the fast path equals the dense rho * Q V reference on every ISA") {
    for (unsigned d : {1u, 2u, 3u, 8u, 13u, 16u, 22u, 30u, 64u, 784u, 1024u}) {
        const auto contents = offline::build_map(options(format::method::quadrature, d, 4 * (d + 1)));
        const auto cs = kfm::test::section_values<float>(contents, format::tag::butterfly);
        const auto perm = kfm::test::section_values<std::uint32_t>(contents, format::tag::permutation);
        const auto scales = kfm::test::section_values<float>(contents, format::tag::scales);
        const auto weights = kfm::test::section_values<float>(contents, format::tag::weights);
        const unsigned rules = contents.meta.block_count;
        const std::size_t cs_stride = 2 * (contents.meta.block_size - 1);
        const auto v = offline::simplex_matrix(d);
        const auto x = test::file_buffer(offline::serialize(contents));
        const auto in = test::test_vector(d, 5);

        // Dense reference: point (k, j) = Q_k v_j, t = point . x; features w cos(s t), w sin(s t).
        std::vector<double> t_ref(std::size_t(rules) * (d + 1));
        for (unsigned k = 0; k < rules; ++k) {
            const auto q = offline::butterfly_dense_q(d, cs.data() + k * cs_stride, perm.data() + std::size_t(k) * d,
                                                      offline::butterfly_repeats);
            // (Q V)^T x = V^T (Q^T x), both dense products.
            std::vector<double> qtx(d, 0.0);
            for (unsigned r = 0; r < d; ++r)
                for (unsigned c = 0; c < d; ++c) qtx[c] += q[std::size_t(r) * d + c] * in[r];
            for (unsigned j = 0; j <= d; ++j) {
                double dot = 0.0;
                for (unsigned c = 0; c < d; ++c) dot += v[std::size_t(c) * (d + 1) + j] * qtx[c];
                t_ref[std::size_t(k) * (d + 1) + j] = dot;
            }
        }
        const std::size_t p = t_ref.size();
        std::vector<double> phi_ref(contents.meta.output_dim);
        for (std::size_t j = 0; j < p; ++j) {
            phi_ref[j] = weights[j] * std::cos(double(scales[j]) * t_ref[j]);
            phi_ref[p + j] = weights[j] * std::sin(double(scales[j]) * t_ref[j]);
        }
        phi_ref[2 * p] = kfm::test::section_values<float>(contents, format::tag::constants).at(0);

        for (isa i : all_isas) {
            if (!isa_available(i)) continue;
            CAPTURE(d);
            CAPTURE(std::string(isa_name(i)));
            const map view = test::open_or_fail(x, i);
            CHECK(max_rel_diff(project(view, in), t_ref) < 2e-5);
            std::vector<float> phi(view.output_dim());
            std::vector<std::uint8_t> ws(workspace_bytes(view));
            REQUIRE(transform(view, in.data(), d, phi.data(), phi.size(), ws.data(), ws.size()) == status::ok);
            CHECK(max_rel_diff(phi, phi_ref) < 2e-5);
        }
    }
}

TEST_CASE("butterfly_simplex: the runtime network is orthogonal (Q^T Q = I) and the simplex a tight frame") {
    for (unsigned d : {5u, 13u, 22u, 30u, 32u}) {
        const auto contents = offline::build_map(options(format::method::quadrature, d, 2 * (d + 1)));
        const auto x = test::file_buffer(offline::serialize(contents));
        for (isa i : all_isas) {
            if (!isa_available(i)) continue;
            CAPTURE(d);
            const map view = test::open_or_fail(x, i);
            const detail::map_state& st = *detail::state_of(view);
            const float* angles = st.own_view<kfm::format::projection::butterfly_simplex, section::butterfly>().data;
            const std::uint32_t* perm = st.view<section::permutation>().data;
            // Columns of M from unit vectors through the kernel, then M^T M = I.
            std::vector<float> m(std::size_t(d) * d), scratch(d);
            for (unsigned c = 0; c < d; ++c) {
                float* col = m.data() + std::size_t(c) * d;
                col[c] = 1.0f;
                st.kernels->butterfly(col, d, detail::ceil_log2(d), angles, perm, st.meta->repeats, false,
                                      scratch.data());
            }
            double worst = 0.0;
            for (unsigned a = 0; a < d; ++a)
                for (unsigned b = 0; b < d; ++b) {
                    double dot = 0.0;
                    for (unsigned r = 0; r < d; ++r) dot += double(m[a * d + r]) * m[b * d + r];
                    worst = std::max(worst, std::fabs(dot - (a == b ? 1.0 : 0.0)));
                }
            CHECK(worst < 1e-5);
            // sum_j t_j^2 = (d+1)/d |x|^2 for the simplex frame of an orthogonal image of x.
            const auto in = test::test_vector(d, 9);
            const auto t = project(view, in);
            double tt = 0.0, xx = 0.0;
            for (unsigned j = 0; j <= d; ++j) tt += double(t[j]) * t[j];
            for (float e : in) xx += double(e) * e;
            CHECK(tt == doctest::Approx(xx * (d + 1) / d).epsilon(1e-5));
        }
    }
}

TEST_CASE("butterfly_simplex: the simplex stage equals V^T (M x) in double, also beyond the coefficient table") {
    // O(d) double reference for the simplex stage on y = M_k x from the (separately tested) butterfly
    // kernel: t_j = (d-j) r_j y_j - sum_{i<j} r_i y_i with r_j = sqrt((d+1)/d) / sqrt((d-j)(d-j+1)).
    // d = 5000 exceeds the runtime's 4096-entry table of 1/sqrt(L (L+1)): rows with L > 4096 take the
    // Newton path, the rest the table.
    for (unsigned d : {7u, 1000u, 5000u}) {
        const auto contents = offline::build_map(options(format::method::quadrature, d, 2 * (d + 1)));
        const auto x = test::file_buffer(offline::serialize(contents));
        const auto in = test::test_vector(d, 11);
        for (isa i : all_isas) {
            if (!isa_available(i)) continue;
            CAPTURE(d);
            CAPTURE(std::string(isa_name(i)));
            const map view = test::open_or_fail(x, i);
            const detail::map_state& st = *detail::state_of(view);
            const float* angles = st.own_view<kfm::format::projection::butterfly_simplex, section::butterfly>().data;
            const std::uint32_t* perm = st.view<section::permutation>().data;
            std::vector<float> y(in), scratch(d);
            st.kernels->butterfly(y.data(), d, detail::ceil_log2(d), angles, perm, st.meta->repeats, false,
                                  scratch.data());
            std::vector<double> t_ref(d + 1);
            double below = 0.0;
            for (unsigned j = 0; j < d; ++j) {
                const double left = double(d - j);
                const double r = std::sqrt((d + 1.0) / d) / std::sqrt(left * (left + 1.0));
                t_ref[j] = left * r * y[j] - below;
                below += r * y[j];
            }
            t_ref[d] = -below;
            CHECK(max_rel_diff(project(view, in), t_ref) < 2e-6);
        }
    }
}

TEST_CASE("hadamard: SORF blocks equal the dense H D1 H D2 H D3 matrix, truncated") {
    for (unsigned d : {1u, 3u, 13u, 16u, 100u, 784u}) {
        const auto contents = offline::build_map(options(format::method::sorf, d, 2 * (2 * d + 3)));
        const std::uint32_t d2 = contents.meta.block_size, p = contents.meta.projection_dim;
        const auto signs = bits_of(contents, format::tag::signs);
        const std::uint32_t stride = format::hadamard_sign_stride(d2);
        auto in = test::test_vector(d, 3);
        in.resize(d2, 0.0f);  // the runtime pads x to d2 before projecting
        std::vector<double> t_ref;
        for (std::uint32_t b = 0; b < contents.meta.block_count; ++b) {
            std::vector<double> y(in.begin(), in.end());
            for (unsigned stage = 0; stage < 3; ++stage) {
                std::vector<double> z(d2, 0.0);
                for (std::uint32_t r = 0; r < d2; ++r)
                    for (std::uint32_t c = 0; c < d2; ++c) {
                        const double h = (__builtin_popcount(r & c) % 2 ? -1.0 : 1.0) / std::sqrt(double(d2));
                        const double s = signs[(std::size_t(b) * 3 + stage) * stride + c] ? -1.0 : 1.0;
                        z[r] += h * s * y[c];
                    }
                y = z;
            }
            t_ref.insert(t_ref.end(), y.begin(), y.end());
        }
        t_ref.resize(p);
        const auto x = test::file_buffer(offline::serialize(contents));
        for (isa i : all_isas) {
            if (!isa_available(i)) continue;
            CAPTURE(d);
            CAPTURE(std::string(isa_name(i)));
            const map view = test::open_or_fail(x, i);
            CHECK(max_rel_diff(project(view, in), t_ref) < 1e-5);
        }
    }
}

TEST_CASE("butterfly_blocks: stacked M_k x, truncated, equals the dense Q_k^T reference") {
    const unsigned d = 22, blocks = 3, p = 2 * d + 5;
    offline::rng r(123);
    std::vector<float> cs;
    std::vector<std::uint32_t> perm;
    for (unsigned k = 0; k < blocks; ++k) {
        const auto c = offline::butterfly_cos_sin(d, r);
        const auto q = offline::random_permutation(d, r);
        cs.insert(cs.end(), c.begin(), c.end());
        perm.insert(perm.end(), q.begin(), q.end());
    }
    offline::map_contents m;
    m.meta.method = std::uint32_t(format::method::gorf);
    m.meta.kernel = std::uint32_t(format::kernel::gaussian);
    m.meta.projection = std::uint32_t(format::projection::butterfly_blocks);
    m.meta.input_dim = m.meta.work_dim = d;
    m.meta.projection_dim = m.meta.output_dim = p;
    m.meta.output_convention = std::uint32_t(format::output_convention::real);
    m.meta.block_count = blocks;
    m.meta.block_size = 32;
    m.meta.repeats = offline::butterfly_repeats;
    m.meta.kernel_sigma = 1.0;
    format::feature_segment seg{};
    seg.nonlinearity = std::uint32_t(format::nonlinearity::identity);
    seg.proj_count = seg.arg_count = p;
    seg.scale_index = seg.weight_index = seg.phase_index = seg.group_index = format::no_index;
    seg.scale = seg.weight = 1.0f;
    m.sections.push_back(offline::make_segments_section({seg}));
    m.sections.push_back(offline::make_f32_section(format::tag::butterfly, cs));
    m.sections.push_back(offline::make_u32_section(format::tag::permutation, perm));

    const auto in = test::test_vector(d, 4);
    std::vector<double> t_ref;
    for (unsigned k = 0; k < blocks; ++k) {
        const auto q = offline::butterfly_dense_q(d, cs.data() + k * 62, perm.data() + k * d, offline::butterfly_repeats);
        for (unsigned i = 0; i < d; ++i) {
            double dot = 0.0;  // (M x)_i = sum_j M[i][j] x_j = sum_j Q[j][i] x_j
            for (unsigned j = 0; j < d; ++j) dot += q[std::size_t(j) * d + i] * in[j];
            t_ref.push_back(dot);
        }
    }
    t_ref.resize(p);
    const auto x = test::file_buffer(offline::serialize(m));
    for (isa i : all_isas) {
        if (!isa_available(i)) continue;
        const map view = test::open_or_fail(x, i);
        CHECK(max_rel_diff(project(view, in), t_ref) < 1e-5);
    }
}

TEST_CASE("open rejects bad butterfly, permutation and sign sections") {
    const auto good = offline::build_map(options(format::method::quadrature, 13, 4 * 14));
    auto edit = [&](std::uint32_t tag, auto change) {
        auto m = good;
        for (auto& s : m.sections)
            if (s.tag == tag) change(s);
        const test::file_buffer b(offline::serialize(m));
        map v;
        return open(b.data(), b.size(), &v, isa::scalar);
    };
    CHECK(edit(format::tag::permutation, [](offline::section& s) {
              const std::uint32_t bad = 13;
              std::memcpy(s.bytes.data() + 8, &bad, 4);
          }) == status::index_out_of_range);
    CHECK(edit(format::tag::butterfly, [](offline::section& s) {
              const float bad = NAN;
              std::memcpy(s.bytes.data() + 4, &bad, 4);
          }) == status::bad_parameter_value);
    CHECK(edit(format::tag::butterfly, [](offline::section& s) {
              s.bytes.resize(s.bytes.size() - 8);
              s.count -= 2;
          }) == status::bad_section_size);
    CHECK(edit(format::tag::permutation, [](offline::section& s) {
              s.bytes.clear();
              s.count = 0;
          }) != status::ok);

    // A blocked-permutation claim (format::method_flag_quadrature_blocked_permutation) on d = 13.
    auto claimed = good;
    claimed.meta.method_flags |= format::method_flag_quadrature_blocked_permutation;
    const test::file_buffer c(offline::serialize(claimed));
    map cv;
    CHECK(open(c.data(), c.size(), &cv, isa::scalar) == status::bad_parameter_value);

    auto sorf = offline::build_map(options(format::method::sorf, 13, 64));
    sorf.meta.repeats = 2;
    const test::file_buffer b(offline::serialize(sorf));
    map v;
    CHECK(open(b.data(), b.size(), &v, isa::scalar) == status::bad_meta);
}

TEST_CASE("butterfly_simplex: blocked permutations are claimed, checked at open, and give the bits of the plain path") {
    // --permutation blocked draws blocked permutations and records it; the runtime's AVX2 / AVX-512 gathers
    // move eight floats at a time on such maps. The same map without the claim takes the plain gathers and
    // must give the same bits, single rows and batches, on every ISA.
    for (unsigned d : {8u, 16u, 64u, 136u, 256u, 784u}) {
        CAPTURE(d);
        auto o = options(format::method::quadrature, d, 5 * 2 * (d + 1));
        o.permutation = offline::permutation_kind::blocked;
        const auto blocked = offline::build_map(o);
        REQUIRE((blocked.meta.method_flags & format::method_flag_quadrature_blocked_permutation) != 0);
        const auto perm = kfm::test::section_values<std::uint32_t>(blocked, format::tag::permutation);
        for (std::size_t i = 0; i < perm.size(); ++i) CHECK(perm[i] / 8 == perm[i / 8 * 8] / 8);
        auto plain = blocked;
        plain.meta.method_flags &= ~format::method_flag_quadrature_blocked_permutation;
        const test::file_buffer bb(offline::serialize(blocked)), pb(offline::serialize(plain));
        const std::size_t rows = 9;
        std::vector<float> in;
        for (std::size_t r = 0; r < rows; ++r) {
            const auto row = test::test_vector(d, 7 + unsigned(r));
            in.insert(in.end(), row.begin(), row.end());
        }
        for (isa i : all_isas) {
            if (!isa_available(i)) continue;
            CAPTURE(std::string(isa_name(i)));
            const map bv = test::open_or_fail(bb, i), pv = test::open_or_fail(pb, i);
            const std::size_t out = bv.output_dim();
            std::vector<float> b1(out), p1(out), bn(rows * out), pn(rows * out);
            std::vector<std::uint8_t> ws(workspace_bytes(bv, rows));
            REQUIRE(transform(bv, in.data(), d, b1.data(), out, ws.data(), ws.size()) == status::ok);
            REQUIRE(transform(pv, in.data(), d, p1.data(), out, ws.data(), ws.size()) == status::ok);
            CHECK(std::memcmp(b1.data(), p1.data(), out * sizeof(float)) == 0);
            REQUIRE(transform_batch(bv, in.data(), rows, d, d, bn.data(), out, ws.data(), ws.size()) == status::ok);
            REQUIRE(transform_batch(pv, in.data(), rows, d, d, pn.data(), out, ws.data(), ws.size()) == status::ok);
            CHECK(std::memcmp(bn.data(), pn.data(), rows * out * sizeof(float)) == 0);
        }
        if (d == 8) continue;  // one group per rule: every permutation is blocked
        // Two outputs of rule 0 in different groups swapped: still a permutation, no longer blocked.
        auto broken = blocked;
        for (auto& s : broken.sections)
            if (s.tag == format::tag::permutation) {
                std::uint32_t p[9];
                std::memcpy(p, s.bytes.data(), sizeof p);
                std::swap(p[0], p[8]);
                std::memcpy(s.bytes.data(), p, sizeof p);
            }
        const test::file_buffer xb(offline::serialize(broken));
        map xv;
        CHECK(open(xb.data(), xb.size(), &xv, isa::scalar) == status::bad_parameter_value);
    }
}
