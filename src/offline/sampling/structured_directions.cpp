// Sign diagonals of the hadamard direction blocks and butterfly networks, and the dense or structured
// projection rows, shared by the GORF and SRF builders.
#include "offline/sampling/structured_directions.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "offline/sampling/butterfly_angles.hpp"
#include "offline/sampling/random.hpp"
#include "format/bits.hpp"

namespace kfm::offline {

hadamard_directions make_hadamard_directions(unsigned d, std::uint32_t rows, std::uint64_t seed) {
    if (d == 0 || rows == 0 || d > (1u << 24)) throw std::invalid_argument("hadamard directions: bad dimensions");
    hadamard_directions h;
    h.d2 = std::uint32_t(1) << detail::ceil_log2(d);
    h.blocks = (rows + h.d2 - 1) / h.d2;
    h.row_scale = std::sqrt(double(h.d2) / double(d));
    const std::uint32_t stride = format::hadamard_sign_stride(h.d2);
    h.signs.assign(std::size_t(h.blocks) * 3 * stride, false);
    rng r(seed);
    for (std::size_t stage = 0; stage < std::size_t(h.blocks) * 3; ++stage)
        for (std::uint32_t j = 0; j < h.d2; ++j) h.signs[stage * stride + j] = r.rademacher() < 0;
    return h;
}

void set_hadamard_projection(format::map_meta& m, const hadamard_directions& h, std::uint32_t rows) {
    m.projection = static_cast<std::uint32_t>(format::projection::hadamard);
    m.work_dim = h.d2;
    m.projection_dim = rows;
    m.block_count = h.blocks;
    m.block_size = h.d2;
    m.repeats = 3;
}

butterfly_directions make_butterfly_directions(unsigned d, std::uint32_t rows, std::uint64_t seed) {
    if (d == 0 || rows == 0 || d > (1u << 24)) throw std::invalid_argument("butterfly directions: bad dimensions");
    butterfly_directions b;
    b.d2 = std::uint32_t(1) << detail::ceil_log2(d);
    b.blocks = (rows + d - 1) / d;
    rng r(seed);
    for (std::uint32_t k = 0; k < b.blocks; ++k) {
        const auto cs = butterfly_cos_sin(d, r);
        const auto perm = random_permutation(d, r);
        b.cos_sin.insert(b.cos_sin.end(), cs.begin(), cs.end());
        b.permutation.insert(b.permutation.end(), perm.begin(), perm.end());
    }
    return b;
}

void set_butterfly_projection(format::map_meta& m, const butterfly_directions& b, unsigned d, std::uint32_t rows) {
    m.projection = static_cast<std::uint32_t>(format::projection::butterfly_blocks);
    m.work_dim = d;
    m.projection_dim = rows;
    m.block_count = b.blocks;
    m.block_size = b.d2;
    m.repeats = butterfly_repeats;
}

structured_directions make_structured_directions(directions_kind kind, unsigned d, std::uint32_t rows,
                                                 std::uint64_t seed) {
    structured_directions s;
    if (kind == directions_kind::hadamard) {
        s.hadamard = make_hadamard_directions(d, rows, seed);
    } else if (kind == directions_kind::butterfly) {
        s.butterfly = true;
        s.network = make_butterfly_directions(d, rows, seed);
    } else {
        throw std::invalid_argument("structured directions: not a structured kind (hadamard or butterfly)");
    }
    return s;
}

void set_structured_projection(format::map_meta& m, const structured_directions& s, unsigned d, std::uint32_t rows) {
    if (s.butterfly)
        set_butterfly_projection(m, s.network, d, rows);
    else
        set_hadamard_projection(m, s.hadamard, rows);
}

void add_direction_sections(std::vector<section>& sections, const structured_directions& s) {
    if (s.butterfly) {
        sections.push_back(make_f32_section(format::tag::butterfly, s.network.cos_sin));
        sections.push_back(make_u32_section(format::tag::permutation, s.network.permutation));
    } else {
        sections.push_back(make_bits_section(format::tag::signs, s.hadamard.signs));
    }
}

namespace {

// rows unit directions, rows x d row-major: iid uniform on the sphere, or rows of stacked Haar blocks.
std::vector<double> unit_directions(unsigned rows, unsigned d, bool orthogonal, std::uint64_t seed) {
    std::vector<double> u(std::size_t(rows) * d);
    rng r(seed);
    if (!orthogonal) {
        for (unsigned i = 0; i < rows; ++i) r.unit_sphere(&u[std::size_t(i) * d], d);
        return u;
    }
    for (unsigned begin = 0; begin < rows; begin += d) {
        const Eigen::MatrixXd q = haar_orthogonal(d, r);
        const unsigned take = std::min(d, rows - begin);
        for (unsigned i = 0; i < take; ++i)
            for (unsigned j = 0; j < d; ++j) u[std::size_t(begin + i) * d + j] = q(i, j);
    }
    return u;
}

}  // namespace

direction_rows make_direction_rows(directions_kind kind, unsigned d, const std::vector<double>& radii,
                                   bool orthogonal, std::uint64_t seed) {
    const auto rows = static_cast<std::uint32_t>(radii.size());
    direction_rows out;
    out.structured = kind != directions_kind::dense;
    if (out.structured) {
        out.blocks = make_structured_directions(kind, d, rows, seed);
        for (double r : radii) out.scales.push_back(static_cast<float>(r * out.blocks.row_scale()));
        return out;
    }
    const std::vector<double> u = unit_directions(rows, d, orthogonal, seed);
    out.dense.resize(u.size());
    for (std::uint32_t i = 0; i < rows; ++i)
        for (unsigned j = 0; j < d; ++j)
            out.dense[std::size_t(i) * d + j] = static_cast<float>(radii[i] * u[std::size_t(i) * d + j]);
    return out;
}

void set_direction_rows_projection(format::map_meta& m, const direction_rows& rows, unsigned d) {
    if (rows.structured) set_structured_projection(m, rows.blocks, d, static_cast<std::uint32_t>(rows.scales.size()));
}

void add_direction_rows_sections(std::vector<section>& sections, const direction_rows& rows) {
    if (rows.structured) {
        add_direction_sections(sections, rows.blocks);
        sections.push_back(make_f32_section(format::tag::scales, rows.scales));
    } else {
        sections.push_back(make_f32_section(format::tag::dense, rows.dense));
    }
}

}  // namespace kfm::offline
