// Builder for the complex-to-real TensorSRHT (Wacker, Ohana and Filippone 2022, "Complex-to-real sketches for
// tensor products") of the polynomial kernel on the sphere, (1 - |x-y|^2/a^2)^p = alpha (q + x.y)^p with
// q = a^2/2 - 1 and alpha = (2/a^2)^p: on unit-norm x, the homogeneous degree-p kernel of the work vector
// x~ = (x, sqrt(q)) times alpha, as tensor-srht (build_tensor_srht.cpp), with complex factors.
//
// A complex Rademacher diagonal, entries in {1, -1, i, -i}, is e^{i pi/4} (D_a + i D_b) / sqrt(2) with D_a, D_b
// independent real Rademacher diagonals; the phase cancels in Z(x) conj(Z(y)), so each factor is
//   z_l = sqrt(d2) H (D_a + i D_b) x~ / sqrt(2) = sqrt(d2 / 2) ((B_a x~) + i (B_b x~)),
// B = H D two ordinary sign-flipped Hadamard blocks (H normalised). Row r of sqrt(d2) H D has independent +-1
// entries, so E[z_l(x)_r conj(z_l(y)_r)] = (d2 / 2) (E[(B_a x~)_r (B_a y~)_r] + E[(B_b x~)_r (B_b y~)_r]) = x~.y~
// (the cross terms vanish: D_a and D_b are independent), and with the p factors independent the complex
// feature Z_j = prod_{l < p} z_{l, (j + l) mod d2} (rotated rows: format.hpp's segment_flag_block_product says
// why) has E[Z_j(x) conj(Z_j(y))] = (x~.y~)^p. Its real part Re Z(x) Re Z(y) + Im Z(x) Im Z(y) is the real
// inner product of the pair (Re Z_j, Im Z_j), so the map outputs both, each times sqrt(alpha / C) for
// C = D / 2 complex features: phi(x).phi(y) is unbiased for alpha (x~.y~)^p.
//
// D is rounded up to even (2 ceil(D / 2) outputs, C complex features). The C features come in passes of up to
// d2 = 2^ceil(log2(d + 1)); each pass has p factors of its own, 2p blocks (factor l: real block 2l, imaginary
// block 2l + 1, fresh independent signs each), and writes [Re Z_0 .. Re Z_(n-1) | Im Z_0 .. Im Z_(n-1)].
//
// Runtime: the hadamard projection with repeats = 1 (2p blocks per pass, block_count = 2p passes) and one
// complex block product segment per pass (segment_flag_complex_block_product, scale sqrt(d2 / 2)).
#include <algorithm>
#include <cmath>
#include <vector>

#include "offline/methods/builders.hpp"
#include "offline/methods/sections.hpp"
#include "offline/methods/tensor_srht/tensor_srht_map.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint32_t blocks_per_factor = 2;  // a real and an imaginary block

// One complex block product segment per pass of up to d2 complex features, each pass's 2 degree blocks after
// the previous pass's; a pass of n features writes 2n outputs (its real parts, then its imaginary parts).
std::vector<format::feature_segment> complex_passes(std::uint32_t complex_features, std::uint32_t degree, std::uint32_t d2,
                                                    float weight) {
    std::vector<format::feature_segment> segments;
    const std::uint32_t rows = blocks_per_factor * degree * d2;
    for (std::uint32_t done = 0, pass = 0; done < complex_features; done += d2, ++pass) {
        format::feature_segment s = make_segment(format::nonlinearity::product, pass * rows, rows, 2 * done,
                                                 float(std::sqrt(double(d2) / 2.0)), weight);
        s.arg_count = std::min(d2, complex_features - done);
        s.flags = format::segment_flag_complex_block_product;
        segments.push_back(s);
    }
    return segments;
}

}  // namespace

map_contents build_ctr_srht(const build_options& o) {
    check_tensor_srht_options(o, "ctr-srht");
    const tensor_srht_kernel k = tensor_srht_kernel_of(o);
    const std::uint32_t complex_features = o.features / 2 + o.features % 2;  // D rounded up to even
    const std::uint64_t passes = (std::uint64_t(complex_features) + k.d2 - 1) / k.d2;
    // Every factor's real and imaginary diagonals D_a, D_b are blocks of their own.
    const std::uint64_t blocks = passes * blocks_per_factor * k.degree;
    check_tensor_srht_projections("ctr-srht", passes, k.degree, blocks, k.d2);

    const std::vector<format::feature_segment> segments =
        complex_passes(complex_features, k.degree, k.d2, float(std::sqrt(k.alpha / double(complex_features))));
    return tensor_srht_map(o, format::method::ctr_srht, k, blocks, 2 * complex_features, segments);
}

}  // namespace kfm::offline
