// Writer/reader round trip: serialize -> open gives views equal to the inputs; the writer's layout
// (alignment, padding, checksums) follows docs/format.md; write_file_atomic leaves no partial file.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/test_maps.hpp"
#include "format/crc32c.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

template <class T>
bool view_equals(const T* view, std::uint64_t count, const kfm::offline::section& s) {
    return view != nullptr && count == s.count && std::memcmp(view, s.bytes.data(), s.bytes.size()) == 0;
}

// Every section of `contents` is attached by open, in place, with the count and bytes serialised.
void check_round_trip(const kfm::offline::map_contents& contents) {
    const file_buffer buffer(kfm::offline::serialize(contents));
    const kfm::map v = open_or_fail(buffer);
    const kfm::detail::map_state& st = *kfm::detail::state_of(v);
    CHECK(std::memcmp(st.meta, &contents.meta, sizeof(fmt::map_meta)) == 0);
    CHECK(v.input_dim() == contents.meta.input_dim);
    CHECK(v.output_dim() == contents.meta.output_dim);
    CHECK(v.negative_dim() == contents.meta.negative_dim);
    for (const auto& s : contents.sections) {
        INFO("section " << std::string(reinterpret_cast<const char*>(&s.tag), 4));
        switch (s.tag) {
            case fmt::tag::segments: CHECK(view_equals(st.segments, st.segment_count, s)); break;
            case fmt::tag::kernel_params: CHECK(view_equals(st.kernel_params, st.kernel_param_count, s)); break;
            case fmt::tag::dense: CHECK(view_equals(st.dense, st.dense_count, s)); break;
            case fmt::tag::scales: CHECK(view_equals(st.scales, st.scale_count, s)); break;
            case fmt::tag::weights: CHECK(view_equals(st.weights, st.weight_count, s)); break;
            case fmt::tag::phases: CHECK(view_equals(st.phases, st.phase_count, s)); break;
            case fmt::tag::constants: CHECK(view_equals(st.constants, st.constant_count, s)); break;
            case fmt::tag::signs: CHECK(view_equals(st.signs, st.sign_count, s)); break;
            case fmt::tag::indices: CHECK(view_equals(st.indices, st.index_count, s)); break;
            case fmt::tag::frequencies: CHECK(view_equals(st.frequencies, st.frequency_count, s)); break;
            case fmt::tag::twiddles: CHECK(view_equals(st.twiddles, st.twiddle_count, s)); break;
            case fmt::tag::butterfly: CHECK(view_equals(st.butterfly, st.butterfly_count, s)); break;
            case fmt::tag::permutation: CHECK(view_equals(st.permutation, st.permutation_count, s)); break;
            case fmt::tag::groups: CHECK(view_equals(st.groups, st.group_count, s)); break;
            default: FAIL("unexpected section");
        }
    }
    // Views point into the caller's buffer: no copy.
    CHECK(reinterpret_cast<const std::uint8_t*>(st.meta) >= buffer.data());
    CHECK(reinterpret_cast<const std::uint8_t*>(st.meta) < buffer.data() + buffer.size());
}

kfm::offline::build_options built(fmt::method method, fmt::kernel kernel, unsigned d, unsigned features) {
    kfm::offline::build_options o;
    o.method = method;
    o.kernel.kind = kernel;
    o.input_dim = d;
    o.features = features;
    o.seed = 5;
    return o;
}

}  // namespace

TEST_CASE("round trip: every section view equals what was serialised") {
    dense_spec spec;
    spec.kind = fmt::nonlinearity::cos_phase;
    spec.scale_array = spec.weight_array = true;
    spec.constants = 3;
    spec.negative_dim = 2;
    spec.passes = 2;
    check_round_trip(make_dense_map(spec));
    check_round_trip(make_product_map(product_spec{}));  // GRPS
    // The sections only structured projections carry, from the builders.
    check_round_trip(kfm::offline::build_map(built(fmt::method::ssf, fmt::kernel::gaussian, 6, 32)));        // SIGN FREQ TWID
    check_round_trip(kfm::offline::build_map(built(fmt::method::tensorsketch, fmt::kernel::polynomial_sphere, 5, 32)));  // INDX
    check_round_trip(kfm::offline::build_map(built(fmt::method::quadrature, fmt::kernel::gaussian, 5, 48)));  // BFLY PERM
}

TEST_CASE("bit sections are packed LSB first") {
    auto options = built(fmt::method::ssf, fmt::kernel::gaussian, 6, 32);
    options.radial_rule = "midpoint";  // one radius per direction: 16 sign bits (antithetic radii halve them)
    auto map = kfm::offline::build_map(options);
    for (auto& s : map.sections) {
        if (s.tag != fmt::tag::signs) continue;
        REQUIRE(s.count > 8);
        std::vector<bool> bits(std::size_t(s.count), false);
        bits[0] = bits[2] = bits[3] = bits[8] = true;
        s = kfm::offline::make_bits_section(fmt::tag::signs, bits);
    }
    const file_buffer buffer(kfm::offline::serialize(map));
    const kfm::map v = open_or_fail(buffer);
    CHECK(kfm::detail::state_of(v)->signs[0] == 0x0d);  // bits 0, 2, 3 set, LSB first
    CHECK(kfm::detail::state_of(v)->signs[1] == 0x01);
}

