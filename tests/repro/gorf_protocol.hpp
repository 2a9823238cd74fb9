// The GORF and SRF papers' protocol as the repro suite runs it (tests/repro/poly_repro_test.cpp), shared
// with the docs suite (tests/docs), which recomputes docs/results.md's GORF figures: rows unit-normalised,
// 1000 random rows per run, relative Frobenius error of the Gram matrix with its diagonal set to the exact
// K(x, x) (as the reference code does), or the kernel MSE over its upper triangle.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/datasets.hpp"
#include "common/stats_util.hpp"
#include "kfm/offline/evaluate.hpp"
#include "kfm/offline/npy.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::repro {

constexpr std::size_t gorf_sample_size = 1000;

struct dataset {
    std::vector<float> x;  // unit rows (zero rows dropped)
    std::size_t rows = 0;
    unsigned d = 0;
};

inline std::optional<dataset> load_unit_rows(const std::string& name) {
    const std::string path = kfm::test::dataset_file(name);
    if (!std::filesystem::exists(path)) return std::nullopt;
    const auto a = kfm::offline::read_npy(path);
    dataset out;
    out.d = static_cast<unsigned>(a.cols);
    for (std::size_t i = 0; i < a.rows; ++i) {
        double n = 0;
        for (std::size_t j = 0; j < a.cols; ++j) n += double(a.row(i)[j]) * a.row(i)[j];
        if (n == 0.0) continue;
        for (std::size_t j = 0; j < a.cols; ++j) out.x.push_back(static_cast<float>(a.row(i)[j] / std::sqrt(n)));
        ++out.rows;
    }
    return out;
}

inline unsigned runs() {
    const char* env = std::getenv("KFM_REPRO_RUNS");
    return env ? static_cast<unsigned>(std::max(1, std::atoi(env))) : 10u;
}

// `n` distinct rows chosen by a partial Fisher-Yates shuffle seeded by `seed`.
inline std::vector<float> sample_rows(const dataset& data, std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> idx(data.rows);
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    kfm::offline::rng r(seed);
    std::vector<float> out;
    for (std::size_t i = 0; i < n; ++i) {
        std::swap(idx[i], idx[i + r.below(idx.size() - i)]);
        out.insert(out.end(), data.x.begin() + idx[i] * data.d, data.x.begin() + (idx[i] + 1) * data.d);
    }
    return out;
}

// Sum of a[k] b[k] in eight float partial sums (a loop the compiler vectorises): the Gram matrices
// below reach 1000 x 1000 at D = 2^14.
inline double dot(const float* a, const float* b, std::size_t n) {
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (std::size_t l = 0; l < 8; ++l) acc[l] += a[k + l] * b[k + l];
    double s = 0;
    for (; k < n; ++k) s += double(a[k]) * b[k];
    for (float v : acc) s += v;
    return s;
}

// Upper triangle (i < j) of K^ from the map's features, with the signature of the last negative_dim.
// Tiled (feature chunks x row tiles) so that the rows being multiplied stay in cache.
inline std::vector<double> approx_gram_upper(const kfm::map& map, const std::vector<float>& pts, unsigned d) {
    const std::size_t n = pts.size() / d, D = map.output_dim(), positive = D - map.negative_dim();
    const std::vector<float> phi = kfm::offline::map_rows(map, pts.data(), n, d);
    constexpr std::size_t chunk = 1024, tile = 32;
    std::vector<double> full(n * n, 0.0);
    for (std::size_t c0 = 0; c0 < D; c0 += chunk) {
        const std::size_t c1 = std::min(D, c0 + chunk), split = std::clamp(positive, c0, c1);
        for (std::size_t i0 = 0; i0 < n; i0 += tile)
            for (std::size_t j0 = i0; j0 < n; j0 += tile)
                for (std::size_t i = i0; i < std::min(n, i0 + tile); ++i)
                    for (std::size_t j = std::max(j0, i + 1); j < std::min(n, j0 + tile); ++j) {
                        const float* a = &phi[i * D];
                        const float* b = &phi[j * D];
                        full[i * n + j] += dot(a + c0, b + c0, split - c0) - dot(a + split, b + split, c1 - split);
                    }
    }
    std::vector<double> out;
    out.reserve(n * (n - 1) / 2);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) out.push_back(full[i * n + j]);
    return out;
}

