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
#include "kfm/offline/evaluate.hpp"
#include "kfm/offline/npy.hpp"
#include "offline/sampling/random.hpp"
#include "repro/gorf_protocol.hpp"
#include "repro/protocols.hpp"

namespace {

using namespace kfm::repro;
using kfm::offline::build_options;
constexpr std::size_t sample_size = gorf_sample_size;
// Allowed ratio of a structured variant's error to the dense orthogonal one's (see the checks' comments).
constexpr double structured_factor = 1.25;
constexpr double padded_hadamard_factor = 1.6;
constexpr double single_run_structured_factor = 1.5;

}  // namespace

TEST_CASE("gorf repro: GORF beats GRFF at s = d on letter, ijcnn1, usps; signed-mixture beats bessel-1d" *
          doctest::skip(kfm::test::missing_data({"letter", "ijcnn1", "usps"}))) {
    for (const char* name : {"letter", "ijcnn1", "usps"}) {
        const auto data = load_unit_rows(name);
        if (!data) {
            MESSAGE("skipped gorf repro on " << std::string(name) << ": " << kfm::test::dataset_file(name) << " is absent");
            continue;
        }
        const unsigned d = data->d, R = runs();
        const std::vector<const char*> labels = {
            "poly GRFF bessel-1d", "poly GORF bessel-1d", "poly GORF signed-mixture", "delta GRFF", "delta GORF",
            "delta GORF hadamard", "delta GORF butterfly", "poly GORF bessel-1d butterfly", "poly GORF bessel-1d hadamard",
            "poly SRF", "poly SRF hadamard", "poly SRF butterfly"};
        const std::vector<gorf_variant> variants = {
            {kfm::format::method::grff, polynomial(1, 3.0), "bessel-1d", 1.0, "dense"},
            {kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "dense"},
            {kfm::format::method::gorf, polynomial(1, 3.0), "signed-mixture", 1.0, "dense"},
            {kfm::format::method::grff, delta_gaussian(), "bessel-1d", 0.0, "dense"},
            {kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "dense"},
            {kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "hadamard"},
            {kfm::format::method::gorf, delta_gaussian(), "bessel-1d", 0.0, "butterfly"},
            {kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "butterfly"},
            {kfm::format::method::gorf, polynomial(1, 3.0), "bessel-1d", 1.0, "hadamard"},
            // SRF on the same protocol and kernel (its D = 4s cos features against GORF's 2s cos/sin pairs).
            {kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "dense"},
            {kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "hadamard"},
            {kfm::format::method::srf, polynomial(1, 3.0), "bessel-1d", 1.0, "butterfly"},
        };
        const auto errors = gorf_errors(*data, variants, R);
        std::vector<double> mean(variants.size());
        for (std::size_t i = 0; i < variants.size(); ++i) {
            mean[i] = kfm::offline::mean_interval(errors[i]).mean;
            MESSAGE("gorf repro " << std::string(name) << " (d = " << d << ", s = d, " << R << " runs): " << std::string(labels[i])
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
        o.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(v.directions);
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

// Table generator (skipped by default; `scripts/research/results-tables.sh docs/results-poly.md` runs it):
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
