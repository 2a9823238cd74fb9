// The data-driven degree allocation of maclaurin-opt (see the header for the estimate). Only IEEE
// operations and the portable exp (no libm pow or tgamma, binomials by products), so the allocation, and
// the map's bytes, are the same on every architecture.
#include "offline/methods/maclaurin_opt/degree_allocation.hpp"

#include <algorithm>
#include <cmath>

#include "offline/sampling/portable_math.hpp"

namespace kfm::offline {
namespace {

double power(double base, unsigned exponent) {
    double out = 1.0;
    for (unsigned i = 0; i < exponent; ++i) out *= base;
    return out;
}

double inverse_factorial(unsigned k) {
    double f = 1.0;
    for (unsigned i = 2; i <= k; ++i) f *= i;
    return 1.0 / f;
}

// What the estimate needs of one pair of rows (x, y): its weight in the Gram sum (2 off the diagonal),
// z = x.y, the squared prefactor w(x)^2 w(y)^2 (exp(-|x|^2 - |y|^2) for the gaussian, else 1) and m2, a
// random-sign row's E[(w.x)^2 (w.y)^2].
struct pair_terms {
    double weight, z, prefactor2, m2;
};

std::vector<pair_terms> pairs_of(const std::vector<double>& rows, std::size_t d, bool gaussian) {
    const std::size_t n = d == 0 ? 0 : rows.size() / d;
    std::vector<double> norms(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < d; ++c) norms[i] += rows[i * d + c] * rows[i * d + c];
    std::vector<pair_terms> out;
    out.reserve(n * (n + 1) / 2);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) {
            double z = 0.0, q = 0.0;
            for (std::size_t c = 0; c < d; ++c) {
                const double a = rows[i * d + c], b = rows[j * d + c];
                z += a * b;
                q += a * a * b * b;
            }
            const double prefactor2 = gaussian ? portable::exp(-norms[i] - norms[j]) : 1.0;
            out.push_back({i == j ? 1.0 : 2.0, z, prefactor2, norms[i] * norms[j] + 2.0 * z * z - 2.0 * q});
        }
    return out;
}

// Per pair: the squared prefactor times c_k^2 (m2^k - z^2k), summed: the variance of one degree-k feature
// (0 above the series' largest degree, where c_k = 0).
double variance_term(const std::vector<pair_terms>& pairs, const dot_product_series& series, unsigned k) {
    const double c = k <= series.largest_degree() ? series.coefficients[k] : 0.0;
    double sum = 0.0;
    for (const pair_terms& p : pairs) sum += p.weight * p.prefactor2 * c * c * std::max(0.0, power(p.m2, k) - power(p.z, 2 * k));
    return sum;
}

// The series' terms above degree `largest` at z: exp(z) - sum_{k <= largest} z^k / k! for the gaussian,
// sum_{largest < k <= K} c_k z^k for a finite series (0 when every degree is kept).
double dropped_terms(const dot_product_series& series, double z, unsigned largest) {
    if (series.gaussian) {
        double partial = 0.0, term = 1.0;
        for (unsigned k = 0; k <= largest; ++k) {
            partial += term;
            term *= z / (k + 1);
        }
        return portable::exp(z) - partial;
    }
    double dropped = 0.0, z_k = power(z, largest + 1);
    for (unsigned k = largest + 1; k <= series.largest_degree(); ++k, z_k *= z) dropped += series.coefficients[k] * z_k;
    return dropped;
}

// The kernel's series at z: exp(z) for the gaussian, sum_k c_k z^k otherwise.
double series_value(const dot_product_series& series, double z) {
    if (series.gaussian) return portable::exp(z);
    double value = 0.0, z_k = 1.0;
    for (unsigned k = 0; k <= series.largest_degree(); ++k, z_k *= z) value += series.coefficients[k] * z_k;
    return value;
}

// Sum over pairs of the squared prefactor times the squared dropped terms.
double truncation_term(const std::vector<pair_terms>& pairs, const dot_product_series& series, unsigned largest) {
    double sum = 0.0;
    for (const pair_terms& p : pairs) {
        const double dropped = dropped_terms(series, p.z, largest);
        sum += p.weight * p.prefactor2 * dropped * dropped;
    }
    return sum;
}

double gram_squared(const std::vector<pair_terms>& pairs, const dot_product_series& series) {
    double sum = 0.0;
    for (const pair_terms& p : pairs) {
        if (series.gaussian) {
            sum += p.weight * p.prefactor2 * portable::exp(2.0 * p.z);  // exp(z)^2 in one exp
        } else {
            const double k = series_value(series, p.z);
            sum += p.weight * k * k;
        }
    }
    return sum;
}

// The estimate for D_k = features[k - 2], given the variance terms variances[k - 2] (at least as many) and
// the squared Gram norm.
double error_of(const std::vector<pair_terms>& pairs, const dot_product_series& series, const std::vector<double>& variances,
                double gram, const std::vector<std::uint32_t>& features) {
    const unsigned largest = unsigned(features.size()) + 1;
    double error = truncation_term(pairs, series, largest);
    for (unsigned k = 2; k <= largest; ++k) error += variances[k - 2] / features[k - 2];
    return gram > 0.0 ? error / gram : 0.0;
}

// budget features over the degrees 2..K with variance terms v: one each, the rest proportional to sqrt(v_k)
// by largest remainders (ties to the lower degree).
std::vector<std::uint32_t> split(std::uint32_t budget, const std::vector<double>& v) {
    const std::size_t n = v.size();
    std::vector<std::uint32_t> out(n, 1);
    const std::uint32_t rest = budget - std::uint32_t(n);
    double total = 0.0;
    for (double x : v) total += std::sqrt(x);
    std::vector<double> share(n);
    std::uint32_t given = 0;
    for (std::size_t i = 0; i < n; ++i) {
        share[i] = total > 0.0 ? rest * std::sqrt(v[i]) / total : (i == 0 ? double(rest) : 0.0);
        const auto whole = std::uint32_t(std::floor(share[i]));
        out[i] += whole;
        given += whole;
        share[i] -= whole;
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return share[a] > share[b]; });
    for (std::size_t i = 0; given < rest; ++i, ++given) ++out[order[i % n]];
    return out;
}

}  // namespace

