// Every single-byte change and every truncation of a valid file is rejected with the status of the
// region it hits; thousands of random mutations (some with re-sealed checksums, to reach the deeper
// checks) never crash; version, endianness and alignment rules.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "common/test_maps.hpp"
#include "offline/random.hpp"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;

namespace {

// A small valid file with several kinds of sections and some padding.
std::vector<std::uint8_t> small_file() {
    dense_spec spec;
    spec.input_dim = 6;
    spec.projection_dim = 10;
    spec.kind = fmt::nonlinearity::relu;
    spec.reflect = true;
    spec.two_segments = true;
    spec.scale_array = true;
    spec.weight_array = true;
    spec.constants = 2;
    spec.negative_dim = 3;
    return kfm::offline::serialize(make_dense_map(spec));
}

status open_bytes(const std::vector<std::uint8_t>& bytes, std::size_t size, kfm::map* v) {
    const file_buffer buffer(bytes);
    return kfm::open(buffer.data(), size, v, kfm::isa::scalar);
}

enum class region { header, table, section, padding };

std::vector<region> regions_of(const std::vector<std::uint8_t>& bytes) {
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    std::vector<region> r(bytes.size(), region::padding);
    for (std::size_t i = 0; i < 64; ++i) r[i] = region::header;
    for (std::size_t i = 64; i < h.header_bytes; ++i) r[i] = region::table;
    for (std::uint32_t s = 0; s < h.section_count; ++s) {
        const auto e = section_at(bytes, s);
        for (std::size_t i = std::size_t(e.offset); i < std::size_t(e.offset + e.bytes); ++i) r[i] = region::section;
    }
    return r;
}

bool header_status(status s) {
    return s == status::bad_magic || s == status::unsupported_version || s == status::wrong_endianness ||
           s == status::bad_header || s == status::file_size_mismatch || s == status::header_checksum ||
           s == status::file_too_small;
}

}  // namespace

TEST_CASE("the small file is valid and has padding") {
    const auto bytes = small_file();
    kfm::map v;
    REQUIRE(open_bytes(bytes, bytes.size(), &v) == status::ok);
    const auto regions = regions_of(bytes);
    std::size_t padding = 0;
    for (auto r : regions) padding += r == region::padding;
    CHECK(padding > 0);
    CHECK(bytes.size() < 4096);
}

TEST_CASE("every single-byte change is rejected with its region's status, and the view is untouched") {
    const auto bytes = small_file();
    const auto regions = regions_of(bytes);
    const file_buffer original(bytes);
    file_buffer buffer(bytes);
    // A map already open on the intact copy: a failed open must leave every byte of it as it was.
    kfm::map opened;
    REQUIRE(kfm::open(original.data(), original.size(), &opened, kfm::isa::scalar) == status::ok);
    const kfm::map before = opened;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        // Vary the flipped bits with the position so every bit gets exercised somewhere.
        const auto mask = static_cast<std::uint8_t>(1u + (i * 37u) % 255u);
        buffer.data()[i] = static_cast<std::uint8_t>(bytes[i] ^ mask);
        const status s = kfm::open(buffer.data(), buffer.size(), &opened, kfm::isa::scalar);
        buffer.data()[i] = bytes[i];
        INFO("byte " << i << " status " << kfm::status_string(s));
        REQUIRE(s != status::ok);
        REQUIRE(std::memcmp(&opened, &before, sizeof opened) == 0);
        switch (regions[i]) {
            case region::header: REQUIRE(header_status(s)); break;
            case region::table: REQUIRE(s == status::header_checksum); break;
            case region::section: REQUIRE(s == status::section_checksum); break;
            case region::padding: REQUIRE(s == status::nonzero_padding); break;
        }
    }
    CHECK(std::memcmp(buffer.data(), original.data(), bytes.size()) == 0);
}

TEST_CASE("every truncation is rejected") {
    const auto bytes = small_file();
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        kfm::map v;
        const status s = open_bytes(bytes, size, &v);
        INFO("size " << size);
        REQUIRE(s == (size < 64 ? status::file_too_small : status::file_size_mismatch));
    }
    // Truncated bytes with a header patched to the shorter size still fail (missing sections or table).
    for (std::size_t size = 64; size < bytes.size(); size += 64) {
        auto cut = std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
        fmt::file_header h;
        std::memcpy(&h, cut.data(), sizeof(h));
        h.file_bytes = size;
        std::memcpy(cut.data(), &h, sizeof(h));
        if (h.header_bytes <= size) reseal_header(cut);
        kfm::map v;
        REQUIRE(open_bytes(cut, cut.size(), &v) != status::ok);
    }
}

