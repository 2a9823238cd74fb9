// Typed section constructors for map_contents (the writer stores raw little-endian bytes), and the
// feature-parameter helpers of offline/methods/sections.hpp.
#include "offline/methods/sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kfm/offline.hpp"
#include "offline/sampling/random.hpp"

namespace kfm::offline {
namespace {

template <class T>
section make_array_section(std::uint32_t tag, format::dtype type, const std::vector<T>& values) {
    section s;
    s.tag = tag;
    s.type = type;
    s.count = values.size();
    s.bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(s.bytes.data(), values.data(), s.bytes.size());
    return s;
}

}  // namespace

section make_f32_section(std::uint32_t tag, const std::vector<float>& values) {
    return make_array_section(tag, format::dtype::f32, values);
}

section make_f64_section(std::uint32_t tag, const std::vector<double>& values) {
    return make_array_section(tag, format::dtype::f64, values);
}

section make_u32_section(std::uint32_t tag, const std::vector<std::uint32_t>& values) {
    return make_array_section(tag, format::dtype::u32, values);
}

section make_bits_section(std::uint32_t tag, const std::vector<bool>& bits) {
    section s;
    s.tag = tag;
    s.type = format::dtype::bits;
    s.count = bits.size();
    s.bytes.assign((bits.size() + 7) / 8, 0);
    for (std::size_t i = 0; i < bits.size(); ++i)
        if (bits[i]) s.bytes[i / 8] = static_cast<std::uint8_t>(s.bytes[i / 8] | (1u << (i % 8)));
    return s;
}

format::feature_segment make_segment(format::nonlinearity kind, std::uint32_t proj_begin, std::uint32_t count,
                                     std::uint32_t out_begin, float scale, float weight) {
    format::feature_segment seg{};
    seg.nonlinearity = static_cast<std::uint32_t>(kind);
    seg.proj_begin = proj_begin;
    seg.proj_count = count;
    seg.arg_count = count;
    seg.out_begin = out_begin;
    seg.scale_index = format::no_index;
    seg.weight_index = format::no_index;
    seg.phase_index = format::no_index;
    seg.group_index = format::no_index;
    seg.scale = scale;
    seg.weight = weight;
    return seg;
}

section make_segments_section(const std::vector<format::feature_segment>& segments) {
    section s;
    s.tag = format::tag::segments;
    s.type = format::dtype::record;
    s.count = segments.size();
    s.bytes.resize(segments.size() * sizeof(format::feature_segment));
    if (!segments.empty()) std::memcpy(s.bytes.data(), segments.data(), s.bytes.size());
    return s;
}

int homogeneity_degree(format::nonlinearity kind) noexcept {
    switch (kind) {
        case format::nonlinearity::step: return 0;
        case format::nonlinearity::relu:
        case format::nonlinearity::identity: return 1;
        case format::nonlinearity::relu2: return 2;
        default: return -1;
    }
}

bool fold_scales_into_weights(format::nonlinearity kind, const std::vector<double>& scales,
                              std::vector<double>& weights) {
    const int b = homogeneity_degree(kind);
    if (b < 0 || scales.size() != weights.size()) return false;
    for (double s : scales)
        if (!(s > 0.0 && std::isfinite(s))) return false;
    for (std::size_t i = 0; i < weights.size(); ++i)
        for (int k = 0; k < b; ++k) weights[i] *= scales[i];
    return true;
}

bool same_f32(const std::vector<double>& values, float* common) noexcept {
    if (values.empty()) return false;
    const float first = static_cast<float>(values[0]);
    for (double v : values)
        if (static_cast<float>(v) != first) return false;
    *common = first;
    return true;
}

std::uint32_t append_block_product_passes(std::uint32_t features, std::uint32_t degree, std::uint32_t d2, float weight,
                                          std::uint32_t first_block, std::uint32_t out_begin,
                                          std::vector<format::feature_segment>& segments, pass_blocks sharing) {
    const std::uint32_t step = sharing == pass_blocks::chained ? 1 : degree;
    std::uint32_t block = first_block;
    for (std::uint32_t done = 0; done < features; done += d2) {
        format::feature_segment s = make_segment(format::nonlinearity::product, block * d2, degree * d2, out_begin + done,
                                                 float(std::sqrt(double(d2))), weight);
        s.arg_count = std::min(d2, features - done);
        s.flags = format::segment_flag_block_product;
        segments.push_back(s);
        block += step;
    }
    return block - first_block;
}

std::vector<bool> random_block_signs(std::uint64_t blocks, std::uint32_t d2, rng& r) {
    const std::uint32_t stride = format::hadamard_sign_stride(d2);
    std::vector<bool> signs(std::size_t(blocks) * stride, false);
    for (std::uint64_t b = 0; b < blocks; ++b)
        for (std::uint32_t j = 0; j < d2; ++j) signs[std::size_t(b) * stride + j] = r.rademacher() < 0;
    return signs;
}

}  // namespace kfm::offline