dot_product_series gaussian_series(unsigned largest) {
    dot_product_series series;
    series.gaussian = true;
    for (unsigned k = 0; k <= largest; ++k) series.coefficients.push_back(inverse_factorial(k));
    return series;
}

dot_product_series polynomial_sphere_series(unsigned p, double a) {
    const double linear = 2.0 / (a * a), constant = 1.0 - linear;
    dot_product_series series;
    double binomial = 1.0;  // binom(p, k), built up as binom(p, k - 1) (p - k + 1) / k
    for (unsigned k = 0; k <= p; ++k) {
        if (k > 0) binomial = binomial * double(p - k + 1) / double(k);
        series.coefficients.push_back(binomial * power(constant, p - k) * power(linear, k));
    }
    return series;
}

double estimated_gram_error(const std::vector<double>& rows, std::size_t d, const dot_product_series& series,
                            const std::vector<std::uint32_t>& features) {
    const std::vector<pair_terms> pairs = pairs_of(rows, d, series.gaussian);
    std::vector<double> variances;
    for (unsigned k = 2; k <= features.size() + 1; ++k) variances.push_back(variance_term(pairs, series, k));
    return error_of(pairs, series, variances, gram_squared(pairs, series), features);
}

degree_allocation allocate_degrees(const std::vector<double>& rows, std::size_t d, const dot_product_series& series,
                                   std::uint32_t budget, unsigned max_degree) {
    degree_allocation best;
    max_degree = std::min(max_degree, series.largest_degree());
    if (budget == 0 || max_degree < 2) return best;
    const std::vector<pair_terms> pairs = pairs_of(rows, d, series.gaussian);
    const double gram = gram_squared(pairs, series);
    std::vector<double> variances;
    bool first = true;
    for (unsigned largest = 2; largest <= max_degree && largest - 1 <= budget; ++largest) {
        variances.push_back(variance_term(pairs, series, largest));
        const std::vector<std::uint32_t> features = split(budget, variances);
        const double error = error_of(pairs, series, variances, gram, features);
        if (first || error < best.estimated_error) best = {features, error};
        first = false;
    }
    return best;
}

}  // namespace kfm::offline
