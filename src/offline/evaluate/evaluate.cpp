// Evaluation of a map against its exact kernel: Gram matrices, relative errors, intervals over runs.
#include "kfm/offline/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/students_t.hpp>

#include "kfm/offline/parallel_map.hpp"
#include "offline/io/open_map_reader.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {

kernel_spec kernel_spec_from_map(const kfm::map& map) {
    const format::map_meta& m = map_meta_of(map);
    kernel_spec k;
    k.kind = static_cast<format::kernel>(m.kernel);
    switch (k.kind) {
        case format::kernel::gaussian:
        case format::kernel::laplacian:
            k.sigma = m.kernel_sigma;
            break;
        case format::kernel::matern:
            k.sigma = m.kernel_sigma;
            k.nu = m.kernel_scale;
            break;
        case format::kernel::rational_quadratic:
            k.sigma = m.kernel_sigma;
            k.alpha = m.kernel_scale;
            break;
        case format::kernel::arccos:
            k.order = m.kernel_order;
            break;
        case format::kernel::polynomial_sphere:
            k.degree = m.kernel_order;
            k.scale = m.kernel_scale;
            break;
        case format::kernel::delta_gaussian: {
            const std::span<const double> params = kernel_params_of(map);
            if (params.size() < 2 * std::size_t(m.mixture_count)) throw std::invalid_argument("delta-gaussian map without kernel parameters");
            k.weights.assign(params.begin(), params.begin() + m.mixture_count);
            k.sigmas.assign(params.begin() + m.mixture_count, params.begin() + 2 * m.mixture_count);
            break;
        }
        default:
            throw std::invalid_argument("map records an unknown kernel");
    }
    return k;
}

bool map_normalizes_input(const kfm::map& map) {
    return (map_meta_of(map).flags & format::meta_flag_normalize_input) != 0;
}

namespace {

// Rows converted to double, optionally scaled to unit norm (a zero row stays zero).
std::vector<double> rows_as_double(const float* x, std::size_t n, unsigned d, bool normalize) {
    std::vector<double> out(x, x + n * d);
    if (!normalize) return out;
    for (std::size_t i = 0; i < n; ++i) {
        double* row = out.data() + i * d;
        double s = 0.0;
        for (unsigned j = 0; j < d; ++j) s += row[j] * row[j];
        if (s > 0.0) {
            const double inv = 1.0 / std::sqrt(s);
            for (unsigned j = 0; j < d; ++j) row[j] *= inv;
        }
    }
    return out;
}

}  // namespace

std::vector<double> exact_gram(const kernel_spec& kernel, const float* x, std::size_t nx, const float* y,
                               std::size_t ny, unsigned d, bool normalize) {
    const std::vector<double> xd = rows_as_double(x, nx, d, normalize);
    const std::vector<double> yd = rows_as_double(y, ny, d, normalize);
    std::vector<double> k(nx * ny);
    for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t j = 0; j < ny; ++j)
            k[i * ny + j] = exact_kernel(kernel, xd.data() + i * d, yd.data() + j * d, d);
    return k;
}

std::vector<float> map_rows(const kfm::map& map, const float* x, std::size_t n, unsigned d) {
    std::vector<float> out(n * map.output_dim());
    map_rows_parallel(map, x, n, d, out.data(), 0);
    return out;
}

std::vector<double> approx_gram(const kfm::map& map, const float* x, std::size_t nx, const float* y,
                                std::size_t ny, unsigned d) {
    const std::vector<float> fx = map_rows(map, x, nx, d);
    const std::vector<float> fy = map_rows(map, y, ny, d);
    const std::size_t D = map.output_dim();
    std::vector<double> k(nx * ny);
    for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t j = 0; j < ny; ++j) k[i * ny + j] = kfm::kernel_estimate(map, &fx[i * D], &fy[j * D]);
    return k;
}

gram_errors compare_grams(const std::vector<double>& exact, const std::vector<double>& approx) {
    if (exact.size() != approx.size() || exact.empty())
        throw std::invalid_argument("compare_grams: Gram matrices must be non-empty and of equal size");
    double diff2 = 0.0, ref2 = 0.0, diff_max = 0.0, ref_max = 0.0;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        const double e = exact[i] - approx[i];
        diff2 += e * e;
        ref2 += exact[i] * exact[i];
        diff_max = std::max(diff_max, std::fabs(e));
        ref_max = std::max(ref_max, std::fabs(exact[i]));
    }
    if (ref2 == 0.0) throw std::invalid_argument("compare_grams: the exact Gram matrix is zero");
    return {std::sqrt(diff2 / ref2), diff_max / ref_max};
}