TEST_CASE("random mutations never crash (raw and with re-sealed checksums)") {
    const auto bytes = small_file();
    const auto regions = regions_of(bytes);
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    kfm::offline::rng r(20261121);
    std::vector<float> out(4096), ws(4096);
    int opened = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        auto m = bytes;
        const bool reseal = trial % 2 == 1;
        const int changes = 1 + static_cast<int>(r.below(8));
        for (int c = 0; c < changes; ++c) {
            std::size_t at = static_cast<std::size_t>(r.below(m.size()));
            if (reseal) {
                // Only payload bytes, so the checks behind the checksums are exercised.
                while (regions[at] != region::section) at = static_cast<std::size_t>(r.below(m.size()));
            }
            m[at] = static_cast<std::uint8_t>(r.below(256));
        }
        if (reseal)
            for (std::uint32_t s = 0; s < h.section_count; ++s) reseal_section(m, s);
        kfm::map v;
        const file_buffer buffer(m);
        if (kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar) == status::ok) {
            ++opened;
            // Whatever passed verification must transform safely.
            const auto x = test_vector(v.input_dim(), static_cast<std::uint64_t>(trial));
            if (kfm::workspace_bytes(v) > ws.size() * sizeof(float) || v.output_dim() > out.size()) continue;
            (void)kfm::transform(v, x.data(), x.size(), out.data(), out.size(), ws.data(), ws.size() * sizeof(float));
        }
    }
    MESSAGE("mutated files that still verified (value changes inside sections): " << opened);
}

TEST_CASE("versions: a newer minor with an unknown section opens; an unknown major does not") {
    auto map = make_dense_map(dense_spec{});
    map.sections.push_back(kfm::offline::section{fmt::make_tag('N', 'E', 'W', '1'), fmt::dtype::u8, 5, {1, 2, 3, 4, 5}});
    auto bytes = kfm::offline::serialize(map);
    kfm::map v;
    CHECK(open_bytes(bytes, bytes.size(), &v) == status::bad_section_table);  // unknown tag in the current minor

    auto newer = bytes;
    const std::uint16_t minor = fmt::version_minor + 1;
    std::memcpy(newer.data() + offsetof(fmt::file_header, version_minor), &minor, 2);
    reseal_header(newer);
    CHECK(open_bytes(newer, newer.size(), &v) == status::ok);

    auto newer_plain = kfm::offline::serialize(make_dense_map(dense_spec{}));
    std::memcpy(newer_plain.data() + offsetof(fmt::file_header, version_minor), &minor, 2);
    reseal_header(newer_plain);
    CHECK(open_bytes(newer_plain, newer_plain.size(), &v) == status::ok);

    auto major2 = kfm::offline::serialize(make_dense_map(dense_spec{}));
    const std::uint16_t major = 2;
    std::memcpy(major2.data() + offsetof(fmt::file_header, version_major), &major, 2);
    reseal_header(major2);
    CHECK(open_bytes(major2, major2.size(), &v) == status::unsupported_version);
}

TEST_CASE("endianness, alignment, null arguments") {
    auto bytes = kfm::offline::serialize(make_dense_map(dense_spec{}));
    kfm::map v;
    auto swapped = bytes;
    const std::uint32_t other = 0x04030201u;
    std::memcpy(swapped.data() + offsetof(fmt::file_header, endian_tag), &other, 4);
    reseal_header(swapped);
    CHECK(open_bytes(swapped, swapped.size(), &v) == status::wrong_endianness);

    // The same valid bytes at an address that is not 8-byte aligned.
    std::vector<std::uint64_t> words(bytes.size() / 8 + 2);
    auto* shifted = reinterpret_cast<std::uint8_t*>(words.data()) + 4;
    std::memcpy(shifted, bytes.data(), bytes.size());
    CHECK(kfm::open(shifted, bytes.size(), &v) == status::misaligned_buffer);
    CHECK(kfm::open(reinterpret_cast<std::uint8_t*>(words.data()) + 8, bytes.size(), &v, kfm::isa::scalar) != status::ok);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    CHECK(kfm::open(words.data(), bytes.size(), &v, kfm::isa::scalar) == status::ok);

    CHECK(kfm::open(nullptr, bytes.size(), &v) == status::null_argument);
    CHECK(kfm::open(words.data(), bytes.size(), nullptr) == status::null_argument);
}
