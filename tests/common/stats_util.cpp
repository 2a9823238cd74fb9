// Shared helpers for statistical tests of feature maps (see stats_util.hpp).
#include "common/stats_util.hpp"

#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "offline/sampling/random.hpp"

namespace kfm::test {

opened_map::opened_map(const std::vector<std::uint8_t>& file_bytes)
    : storage_((file_bytes.size() + 7) / 8), size_(file_bytes.size()) {
    if (!file_bytes.empty()) std::memcpy(storage_.data(), file_bytes.data(), file_bytes.size());
    const kfm::status s = kfm::open(storage_.data(), size_, &view_);
    if (s != kfm::status::ok)
        throw std::runtime_error(std::string("kfm::open rejected the map: ") + kfm::status_string(s));
}

opened_map map_from_contents(const kfm::offline::map_contents& contents) {
    return opened_map(kfm::offline::serialize(contents));
}

opened_map map_from_options(const kfm::offline::build_options& options) {
    return map_from_contents(kfm::offline::build_map(options));
}

std::vector<float> transform_one(const opened_map& map, const std::vector<float>& x) {
    return kfm::offline::map_rows(map.view(), x.data(), 1, static_cast<unsigned>(x.size()));
}

double estimate(const opened_map& map, const std::vector<float>& x, const std::vector<float>& y) {
    const std::vector<float> fx = transform_one(map, x);
    const std::vector<float> fy = transform_one(map, y);
    return kfm::kernel_estimate(map.view(), fx.data(), fy.data());
}

mean_ci mean_with_ci(const std::vector<double>& values, double confidence) {
    if (values.size() < 2) throw std::invalid_argument("mean_with_ci: need at least two values");
    const double n = static_cast<double>(values.size());
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    double ss = 0.0;
    for (double v : values) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / (n - 1.0));
    const double t = kfm::offline::student_t_quantile(0.5 + confidence / 2.0, n - 1.0);
    return {mean, t * sd / std::sqrt(n), sd};
}

mean_ci mean_with_ci(const std::vector<double>& values) { return mean_with_ci(values, 0.95); }

double log_sd_standard_error(const std::vector<double>& values) {
    const mean_ci ci = mean_with_ci(values);
    if (!(ci.stddev > 0.0)) throw std::invalid_argument("log_sd_standard_error: the values are all equal");
    const double n = static_cast<double>(values.size());
    double m4 = 0.0;
    for (double v : values) m4 += std::pow(v - ci.mean, 4) / n;
    const double kurtosis = m4 / std::pow(ci.stddev, 4);
    return std::sqrt((kurtosis - 1.0) / (4.0 * n));
}

seed_mean_estimate mean_estimate_over_seeds(const std::vector<float>& x, const std::vector<float>& y,
                                            std::uint64_t seeds, double confidence,
                                            const std::function<opened_map(std::uint64_t seed)>& make_map) {
    seed_mean_estimate result;
    std::vector<double> draws;
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        const opened_map map = make_map(seed);
        draws.push_back(estimate(map, x, y));
        result.exact = exact(kfm::offline::kernel_spec_from_map(map.view()), x, y);
    }
    result.ci = mean_with_ci(draws, confidence);
    return result;
}

std::vector<double> gram_errors_over_seeds(std::uint64_t first_seed, unsigned seeds,
                                           const std::function<opened_map(std::uint64_t seed)>& make_map,
                                           const std::vector<float>& x, std::size_t nx, const std::vector<float>& y,
                                           std::size_t ny) {
    std::vector<double> errors;
    for (unsigned s = 0; s < seeds; ++s) errors.push_back(gram_error(make_map(first_seed + s), x, nx, y, ny).rel_frobenius);
    return errors;
}

error_trend error_against_features(const std::vector<unsigned>& sizes, unsigned seeds,
                                   const std::function<opened_map(unsigned D, unsigned seed)>& make_map,
                                   const std::vector<float>& x, const std::vector<float>& y, std::size_t n) {
    error_trend trend;
    std::vector<double> dims;
    for (unsigned D : sizes) {
        const std::vector<double> errors =
            gram_errors_over_seeds(0, seeds, [&](std::uint64_t s) { return make_map(D, unsigned(s)); }, x, n, y, n);
        dims.push_back(D);
        trend.mean_errors.push_back(std::accumulate(errors.begin(), errors.end(), 0.0) / seeds);
    }
    trend.slope = loglog_slope(dims, trend.mean_errors);
    return trend;
}

double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2) throw std::invalid_argument("loglog_slope: need >= 2 pairs");
    const double n = static_cast<double>(x.size());
    double mx = 0.0, my = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!(x[i] > 0.0) || !(y[i] > 0.0)) throw std::invalid_argument("loglog_slope: values must be positive");
        mx += std::log(x[i]);
        my += std::log(y[i]);
    }
    mx /= n;
    my /= n;
    double sxy = 0.0, sxx = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double lx = std::log(x[i]) - mx;
        sxy += lx * (std::log(y[i]) - my);
        sxx += lx * lx;
    }
    return sxy / sxx;
}

kfm::offline::gram_errors gram_error(const opened_map& map, const std::vector<float>& x, std::size_t nx,
                                     const std::vector<float>& y, std::size_t ny) {
    const kfm::map& v = map.view();
    const unsigned d = map.input_dim();
    const auto exact = kfm::offline::exact_gram(kfm::offline::kernel_spec_from_map(v), x.data(), nx, y.data(), ny,
                                                d, kfm::offline::map_normalizes_input(v));
    const auto approx = kfm::offline::approx_gram(v, x.data(), nx, y.data(), ny, d);
    return kfm::offline::compare_grams(exact, approx);
}

std::vector<float> random_points(std::size_t n, unsigned d, std::uint64_t seed, double radius, bool fixed_norm) {
    kfm::offline::rng r(seed);
    std::vector<double> dir(d);
    std::vector<float> out(n * d);
    for (std::size_t i = 0; i < n; ++i) {
        r.unit_sphere(dir.data(), d);
        const double norm = fixed_norm ? radius : radius * (0.5 + r.uniform());
        for (unsigned j = 0; j < d; ++j) out[i * d + j] = static_cast<float>(norm * dir[j]);
    }
    return out;
}

double exact(const kfm::offline::kernel_spec& kernel, const std::vector<float>& x, const std::vector<float>& y) {
    if (x.size() != y.size()) throw std::invalid_argument("exact: vectors of different lengths");
    const std::vector<double> xd(x.begin(), x.end()), yd(y.begin(), y.end());
    return kfm::offline::exact_kernel(kernel, xd.data(), yd.data(), static_cast<unsigned>(x.size()));
}

std::vector<float> point_row(const std::vector<float>& points, unsigned i, unsigned d) {
    return {points.begin() + std::ptrdiff_t(i) * d, points.begin() + std::ptrdiff_t(i + 1) * d};
}

double chi_cos_mean(double k, double a) {
    const boost::math::chi_squared_distribution<double> chi2(k);
    auto f = [&](double q) { return std::cos(std::sqrt(q) * a) * boost::math::pdf(chi2, q); };
    const double hi = boost::math::quantile(boost::math::complement(chi2, 1e-16));
    return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, 0.0, hi, 12, 1e-13);
}

}  // namespace kfm::test
