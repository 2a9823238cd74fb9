// Implementation of the shared test helpers (see test_maps.hpp).
#include "common/test_maps.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "offline/sampling/random.hpp"
#include "format/crc32c.hpp"

namespace kfm::test {
namespace {

namespace fmt = kfm::format;

std::vector<float> normals(std::size_t n, offline::rng& r, double scale) {
    std::vector<float> v(n);
    for (auto& e : v) e = static_cast<float>(r.normal() * scale);
    return v;
}

std::vector<float> uniforms(std::size_t n, offline::rng& r, double lo, double hi) {
    std::vector<float> v(n);
    for (auto& e : v) e = static_cast<float>(lo + (hi - lo) * r.uniform());
    return v;
}

fmt::feature_segment blank_segment() {
    fmt::feature_segment s{};
    s.scale_index = s.weight_index = s.phase_index = s.group_index = fmt::no_index;
    s.scale = 1.0f;
    s.weight = 1.0f;
    return s;
}

fmt::map_meta base_meta(std::uint32_t input_dim, std::uint32_t work_dim, std::uint32_t projection_dim) {
    fmt::map_meta m{};
    m.method = static_cast<std::uint32_t>(fmt::method::rff);
    m.kernel = static_cast<std::uint32_t>(fmt::kernel::gaussian);
    m.projection = static_cast<std::uint32_t>(fmt::projection::dense);
    m.input_dim = input_dim;
    m.work_dim = work_dim;
    m.projection_dim = projection_dim;
    m.kernel_sigma = 1.0;
    m.kernel_scale = 0.0;
    m.seed = 1;
    return m;
}

double apply_nonlinearity(fmt::nonlinearity k, double a, double phase) {
    switch (k) {
        case fmt::nonlinearity::cos_phase: return std::cos(a + phase);
        case fmt::nonlinearity::relu: return a > 0 ? a : 0.0;
        case fmt::nonlinearity::step: return a > 0 ? 1.0 : 0.0;
        case fmt::nonlinearity::relu2: return a > 0 ? a * a : 0.0;
        case fmt::nonlinearity::identity: return a;
        default: return std::cos(a);
    }
}

}  // namespace

offline::map_contents make_dense_map(const dense_spec& spec) {
    offline::rng r(spec.seed);
    const std::uint32_t append_slot = spec.input_append != 0.0 ? 1 : 0;
    const std::uint32_t work_dim = spec.input_dim + spec.pad + append_slot;
    offline::map_contents map;
    map.meta = base_meta(spec.input_dim, work_dim, spec.projection_dim);
    map.meta.input_append = spec.input_append;
    if (spec.normalize) map.meta.flags |= fmt::meta_flag_normalize_input;
    switch (spec.kind) {
        case fmt::nonlinearity::cos_sin:
            map.meta.output_convention = static_cast<std::uint32_t>(fmt::output_convention::paired_cos_sin);
            break;
        case fmt::nonlinearity::cos_phase:
            map.meta.output_convention = static_cast<std::uint32_t>(fmt::output_convention::cos_phase);
            map.meta.method = static_cast<std::uint32_t>(fmt::method::rff_phase);
            break;
        default:
            map.meta.output_convention = static_cast<std::uint32_t>(fmt::output_convention::real);
            map.meta.kernel = static_cast<std::uint32_t>(fmt::kernel::arccos);
            map.meta.kernel_order = 1;
            break;
    }

    map.sections.push_back(offline::make_f32_section(fmt::tag::dense, normals(std::size_t(spec.projection_dim) * work_dim, r, 0.8)));

    // Segments over [0, p) or [0, p/2) and [p/2, p); outputs follow each other.
    std::vector<fmt::feature_segment> segments;
    const std::uint32_t p = spec.projection_dim;
    const std::uint32_t first = spec.two_segments ? p / 2 : p;
    std::uint32_t out = 0, arg_total = 0;
    const bool two_blocks = spec.kind == fmt::nonlinearity::cos_sin || spec.reflect;
    for (std::uint32_t begin : {0u, first}) {
        const std::uint32_t count = begin == 0 ? first : p - first;
        if (count == 0) continue;
        fmt::feature_segment s = blank_segment();
        s.nonlinearity = static_cast<std::uint32_t>(spec.kind);
        s.flags = spec.reflect ? fmt::segment_flag_reflect : 0;
        s.proj_begin = begin;
        s.proj_count = count;
        s.arg_count = count * spec.passes;
        s.out_begin = out;
        s.scale = spec.scale * (begin == 0 ? 1.0f : 1.5f);
        s.weight = spec.weight * (begin == 0 ? 1.0f : 0.8f);
        if (spec.scale_array) s.scale_index = arg_total;
        if (spec.weight_array) s.weight_index = arg_total;
        if (spec.kind == fmt::nonlinearity::cos_phase) s.phase_index = arg_total;
        arg_total += s.arg_count;
        out += s.arg_count * (two_blocks ? 2 : 1);
        segments.push_back(s);
        if (!spec.two_segments) break;
    }
    map.sections.push_back(offline::make_segments_section(segments));
    if (spec.scale_array) map.sections.push_back(offline::make_f32_section(fmt::tag::scales, uniforms(arg_total, r, 0.5, 1.5)));
    if (spec.weight_array) map.sections.push_back(offline::make_f32_section(fmt::tag::weights, uniforms(arg_total, r, -1.0, 1.0)));
    if (spec.kind == fmt::nonlinearity::cos_phase)
        map.sections.push_back(offline::make_f32_section(fmt::tag::phases, uniforms(arg_total, r, 0.0, 6.283185307179586)));
    if (spec.constants > 0)
        map.sections.push_back(offline::make_f32_section(fmt::tag::constants, uniforms(spec.constants, r, -1.0, 1.0)));
    map.meta.output_dim = out + spec.constants;
    map.meta.negative_dim = spec.negative_dim;
    return map;
}

offline::map_contents make_product_map(const product_spec& spec) {
    offline::rng r(spec.seed);
    offline::map_contents map;
    map.meta = base_meta(spec.input_dim, spec.input_dim, spec.projection_dim);
    map.meta.method = static_cast<std::uint32_t>(fmt::method::maclaurin);
    map.meta.output_convention = static_cast<std::uint32_t>(fmt::output_convention::real);
    const std::uint32_t outputs = static_cast<std::uint32_t>(spec.group_offsets.size() - 1);
    map.meta.output_dim = outputs;
    map.sections.push_back(offline::make_f32_section(fmt::tag::dense, normals(std::size_t(spec.projection_dim) * spec.input_dim, r, 1.0)));
    fmt::feature_segment s = blank_segment();
    s.nonlinearity = static_cast<std::uint32_t>(fmt::nonlinearity::product);
    s.proj_count = spec.projection_dim;
    s.arg_count = outputs;
    s.group_index = 0;
    s.scale = 0.9f;
    s.weight = 1.25f;
    if (spec.scale_array) s.scale_index = 0;
    if (spec.weight_array) s.weight_index = 0;
    map.sections.push_back(offline::make_segments_section({s}));
    if (spec.scale_array) map.sections.push_back(offline::make_f32_section(fmt::tag::scales, uniforms(spec.projection_dim, r, 0.5, 1.5)));
    if (spec.weight_array) map.sections.push_back(offline::make_f32_section(fmt::tag::weights, uniforms(outputs, r, -1.0, 1.0)));
    map.sections.push_back(offline::make_u32_section(fmt::tag::groups, spec.group_offsets));
    return map;
}

file_buffer::file_buffer(const std::vector<std::uint8_t>& bytes)
    : words_((bytes.size() + 7) / 8 + 1, 0), size_(bytes.size()) {
    if (!bytes.empty()) std::memcpy(words_.data(), bytes.data(), bytes.size());
}

format::section_entry section_at(const std::vector<std::uint8_t>& bytes, std::uint32_t i) {
    format::section_entry e;
    std::memcpy(&e, bytes.data() + sizeof(format::file_header) + i * sizeof(format::section_entry), sizeof(e));
    return e;
}

void reseal_header(std::vector<std::uint8_t>& bytes) {
    format::file_header h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    h.header_crc = 0;
    std::memcpy(bytes.data(), &h, sizeof(h));
    const std::uint32_t crc = detail::crc32c(bytes.data(), h.header_bytes);
    std::memcpy(bytes.data() + offsetof(format::file_header, header_crc), &crc, sizeof(crc));
}

void reseal_section(std::vector<std::uint8_t>& bytes, std::uint32_t i) {
    format::section_entry e = section_at(bytes, i);
    e.checksum = detail::crc32c(bytes.data() + e.offset, static_cast<std::size_t>(e.bytes));
    std::memcpy(bytes.data() + sizeof(format::file_header) + i * sizeof(format::section_entry), &e, sizeof(e));
    reseal_header(bytes);
}

std::vector<double> reference_transform(const offline::map_contents& map, const std::vector<float>& x) {
    const fmt::map_meta& m = map.meta;
    if (m.projection != static_cast<std::uint32_t>(fmt::projection::dense))
        throw std::invalid_argument("reference_transform: dense maps only");
    std::vector<double> xw(m.work_dim, 0.0);
    double norm = 0.0;
    for (std::uint32_t i = 0; i < m.input_dim; ++i) norm += double(x[i]) * double(x[i]);
    norm = std::sqrt(norm);
    const bool normalize = (m.flags & fmt::meta_flag_normalize_input) != 0 && norm > 0.0;
    for (std::uint32_t i = 0; i < m.input_dim; ++i) xw[i] = normalize ? x[i] / norm : x[i];
    if (m.input_append != 0.0) xw[m.input_dim] = m.input_append;

    const auto dense = section_values<float>(map, fmt::tag::dense);
    std::vector<double> t(m.projection_dim, 0.0);
    for (std::uint32_t j = 0; j < m.projection_dim; ++j)
        for (std::uint32_t i = 0; i < m.work_dim; ++i) t[j] += double(dense[std::size_t(j) * m.work_dim + i]) * xw[i];

    const auto scales = section_values<float>(map, fmt::tag::scales);
    const auto weights = section_values<float>(map, fmt::tag::weights);
    const auto phases = section_values<float>(map, fmt::tag::phases);
    const auto constants = section_values<float>(map, fmt::tag::constants);
    const auto groups = section_values<std::uint32_t>(map, fmt::tag::groups);
    const auto segs = section_values<fmt::feature_segment>(map, fmt::tag::segments);

    std::vector<double> out(m.output_dim, 0.0);
    for (const auto& s : segs) {
        const auto kind = static_cast<fmt::nonlinearity>(s.nonlinearity);
        if (kind == fmt::nonlinearity::product) {
            for (std::uint32_t j = 0; j < s.arg_count; ++j) {
                double p = 1.0;
                for (std::uint32_t k = groups[s.group_index + j]; k < groups[s.group_index + j + 1]; ++k)
                    p *= (s.scale_index == fmt::no_index ? s.scale : scales[s.scale_index + k]) * t[s.proj_begin + k];
                const double w = double(s.weight) * (s.weight_index == fmt::no_index ? 1.0 : weights[s.weight_index + j]);
                out[s.out_begin + j] = w * p;
            }
            continue;
        }
        for (std::uint32_t i = 0; i < s.arg_count; ++i) {
            const double scale = s.scale_index == fmt::no_index ? s.scale : scales[s.scale_index + i];
            const double w = double(s.weight) * (s.weight_index == fmt::no_index ? 1.0 : weights[s.weight_index + i]);
            const double phase = s.phase_index == fmt::no_index ? 0.0 : phases[s.phase_index + i];
            const double a = scale * t[s.proj_begin + i % s.proj_count];
            out[s.out_begin + i] = w * apply_nonlinearity(kind, a, phase);
            if (kind == fmt::nonlinearity::cos_sin) out[s.out_begin + s.arg_count + i] = w * std::sin(a);
            if ((s.flags & fmt::segment_flag_reflect) != 0)
                out[s.out_begin + s.arg_count + i] = w * apply_nonlinearity(kind, -a, phase);
        }
    }
    for (std::size_t i = 0; i < constants.size(); ++i) out[m.output_dim - constants.size() + i] = constants[i];
    return out;
}

map open_or_fail(const file_buffer& buffer, isa requested) {
    map v;
    const status s = open(buffer.data(), buffer.size(), &v, requested);
    const std::string why = status_string(s);
    REQUIRE_MESSAGE(s == status::ok, why);
    return v;
}

std::vector<float> test_vector(std::uint32_t d, std::uint64_t seed) {
    offline::rng r(seed);
    std::vector<float> v(d);
    for (auto& e : v) e = static_cast<float>(2.0 * r.uniform() - 1.0);
    return v;
}

}  // namespace kfm::test
