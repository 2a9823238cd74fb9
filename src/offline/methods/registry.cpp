// The method registry (include/kfm/build_registry.hpp): one row per method. Adding a method means its
// folder under src/offline/methods/, its row here, its builder-hash lines and its tests
// (docs/architecture.md, "How to add a method").
#include "kfm/build_registry.hpp"
#include "offline/methods/builders.hpp"

namespace kfm::offline {
namespace {

using k = format::kernel;
using m = format::method;
using o = option;

constexpr std::uint32_t gaussian = kernel_bit(k::gaussian);
constexpr std::uint32_t arccos = kernel_bit(k::arccos);
constexpr std::uint32_t polynomial = kernel_bit(k::polynomial_sphere);
constexpr std::uint32_t delta = kernel_bit(k::delta_gaussian);
constexpr std::uint32_t mixtures = kernel_bit(k::matern) | kernel_bit(k::rational_quadratic);
constexpr std::uint32_t laplacian = kernel_bit(k::laplacian);

const std::vector<method_row>& rows() {
    static const std::vector<method_row> table = {
        {m::rff, "random Fourier features: cos/sin pairs of iid directions", gaussian | arccos | mixtures | laplacian,
         build_random_fourier, nullptr, {o::arccos_pairs}, false, nullptr, o::method},
        {m::rff_phase, "random Fourier features: cos(w.x + b) with a random phase b", gaussian | mixtures | laplacian,
         build_random_fourier, nullptr, {}, false, nullptr, o::method},
        {m::orf, "orthogonal random features: Haar-orthogonal blocks of directions", gaussian | arccos | mixtures,
         build_random_fourier, nullptr, {o::arccos_pairs}, false, nullptr, o::method},
        {m::ssf, "spherical structured features: DFT rows with an optimised index set, one FFT per input",
         gaussian | arccos | mixtures, build_ssf, ssf_least_output_dim,
         {o::radial_points, o::radial_rule, o::sweeps, o::fft_size, o::progress}, false, nullptr, o::method},
        {m::quadrature, "SR(3,3) spherical-radial quadrature with butterfly rotations (signed features)",
         gaussian | arccos | mixtures, build_quadrature, quadrature_least_output_dim,
         {o::radial_rule, o::resample_radii, o::haar_rotations, o::partial_rule, o::permutation}, false, nullptr, o::method},
        {m::sorf, "structured orthogonal random features: H D1 H D2 H D3 blocks", gaussian | arccos | mixtures,
         build_sorf, nullptr, {o::arccos_pairs}, false, nullptr, o::method},
        {m::qmc, "randomised Halton quasi-Monte Carlo directions", gaussian | arccos | mixtures | laplacian, build_qmc,
         nullptr, {o::arccos_pairs}, false, nullptr, o::method},
        {m::srf, "spherical random features: a positive spectral surrogate fitted to the kernel", polynomial,
         build_srf, nullptr, {o::directions}, false, nullptr, o::method},
        {m::gorf, "orthogonal signed random features for indefinite kernels", polynomial | delta, build_gorf, nullptr,
         {o::spectral, o::directions}, false, nullptr, o::method},
        {m::grff, "iid signed random features for indefinite kernels", polynomial | delta, build_gorf, nullptr,
         {o::spectral, o::directions}, false, nullptr, o::method},
        {m::maclaurin, "Random Maclaurin features", polynomial, build_maclaurin, nullptr, {}, false, nullptr,
         o::method},
        {m::tensorsketch, "TensorSketch: count sketches multiplied through the FFT", polynomial, build_tensorsketch,
         nullptr, {}, false, nullptr, o::method},
        {m::fastfood, "Fastfood: S H G Pi H B blocks", gaussian | mixtures, build_fastfood, nullptr, {}, false,
         nullptr, o::method},
        {m::nystroem, "Nystroem: K_mm^{-1/2} k(x, landmarks), the landmarks rows of --data",
         gaussian | mixtures, build_nystroem, nullptr, {o::landmarks, o::landmark_init}, true, nullptr, o::method},
        {m::gq, "quffka's subsampled tensor Gauss-Hermite grid (dense)", gaussian, build_gq, nullptr, {o::gq_nodes},
         false, "Gauss-Hermite nodes per coordinate", o::gq_nodes},
        {m::maclaurin_opt, "data-optimised Maclaurin: degrees 0-1 exact, higher ones sketched, fitted to --data",
         gaussian | polynomial, build_maclaurin_opt, nullptr, {}, false, nullptr, o::method, true},
        {m::tensor_srht, "TensorSRHT: products of p sign-flipped Hadamard blocks H D per pass of d2 features",
         polynomial, build_tensor_srht, nullptr, {}, false, nullptr, o::method},
        {m::ctr_srht, "complex-to-real TensorSRHT: Re and Im of products of p complex factors (H Da + i H Db) / sqrt 2",
         polynomial, build_ctr_srht, nullptr, {}, false, nullptr, o::method},
    };
    return table;
}

}  // namespace

std::span<const method_row> method_table() { return rows(); }

const method_row* find_method(format::method id) {
    for (const method_row& r : rows())
        if (r.id == id) return &r;
    return nullptr;
}

}  // namespace kfm::offline
