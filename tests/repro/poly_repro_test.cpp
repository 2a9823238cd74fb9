// Reproduction of the GORF and SRF papers' kernel-approximation claims on the data sets under KFM_DATA_DIR
// (skipped when the data is absent, see common/datasets.hpp). GORF protocol: rows unit-normalised, 1000
// random training rows per run, relative Frobenius error of the 1000 x 1000 Gram matrix with its diagonal set to the exact K(x, x) (as the
// reference code does), mean over runs; structured (hadamard, butterfly) GORF and SRF against dense
// orthogonal directions. SRF protocol: USPS, a = 4, p = 10, kernel MSE over the sample, D = 2^9..2^14.
// KFM_REPRO_RUNS (default 10, the paper's count) sets the runs; the seeds are fixed, so results are deterministic.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/datasets.hpp"
#include "common/stats_util.hpp"
#include "offline/evaluate.hpp"
#include "offline/npy.hpp"
#include "offline/random.hpp"
#include "repro/protocols.hpp"

namespace {

using kfm::offline::build_options;
constexpr std::size_t sample_size = 1000;
// Allowed ratio of a structured variant's error to the dense orthogonal one's (see the checks' comments).
constexpr double structured_factor = 1.25;
constexpr double padded_hadamard_factor = 1.6;
constexpr double single_run_structured_factor = 1.5;

struct dataset {
    std::vector<float> x;  // unit rows (zero rows dropped)
    std::size_t rows = 0;
    unsigned d = 0;
};

std::optional<dataset> load_unit_rows(const std::string& name) {
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

unsigned runs() {
    const char* env = std::getenv("KFM_REPRO_RUNS");
    return env ? static_cast<unsigned>(std::max(1, std::atoi(env))) : 10u;
}

// `n` distinct rows chosen by a partial Fisher-Yates shuffle seeded by `seed`.
std::vector<float> sample_rows(const dataset& data, std::size_t n, std::uint64_t seed) {
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
double dot(const float* a, const float* b, std::size_t n) {
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
std::vector<double> approx_gram_upper(const kfm::map& map, const std::vector<float>& pts, unsigned d) {
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

std::vector<double> exact_gram_upper(const kfm::offline::kernel_spec& k, const std::vector<float>& pts, unsigned d) {
    const std::size_t n = pts.size() / d;
    const std::vector<double> full = kfm::offline::exact_gram(k, pts.data(), n, pts.data(), n, d, true);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) out.push_back(full[i * n + j]);
    return out;
}

// Relative Frobenius error of the symmetric Gram whose diagonal is exact: off-diagonal entries count twice.
double rel_frobenius(const std::vector<double>& exact_upper, const std::vector<double>& approx_upper, double diag,
                     std::size_t n) {
    double num = 0, den = double(n) * diag * diag;
    for (std::size_t i = 0; i < exact_upper.size(); ++i) {
        num += 2 * (exact_upper[i] - approx_upper[i]) * (exact_upper[i] - approx_upper[i]);
        den += 2 * exact_upper[i] * exact_upper[i];
    }
    return std::sqrt(num / den);
}

double mse(const std::vector<double>& exact_upper, const std::vector<double>& approx_upper) {
    double s = 0;
    for (std::size_t i = 0; i < exact_upper.size(); ++i)
        s += (exact_upper[i] - approx_upper[i]) * (exact_upper[i] - approx_upper[i]);
    return s / double(exact_upper.size());
}

kfm::offline::kernel_spec polynomial(unsigned p, double a) {
    kfm::offline::kernel_spec k;
    k.kind = kfm::format::kernel::polynomial_sphere;
    k.degree = p;
    k.scale = a;
    return k;
}

kfm::offline::kernel_spec delta_gaussian() {
    kfm::offline::kernel_spec k;
    k.kind = kfm::format::kernel::delta_gaussian;
    k.weights = {1.0, -1.0};
    k.sigmas = {1.0, 10.0};
    return k;
}

}  // namespace

TEST_CASE("gorf repro: GORF beats GRFF at s = d on letter, ijcnn1, usps; signed-mixture beats bessel-1d" *
          doctest::skip(kfm::test::missing_data({"letter", "ijcnn1", "usps"}))) {
    for (const char* name : {"letter", "ijcnn1", "usps"}) {
        const auto data = load_unit_rows(name);
        if (!data) {
            MESSAGE("skipped gorf repro on " << std::string(name) << ": " << kfm::test::dataset_file(name) << " is absent");
            continue;
        }
        const unsigned d = data->d, s = d, R = runs();
        struct variant {
            const char* label;
            kfm::format::method method;
            kfm::offline::kernel_spec kernel;
            const char* spectral;
            double diag;
            const char* directions;
            std::vector<double> errors;
        };
        std::vector<variant> variants = {
            {"poly GRFF bessel-1d", kfm::format::method::grff, polynomial(1, 3.0), "bessel-1d", 1.0, "dense", {}},
            {"poly GORF bessel-1d", kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "dense", {}},
            {"poly GORF signed-mixture", kfm::format::method::gorf, polynomial(1, 3.0), "signed-mixture", 1.0, "dense", {}},
            {"delta GRFF", kfm::format::method::grff, delta_gaussian(), "bessel-1d", 0.0, "dense", {}},
            {"delta GORF", kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "dense", {}},
            {"delta GORF hadamard", kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "hadamard", {}},
            {"delta GORF butterfly", kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "butterfly", {}},
            {"poly GORF bessel-1d butterfly", kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "butterfly", {}},
            {"poly GORF bessel-1d hadamard", kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "hadamard", {}},
            // SRF on the same protocol and kernel (its D = 4s cos features against GORF's 2s cos/sin pairs).
            {"poly SRF", kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "dense", {}},
            {"poly SRF hadamard", kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "hadamard", {}},
            {"poly SRF butterfly", kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "butterfly", {}},
        };
        for (unsigned run = 0; run < R; ++run) {
            // The same sample for every variant of a run (paired comparison).
            const std::vector<float> pts = sample_rows(*data, sample_size, kfm::offline::derive(2024, run));
            const auto exact_poly = exact_gram_upper(polynomial(1, 3.0), pts, d);
            const auto exact_delta = exact_gram_upper(delta_gaussian(), pts, d);
            for (auto& v : variants) {
                build_options o;
                o.method = v.method;
                o.kernel = v.kernel;
                o.spectral = v.spectral;
                o.directions = v.directions;
                o.input_dim = d;
                o.features = 4 * s;
                o.seed = kfm::offline::derive(77, run);
                const auto map = kfm::test::map_from_options(o);
                const auto& exact = v.kernel.kind == kfm::format::kernel::delta_gaussian ? exact_delta : exact_poly;
                v.errors.push_back(rel_frobenius(exact, approx_gram_upper(map.view(), pts, d), v.diag, sample_size));
            }
        }
        std::vector<double> mean(variants.size());
        for (std::size_t i = 0; i < variants.size(); ++i) {
            mean[i] = kfm::offline::mean_interval(variants[i].errors).mean;
            MESSAGE("gorf repro " << std::string(name) << " (d = " << d << ", s = d, " << R << " runs): " << std::string(variants[i].label)
                                  << " rel. Frobenius " << mean[i]);
        }
        INFO(std::string(name));
        CHECK(mean[1] < mean[0]);  // polynomial: GORF < GRFF
        CHECK(mean[4] < mean[3]);  // delta-gaussian: GORF < GRFF
        CHECK(mean[2] <= mean[1]); // signed-mixture at least as good as bessel-1d
        CHECK(mean[5] < mean[3]);  // structured (hadamard) GORF still beats iid GRFF
        CHECK(mean[6] < mean[3]);  // and so does butterfly GORF, for both kernels
        CHECK(mean[7] < mean[0]);
        CHECK(mean[8] < mean[0]);
        // Structured against dense orthogonal directions, same method, kernel and samples. Hadamard blocks
        // pad d to a power of two (ijcnn1: 22 -> 32), which costs accuracy; see padded_hadamard_factor.
        const double hadamard_factor = (d & (d - 1)) == 0 ? structured_factor : padded_hadamard_factor;
        CHECK(mean[5] < hadamard_factor * mean[4]);
        CHECK(mean[6] < structured_factor * mean[4]);
        CHECK(mean[7] < structured_factor * mean[1]);
        CHECK(mean[8] < hadamard_factor * mean[1]);
        CHECK(mean[10] < hadamard_factor * mean[9]);
        CHECK(mean[11] < structured_factor * mean[9]);
    }
}

namespace {

// The SRF paper's comparison (Figure 2): kernel MSE over the upper triangle of the Gram of a sample of
// usps rows, a = 4, p = 10, at D features. Run `run` draws its own rows and map seeds; every variant of a
// run sees the same rows and seed (paired comparison).
struct srf_variant {
    const char* label;
    kfm::format::method method;
    const char* directions;
};
const std::vector<srf_variant> srf_variants = {
    {"SRF", kfm::format::method::srf, "dense"},
    {"SRF hadamard", kfm::format::method::srf, "hadamard"},
    {"SRF butterfly", kfm::format::method::srf, "butterfly"},
    {"Random Maclaurin", kfm::format::method::maclaurin, "dense"},
    {"TensorSketch", kfm::format::method::tensorsketch, "dense"},
};
enum srf_index { srf_dense, srf_hadamard, srf_butterfly, maclaurin, tensorsketch };

struct srf_sample {
    std::vector<float> pts;
    std::vector<double> exact;
};
srf_sample srf_protocol_sample(const dataset& usps, unsigned run) {
    srf_sample s;
    s.pts = sample_rows(usps, sample_size, kfm::offline::derive(99, run));
    s.exact = exact_gram_upper(polynomial(10, 4.0), s.pts, usps.d);
    return s;
}
std::vector<double> srf_protocol_mse(const srf_sample& s, unsigned d, unsigned D, unsigned run) {
    std::vector<double> err;
    for (const auto& v : srf_variants) {
        build_options o;
        o.method = v.method;
        o.directions = v.directions;
        o.kernel = polynomial(10, 4.0);
        o.input_dim = d;
        o.features = D;
        o.seed = kfm::offline::derive(5 + D, run);
        const auto map = kfm::test::map_from_options(o);
        err.push_back(mse(s.exact, approx_gram_upper(map.view(), s.pts, d)));
    }
    return err;
}

}  // namespace

// One run per D (about 20 s CPU natively); the table in docs/results-poly.md comes from the generator below.
TEST_CASE("srf repro: SRF kernel MSE below Random Maclaurin and TensorSketch on usps, a = 4, p = 10, D = 2^9..2^14" *
          doctest::skip(kfm::test::missing_data({"usps"}))) {
    const auto data = load_unit_rows("usps");
    if (!data) {
        MESSAGE("skipped srf repro: " << kfm::test::dataset_file("usps") << " is absent");
        return;
    }
    const srf_sample sample = srf_protocol_sample(*data, 0);
    for (unsigned D = 512; D <= 16384; D *= 2) {
        const std::vector<double> err = srf_protocol_mse(sample, data->d, D, 0);
        MESSAGE("srf repro usps p=10 D=" << D << ": MSE srf " << err[srf_dense] << ", hadamard " << err[srf_hadamard]
                                         << ", butterfly " << err[srf_butterfly] << ", maclaurin " << err[maclaurin]
                                         << ", tensorsketch " << err[tensorsketch]);
        CAPTURE(D);
        CHECK(err[srf_dense] < err[maclaurin]);
        CHECK(err[srf_dense] < err[tensorsketch]);
        // Structured directions keep dense accuracy (d = 256 is a power of two, so hadamard needs no padding):
        // the 10-run mean ratios to dense are 0.55-0.99 (hadamard) and 0.69-0.91 (butterfly) over these D,
        // this run's worst 1.15. One run is noisier than a mean, hence the wider allowance; a broken
        // structured path (wrong radius scale, rows not orthonormal, wrong signs) is off by far more.
        CHECK(err[srf_hadamard] < single_run_structured_factor * err[srf_dense]);
        CHECK(err[srf_butterfly] < single_run_structured_factor * err[srf_dense]);
    }
}

// "1.59e-3 [1.47, 1.72]": the mean in scientific notation, its 95% interval in the units of its exponent.
std::string scientific_interval(const kfm::offline::interval& ci) {
    const int exponent = int(std::floor(std::log10(ci.mean)));
    const double unit = std::pow(10.0, exponent);
    char text[96];
    std::snprintf(text, sizeof text, "%.2fe%d [%.2f, %.2f]", ci.mean / unit, exponent, ci.low / unit, ci.high / unit);
    return text;
}

// Table generator (skipped by default; `scripts/results-tables.sh docs/results-poly.md` runs it):
// KFM_REPRO_RUNS runs (default 10) of the SRF comparison at D = 2^9..2^14, docs/results-poly.md's block
// "srf usps p = 10".
TEST_CASE("srf repro table: usps, a = 4, p = 10, kernel MSE mean and 95% interval over runs" * doctest::skip()) {
    const auto data = load_unit_rows("usps");
    if (!data) {
        MESSAGE("skipped srf repro table: " << kfm::test::dataset_file("usps") << " is absent");
        return;
    }
    const unsigned R = runs();
    std::vector<unsigned> dims;
    for (unsigned D = 512; D <= 16384; D *= 2) dims.push_back(D);
    // errors[D index][variant][run]
    std::vector<std::vector<std::vector<double>>> errors(dims.size(), std::vector<std::vector<double>>(srf_variants.size()));
    for (unsigned run = 0; run < R; ++run) {
        const srf_sample sample = srf_protocol_sample(*data, run);
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const auto err = srf_protocol_mse(sample, data->d, dims[i], run);
            for (std::size_t v = 0; v < err.size(); ++v) errors[i][v].push_back(err[v]);
        }
    }
    kfm::repro::begin_doc_block("srf usps p = 10");
    std::printf("kernel MSE, mean [95%% interval] over %u runs\n\n| D |", R);
    for (const auto& v : srf_variants) std::printf(" %s |", v.label);
    std::printf(" RM / SRF | TS / SRF | hadamard / SRF | butterfly / SRF |\n|---|");
    for (std::size_t v = 0; v < srf_variants.size() + 4; ++v) std::printf("---|");
    std::printf("\n");
    for (std::size_t i = 0; i < dims.size(); ++i) {
        std::printf("| %u |", dims[i]);
        std::vector<double> means;
        for (const auto& e : errors[i]) {
            const auto ci = kfm::offline::mean_interval(e);
            means.push_back(ci.mean);
            std::printf(" %s |", scientific_interval(ci).c_str());
        }
        std::printf(" %.1f | %.1f | %.2f | %.2f |\n", means[maclaurin] / means[srf_dense],
                    means[tensorsketch] / means[srf_dense], means[srf_hadamard] / means[srf_dense],
                    means[srf_butterfly] / means[srf_dense]);
        CHECK(means[srf_dense] < means[maclaurin]);
        CHECK(means[srf_dense] < means[tensorsketch]);
    }
    kfm::repro::end_doc_block("srf usps p = 10");
}
