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
#include "runtime/crc32c.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

template <class T>
bool view_equals(const T* view, std::uint64_t count, const kfm::offline::section& s) {
    return view != nullptr && count == s.count && std::memcmp(view, s.bytes.data(), s.bytes.size()) == 0;
}

}  // namespace

TEST_CASE("round trip: every section view equals what was serialised") {
    dense_spec spec;
    spec.kind = fmt::nonlinearity::cos_phase;
    spec.scale_array = spec.weight_array = true;
    spec.constants = 3;
    spec.negative_dim = 2;
    spec.passes = 2;
    auto map = make_dense_map(spec);
    map.sections.push_back(kfm::offline::make_bits_section(fmt::tag::signs, {true, false, true, true, false, false, false, false, true}));
    map.sections.push_back(kfm::offline::make_u32_section(fmt::tag::indices, {7, 1, 2}));
    map.sections.push_back(kfm::offline::make_bits_section(fmt::tag::frequencies, {false, true, true, false, true}));
    const file_buffer buffer(kfm::offline::serialize(map));
    const kfm::map_view v = open_or_fail(buffer);

    CHECK(std::memcmp(v.meta, &map.meta, sizeof(fmt::map_meta)) == 0);
    CHECK(v.input_dim() == spec.input_dim);
    CHECK(v.output_dim() == map.meta.output_dim);
    CHECK(v.negative_dim() == 2);
    for (const auto& s : map.sections) {
        switch (s.tag) {
            case fmt::tag::dense: CHECK(view_equals(v.dense, v.dense_count, s)); break;
            case fmt::tag::scales: CHECK(view_equals(v.scales, v.scale_count, s)); break;
            case fmt::tag::weights: CHECK(view_equals(v.weights, v.weight_count, s)); break;
            case fmt::tag::phases: CHECK(view_equals(v.phases, v.phase_count, s)); break;
            case fmt::tag::constants: CHECK(view_equals(v.constants, v.constant_count, s)); break;
            case fmt::tag::signs: CHECK(view_equals(v.signs, v.sign_count, s)); break;
            case fmt::tag::indices: CHECK(view_equals(v.indices, v.index_count, s)); break;
            case fmt::tag::frequencies: CHECK(view_equals(v.frequencies, v.frequency_count, s)); break;
            case fmt::tag::segments: CHECK(view_equals(v.segments, v.segment_count, s)); break;
            default: FAIL("unexpected section");
        }
    }
    CHECK(v.signs[0] == 0x0d);  // bits 0, 2, 3 set, LSB first
    CHECK(v.signs[1] == 0x01);
    CHECK(v.frequencies[0] == 0x16);  // bits 1, 2, 4
    // Views point into the caller's buffer: no copy.
    CHECK(reinterpret_cast<const std::uint8_t*>(v.meta) >= buffer.data());
    CHECK(reinterpret_cast<const std::uint8_t*>(v.meta) < buffer.data() + buffer.size());
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