double student_t_quantile(double probability, double dof) {
    if (!(probability > 0.0 && probability < 1.0) || !(dof > 0.0))
        throw std::invalid_argument("student_t_quantile: probability must be in (0, 1) and dof positive");
    return boost::math::quantile(boost::math::students_t(dof), probability);
}

interval mean_interval(const std::vector<double>& values) {
    if (values.empty()) throw std::invalid_argument("mean_interval: no values");
    const double n = static_cast<double>(values.size());
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    if (values.size() == 1) return {mean, mean, mean};
    double ss = 0.0;
    for (double v : values) ss += (v - mean) * (v - mean);
    const double stderr_mean = std::sqrt(ss / (n - 1.0) / n);
    const double t = student_t_quantile(0.975, n - 1.0);
    return {mean, mean - t * stderr_mean, mean + t * stderr_mean};
}

namespace {

// `count` distinct indices from [0, rows): a partial Fisher-Yates shuffle.
std::vector<std::size_t> sample_rows(std::size_t rows, unsigned count, rng& r) {
    std::vector<std::size_t> index(rows);
    std::iota(index.begin(), index.end(), std::size_t{0});
    for (unsigned i = 0; i < count; ++i) {
        const std::size_t j = i + static_cast<std::size_t>(r.below(rows - i));
        std::swap(index[i], index[j]);
    }
    index.resize(count);
    return index;
}

std::vector<float> gather(const float* data, const std::vector<std::size_t>& rows, unsigned d) {
    std::vector<float> out(rows.size() * d);
    for (std::size_t i = 0; i < rows.size(); ++i)
        std::copy(data + rows[i] * d, data + rows[i] * d + d, out.begin() + static_cast<std::ptrdiff_t>(i * d));
    return out;
}

// The rows as the map sees them. A model's input scaling (kfm fit --standardize / --minmax) maps
// x' = (x - shift) * scale, in float as the runtime does, so the exact kernel must see x' too (before, a
// scaled model's error was measured against the kernel of the raw rows). maclaurin-opt's own PREP is part
// of how the map computes k on the raw rows, so those stay as they are.
std::vector<float> as_the_map_sees(const kfm::map& map, std::vector<float> x, unsigned d) {
    if ((map_meta_of(map).flags & format::meta_flag_gaussian_prefactor) != 0) return x;
    const std::span<const float> prep = preprocess_of(map);
    if (prep.empty()) return x;
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (x[i] - prep[i % d]) * prep[d + i % d];
    return x;
}

}  // namespace

evaluation evaluate(const kfm::map& map, const float* data, std::size_t rows, unsigned d, unsigned samples,
                    unsigned runs, std::uint64_t seed) {
    if (d != map.input_dim())
        throw std::invalid_argument("evaluate: data has " + std::to_string(d) + " columns but the map expects " +
                                    std::to_string(map.input_dim()));
    if (samples == 0) throw std::invalid_argument("evaluate: samples must be at least 1");
    if (samples > rows)
        throw std::invalid_argument("evaluate: " + std::to_string(samples) + " samples requested from only " +
                                    std::to_string(rows) + " rows");
    if (runs == 0) throw std::invalid_argument("evaluate: runs must be at least 1");
    const kernel_spec kernel = kernel_spec_from_map(map);
    const bool normalize = map_normalizes_input(map);

    evaluation ev;
    ev.samples = samples;
    ev.runs = runs;
    for (unsigned run = 0; run < runs; ++run) {
        rng r(derive(seed, run));
        const std::vector<float> x = gather(data, sample_rows(rows, samples, r), d);
        const std::vector<float> y = gather(data, sample_rows(rows, samples, r), d);
        const std::vector<float> xs = as_the_map_sees(map, x, d), ys = as_the_map_sees(map, y, d);
        const gram_errors e = compare_grams(exact_gram(kernel, xs.data(), samples, ys.data(), samples, d, normalize),
                                            approx_gram(map, x.data(), samples, y.data(), samples, d));
        ev.rel_frobenius_runs.push_back(e.rel_frobenius);
        ev.rel_max_runs.push_back(e.rel_max);
    }
    ev.rel_frobenius = mean_interval(ev.rel_frobenius_runs);
    ev.rel_max = mean_interval(ev.rel_max_runs);
    return ev;
}

}  // namespace kfm::offline