inline std::vector<double> exact_gram_upper(const kfm::offline::kernel_spec& k, const std::vector<float>& pts, unsigned d) {
    const std::size_t n = pts.size() / d;
    const std::vector<double> full = kfm::offline::exact_gram(k, pts.data(), n, pts.data(), n, d, true);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) out.push_back(full[i * n + j]);
    return out;
}

// Relative Frobenius error of the symmetric Gram whose diagonal is exact: off-diagonal entries count twice.
inline double rel_frobenius(const std::vector<double>& exact_upper, const std::vector<double>& approx_upper, double diag,
                     std::size_t n) {
    double num = 0, den = double(n) * diag * diag;
    for (std::size_t i = 0; i < exact_upper.size(); ++i) {
        num += 2 * (exact_upper[i] - approx_upper[i]) * (exact_upper[i] - approx_upper[i]);
        den += 2 * exact_upper[i] * exact_upper[i];
    }
    return std::sqrt(num / den);
}

inline double mse(const std::vector<double>& exact_upper, const std::vector<double>& approx_upper) {
    double s = 0;
    for (std::size_t i = 0; i < exact_upper.size(); ++i)
        s += (exact_upper[i] - approx_upper[i]) * (exact_upper[i] - approx_upper[i]);
    return s / double(exact_upper.size());
}

inline kfm::offline::kernel_spec polynomial(unsigned p, double a) {
    kfm::offline::kernel_spec k;
    k.kind = kfm::format::kernel::polynomial_sphere;
    k.degree = p;
    k.scale = a;
    return k;
}

inline kfm::offline::kernel_spec delta_gaussian() {
    kfm::offline::kernel_spec k;
    k.kind = kfm::format::kernel::delta_gaussian;
    k.weights = {1.0, -1.0};
    k.sigmas = {1.0, 10.0};
    return k;
}

// One variant of the GORF protocol: a method, kernel and spectral model at D = 4s, s = d.
struct gorf_variant {
    kfm::format::method method;
    kfm::offline::kernel_spec kernel;
    const char* spectral;
    double diag;  // the exact K(x, x)
    const char* directions = "dense";
};

// Each variant's relative Frobenius error in each of `runs` runs (run r: rows derive(2024, r), maps seed
// derive(77, r); every variant of a run sees the same rows).
inline std::vector<std::vector<double>> gorf_errors(const dataset& data, const std::vector<gorf_variant>& variants,
                                                    unsigned runs) {
    const unsigned d = data.d, s = d;
    std::vector<std::vector<double>> errors(variants.size());
    for (unsigned run = 0; run < runs; ++run) {
        const std::vector<float> pts = sample_rows(data, gorf_sample_size, kfm::offline::derive(2024, run));
        const auto exact_poly = exact_gram_upper(polynomial(1, 3.0), pts, d);
        const auto exact_delta = exact_gram_upper(delta_gaussian(), pts, d);
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const auto& v = variants[i];
            kfm::offline::build_options o;
            o.method = v.method;
            o.kernel = v.kernel;
            o.spectral = kfm::offline::choice_named<kfm::offline::spectral_kind>(v.spectral);
            o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(v.directions);
            o.input_dim = d;
            o.features = 4 * s;
            o.seed = kfm::offline::derive(77, run);
            const auto map = kfm::test::map_from_options(o);
            const auto& exact = v.kernel.kind == kfm::format::kernel::delta_gaussian ? exact_delta : exact_poly;
            errors[i].push_back(rel_frobenius(exact, approx_gram_upper(map.view(), pts, d), v.diag, gorf_sample_size));
        }
    }
    return errors;
}

}  // namespace kfm::repro
