// Structured orthogonal directions for GORF and SRF. --directions hadamard: stacked blocks
// H D1 H D2 H D3 on x padded to d2 = 2^ceil(log2 d) (the runtime's hadamard projection), whose rows are
// orthonormal in R^d2. The radii go to the per-argument scales section, times sqrt(d2/d) so a row
// restricted to the d real coordinates has unit norm on average (exactly when d is a power of two).
// --directions butterfly: stacked butterfly networks M_k (butterfly_angles.hpp; the runtime's
// butterfly_blocks projection), orthogonal d x d, so their rows are exactly unit (row scale 1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kfm/format.hpp"
#include "kfm/offline.hpp"

namespace kfm::offline {

struct hadamard_directions {
    std::uint32_t d2 = 0;      // padded dimension
    std::uint32_t blocks = 0;  // ceil(rows / d2)
    double row_scale = 1.0;    // sqrt(d2 / d)
    std::vector<bool> signs;   // SIGN section, layout of format::hadamard_sign_stride
};

hadamard_directions make_hadamard_directions(unsigned d, std::uint32_t rows, std::uint64_t seed);

// Fills the projection fields of the meta record for these directions and `rows` projections.
void set_hadamard_projection(format::map_meta& meta, const hadamard_directions& h, std::uint32_t rows);

struct butterfly_directions {
    std::uint32_t d2 = 0;                 // block_size: 2^ceil(log2 d)
    std::uint32_t blocks = 0;             // ceil(rows / d)
    std::vector<float> cos_sin;           // BFLY section: 2*(d2-1) floats per block
    std::vector<std::uint32_t> permutation;  // PERM section: d indices per block
};

butterfly_directions make_butterfly_directions(unsigned d, std::uint32_t rows, std::uint64_t seed);

void set_butterfly_projection(format::map_meta& meta, const butterfly_directions& b, unsigned d, std::uint32_t rows);

// The non-dense directions a builder was asked for: kind hadamard or butterfly.
struct structured_directions {
    bool butterfly = false;
    hadamard_directions hadamard;
    butterfly_directions network;
    // Factor applied to each radius in the scales section.
    double row_scale() const { return butterfly ? 1.0 : hadamard.row_scale; }
};

structured_directions make_structured_directions(directions_kind kind, unsigned d, std::uint32_t rows,
                                                 std::uint64_t seed);
void set_structured_projection(format::map_meta& meta, const structured_directions& s, unsigned d,
                               std::uint32_t rows);
// Appends the direction sections (SIGN, or BFLY and PERM).
void add_direction_sections(std::vector<section>& sections, const structured_directions& s);

// The projection rows r_i u_i of GORF and SRF: one row per radius, u_i unit directions of the kind asked
// for. dense: u_i iid uniform on the sphere, or the rows of stacked Haar-orthogonal d x d blocks when
// `orthogonal`, and the rows r_i u_i go to the DENS section. hadamard | butterfly: structured blocks,
// and r_i times the blocks' row scale go to the SCAL section. `seed` is the directions' own stream.
struct direction_rows {
    bool structured = false;
    structured_directions blocks;  // structured only
    std::vector<float> dense;      // dense only: rows x d, row-major
    std::vector<float> scales;     // structured only: one per row
};

direction_rows make_direction_rows(directions_kind kind, unsigned d, const std::vector<double>& radii,
                                   bool orthogonal, std::uint64_t seed);
// Structured rows: sets the projection fields of the meta record (dense rows keep the dense projection).
void set_direction_rows_projection(format::map_meta& meta, const direction_rows& rows, unsigned d);
// Appends DENS, or the direction sections and SCAL.
void add_direction_rows_sections(std::vector<section>& sections, const direction_rows& rows);

}  // namespace kfm::offline
