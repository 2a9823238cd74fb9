// Test helpers shared by the suites: small valid maps built directly with map_contents + serialize
// (independent of the method builders), an 8-byte aligned file buffer, header/section re-sealing for
// tests that edit files on purpose, and a plain double-precision reference of the runtime pipeline.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

namespace kfm::test {

// A dense-projection map: t = W x_work, then one or two feature segments, then constants.
struct dense_spec {
    std::uint32_t input_dim = 5;
    std::uint32_t projection_dim = 8;
    std::uint32_t pad = 0;              // extra zero entries in work_dim after the input
    double input_append = 0.0;          // appended after the input (adds one work_dim slot)
    bool normalize = false;             // meta_flag_normalize_input
    format::nonlinearity kind = format::nonlinearity::cos_sin;
    bool reflect = false;               // segment_flag_reflect (real nonlinearities)
    std::uint32_t passes = 1;           // arg_count = passes * proj_count
    bool two_segments = false;          // split the projections into two segments
    bool scale_array = false;           // per-argument scales (else the scalar `scale`)
    bool weight_array = false;          // per-argument weights (multiplied by the scalar `weight`)
    float scale = 0.75f;
    float weight = 0.5f;
    std::uint32_t constants = 0;        // constant features at the end
    std::uint32_t negative_dim = 0;
    std::uint64_t seed = 1;
};

// Product (Random Maclaurin style) map: dense projection, one product segment over `groups` groups.
struct product_spec {
    std::uint32_t input_dim = 4;
    std::uint32_t projection_dim = 9;
    std::vector<std::uint32_t> group_offsets = {0, 1, 3, 3, 6, 9};  // arg_count + 1 offsets
    bool scale_array = true;
    bool weight_array = true;
    std::uint64_t seed = 3;
};

offline::map_contents make_dense_map(const dense_spec& spec);
offline::map_contents make_product_map(const product_spec& spec);

// Owns file bytes at an 8-byte aligned address (std::vector<uint8_t> does not promise that).
class file_buffer {
public:
    file_buffer() = default;
    explicit file_buffer(const std::vector<std::uint8_t>& bytes);
    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(words_.data()); }
    const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(words_.data()); }
    std::size_t size() const { return size_; }

private:
    std::vector<std::uint64_t> words_;
    std::size_t size_ = 0;
};

// Recomputes the header CRC after an intentional edit of the header or table.
void reseal_header(std::vector<std::uint8_t>& bytes);
// Recomputes section i's CRC (and then the header CRC) after an intentional edit of its payload.
void reseal_section(std::vector<std::uint8_t>& bytes, std::uint32_t i);
// The table entry of section i.
format::section_entry section_at(const std::vector<std::uint8_t>& bytes, std::uint32_t i);

// The full pipeline in double precision, read from map_contents (not from the runtime's view).
std::vector<double> reference_transform(const offline::map_contents& map, const std::vector<float>& x);

// A view opened from `buffer` (fails the current test on a non-ok status).
map open_or_fail(const file_buffer& buffer, isa requested = isa::scalar);

// Deterministic test vectors in [-1, 1).
std::vector<float> test_vector(std::uint32_t d, std::uint64_t seed);

// The values of the section `tag` of an in-memory map as T (f32 / u32 / record sections); empty when the
// map has no such section.
template <class T>
std::vector<T> section_values(const offline::map_contents& map, std::uint32_t tag) {
    for (const auto& s : map.sections)
        if (s.tag == tag) {
            std::vector<T> v(s.bytes.size() / sizeof(T));
            if (!v.empty()) std::memcpy(v.data(), s.bytes.data(), v.size() * sizeof(T));
            return v;
        }
    return {};
}

// A maclaurin-opt map's sketched features per degree, features[k - 2] for k = 2 .. the largest degree it
// keeps: its block product segments' counts, each of degree proj_count / block_size.
inline std::vector<std::uint32_t> sketched_features_per_degree(const offline::map_contents& map) {
    std::vector<std::uint32_t> features;
    for (const format::feature_segment& s : section_values<format::feature_segment>(map, format::tag::segments)) {
        if ((s.flags & format::segment_flag_block_product) == 0) continue;
        const std::uint32_t degree = s.proj_count / map.meta.block_size;
        if (features.size() < degree - 1) features.resize(degree - 1, 0);
        features[degree - 2] += s.arg_count;
    }
    return features;
}

// The largest degree a maclaurin-opt map sketches (1 when it sketches none).
inline unsigned largest_sketched_degree(const offline::map_contents& map) {
    return unsigned(sketched_features_per_degree(map).size()) + 1;
}

}  // namespace kfm::test