TEST_CASE("a section the map's projection does not read is refused") {
    for (const auto& extra : {kfm::offline::make_bits_section(fmt::tag::signs, {true, false, true}),
                              kfm::offline::make_u32_section(fmt::tag::indices, {7, 1, 2}),
                              kfm::offline::make_bits_section(fmt::tag::frequencies, {false, true, true, false}),
                              kfm::offline::make_f32_section(fmt::tag::twiddles, {1.0f, 0.0f}),
                              kfm::offline::make_f32_section(fmt::tag::butterfly, {1.0f, 0.0f}),
                              kfm::offline::make_u32_section(fmt::tag::permutation, {0, 1})}) {
        auto map = make_dense_map(dense_spec{});
        map.sections.push_back(extra);
        const file_buffer buffer(kfm::offline::serialize(map));
        kfm::map v;
        CHECK(kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar) == kfm::status::unexpected_section);
        CHECK(!v.is_open());
    }
}

TEST_CASE("writer layout: META first, 64-byte aligned sections, zero padding, valid checksums") {
    dense_spec spec;
    spec.constants = 1;
    const auto bytes = kfm::offline::serialize(make_dense_map(spec));
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    CHECK(std::memcmp(h.magic, fmt::magic, 8) == 0);
    CHECK(h.version_major == 1);
    CHECK(h.version_minor == 0);
    CHECK(h.file_bytes == bytes.size());
    CHECK(bytes.size() % 64 == 0);
    CHECK(h.header_bytes == 64 + 40 * h.section_count);
    CHECK(section_at(bytes, 0).tag == fmt::tag::meta);
    std::size_t cursor = h.header_bytes;
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const auto e = section_at(bytes, i);
        CHECK(e.offset % 64 == 0);
        CHECK(e.offset >= cursor);
        for (std::size_t b = cursor; b < e.offset; ++b) REQUIRE(bytes[b] == 0);
        CHECK(e.checksum == kfm::detail::crc32c(bytes.data() + e.offset, std::size_t(e.bytes)));
        cursor = std::size_t(e.offset + e.bytes);
    }
    for (std::size_t b = cursor; b < bytes.size(); ++b) REQUIRE(bytes[b] == 0);
}

TEST_CASE("serialize is deterministic and rejects inconsistent sections") {
    const auto map = make_dense_map(dense_spec{});
    CHECK(kfm::offline::serialize(map) == kfm::offline::serialize(map));
    auto bad = map;
    bad.sections[0].count += 1;  // count no longer matches the bytes
    CHECK_THROWS_AS(kfm::offline::serialize(bad), std::invalid_argument);
    auto with_meta = map;
    with_meta.sections.push_back(kfm::offline::section{fmt::tag::meta, fmt::dtype::record, 1, std::vector<std::uint8_t>(192)});
    CHECK_THROWS_AS(kfm::offline::serialize(with_meta), std::invalid_argument);
}

TEST_CASE("write_file_atomic writes the exact bytes and leaves nothing behind on failure") {
    const auto bytes = kfm::offline::serialize(make_dense_map(dense_spec{}));
    char dir_template[] = "/tmp/kfm_format_test_XXXXXX";
    const char* dir = ::mkdtemp(dir_template);
    REQUIRE(dir != nullptr);
    const std::string path = std::string(dir) + "/map.kfm";
    kfm::offline::write_file_atomic(path, bytes);
    kfm::offline::write_file_atomic(path, bytes);  // replacing an existing file works too
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(back == bytes);

    const std::string missing = std::string(dir) + "/no/such/dir/map.kfm";
    CHECK_THROWS_AS(kfm::offline::write_file_atomic(missing, bytes), std::runtime_error);
    // A directory in the way of the rename: the temporary must be removed.
    const std::string blocked = std::string(dir) + "/blocked";
    REQUIRE(::mkdir(blocked.c_str(), 0755) == 0);
    REQUIRE(::close(::open((blocked + "/inside").c_str(), O_CREAT | O_WRONLY, 0644)) == 0);
    CHECK_THROWS_AS(kfm::offline::write_file_atomic(blocked, bytes), std::runtime_error);
    std::remove((blocked + "/inside").c_str());
    ::rmdir(blocked.c_str());
    std::remove(path.c_str());
    CHECK(::rmdir(dir) == 0);  // fails if any temporary file was left
}
