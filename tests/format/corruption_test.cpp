// Every single-byte change and every truncation of a valid file is rejected with the status of the
// region it hits, in one map of every projection kind carrying every section type (builder_configs);
// thousands of random mutations (some with re-sealed checksums, to reach the deeper checks) are refused
// without touching the map, or open and transform without writing outside the output and workspace;
// version, endianness and alignment rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/builder_configs.hpp"
#include "common/test_maps.hpp"
#include "common/test_models.hpp"
#include "offline/sampling/random.hpp"
#include "format/section_table.hpp"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;

namespace {

struct sample_file {
    std::string label;
    std::vector<std::uint8_t> bytes;
};

// A small valid dense file with several kinds of sections and some padding.
std::vector<std::uint8_t> small_dense_file() {
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

std::vector<std::uint32_t> tags_of(const std::vector<std::uint8_t>& bytes) {
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    std::vector<std::uint32_t> tags;
    for (std::uint32_t s = 0; s < h.section_count; ++s) tags.push_back(section_at(bytes, s).tag);
    std::sort(tags.begin(), tags.end());
    return tags;
}

// The dense file plus the first small builder map of each (projection, section set) pair: every
// projection kind and every section type, about 1 KB each. SRF is left out: its sections and projections
// all occur in other maps, and its surrogate fit takes seconds (minutes under qemu).
const std::vector<sample_file>& sample_files() {
    static const std::vector<sample_file> files = [] {
        std::vector<sample_file> out{{"dense (test_maps)", small_dense_file()}};
        // A multiclass model file: PREP, TASK, HEAD, BIAS, LABL and LTYP (labels trained as int64) on a
        // small dense map.
        dense_spec model;
        model.input_dim = 4;
        model.projection_dim = 6;
        kfm::offline::map_contents multiclass = make_dense_map(model);
        kfm::offline::add_preprocessing(multiclass, make_test_scaling(model.input_dim));
        kfm::offline::linear_head head = make_test_head(multiclass, fmt::task_kind::multiclass, 3);
        head.label_type = fmt::label_type::i64;
        kfm::offline::add_head(multiclass, head);
        out.push_back({"multiclass model (test_models)", kfm::offline::serialize(multiclass)});
        // A regression model with the int8 head (HDI8, HSCL in place of HEAD).
        out.push_back({"int8-head model (test_models)",
                       kfm::offline::serialize(make_test_model(model, fmt::task_kind::regression, 2, true,
                                                               kfm::offline::head_dtype::int8))});
        std::set<std::pair<std::uint32_t, std::vector<std::uint32_t>>> seen;
        for (const auto& config : builder_configs(6, 16)) {
            if (config.options.method == fmt::method::srf) continue;
            const auto map = kfm::offline::build_map(config.options);
            auto bytes = kfm::offline::serialize(map);
            if (seen.insert({map.meta.projection, tags_of(bytes)}).second) out.push_back({config.label, std::move(bytes)});
        }
        return out;
    }();
    return files;
}

// The status of opening `bytes`. The map it fills borrows a copy that is gone on return: use only the
// status and the map's bytes (memcmp), never its accessors.
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

TEST_CASE("the sample files are valid, small, and cover every projection kind and section type") {
    std::set<std::uint32_t> projections, tags;
    bool padding_seen = false;
    for (const auto& f : sample_files()) {
        INFO(f.label);
        const file_buffer buffer(f.bytes);  // alive while v is read
        kfm::map v;
        REQUIRE(kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar) == status::ok);
        CHECK(f.bytes.size() < 4096);
        projections.insert(static_cast<std::uint32_t>(v.projection()));
        for (std::uint32_t t : tags_of(f.bytes)) tags.insert(t);
        for (auto r : regions_of(f.bytes)) padding_seen = padding_seen || r == region::padding;
    }
    MESSAGE(sample_files().size() << " sample files");
    CHECK(padding_seen);
    for (std::uint32_t p = 1; p <= static_cast<std::uint32_t>(fmt::projection::kernel_landmarks); ++p) {
        INFO("projection " << p);
        CHECK(projections.count(p) == 1);
    }
    std::size_t known = 0;
    for (std::uint32_t t : tags) known += kfm::detail::find_section(t) != nullptr;
    CHECK(known == kfm::detail::section_row_count());
}

TEST_CASE("every single-byte change is rejected with its region's status, and the view is untouched") {
    for (const auto& f : sample_files()) {
        const auto& bytes = f.bytes;
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
            INFO(f.label << ": byte " << i << " status " << kfm::status_string(s));
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
}

TEST_CASE("every truncation is rejected") {
    for (const auto& f : sample_files()) {
        const auto& bytes = f.bytes;
        INFO(f.label);
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
            INFO("patched size " << size);
            REQUIRE(open_bytes(cut, cut.size(), &v) != status::ok);
        }
    }
}

// Raw mutations (checksums left stale) must all be refused; re-sealed ones reach the checks behind the
// checksums and may open. A refused open leaves the map as it was; a map that opens transforms with
// status ok and writes nothing past its output_dim outputs and workspace_bytes of workspace.
TEST_CASE("random mutations are refused, or open and transform within their buffers") {
    const auto& files = sample_files();
    kfm::offline::rng r(20261121);
    constexpr float sentinel = -12345.0f;
    int opened = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const auto& f = files[std::size_t(trial) % files.size()];
        const auto& bytes = f.bytes;
        const auto regions = regions_of(bytes);
        fmt::file_header h;
        std::memcpy(&h, bytes.data(), sizeof(h));
        auto m = bytes;
        const bool reseal = (trial / files.size()) % 2 == 1;
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
        if (m == bytes) continue;  // every drawn byte equalled the original

        kfm::map previous;
        REQUIRE(open_bytes(bytes, bytes.size(), &previous) == status::ok);
        kfm::map v = previous;
        const file_buffer buffer(m);
        const status s = kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar);
        INFO(f.label << ": trial " << trial << (reseal ? " (re-sealed)" : " (raw)") << " status "
                     << kfm::status_string(s));
        if (!reseal) REQUIRE(s != status::ok);
        if (s != status::ok) {
            ++refused;
            REQUIRE(std::memcmp(&v, &previous, sizeof v) == 0);
            continue;
        }
        ++opened;
        const auto x = test_vector(v.input_dim(), static_cast<std::uint64_t>(trial));
        const std::size_t ws_floats = kfm::workspace_bytes(v) / sizeof(float) + 1;
        std::vector<float> out(std::size_t(v.output_dim()) + 16, sentinel), ws(ws_floats + 16, sentinel);
        REQUIRE(kfm::transform(v, x.data(), x.size(), out.data(), v.output_dim(), ws.data(),
                               ws_floats * sizeof(float)) == status::ok);
        for (std::size_t i = v.output_dim(); i < out.size(); ++i) REQUIRE(out[i] == sentinel);
        for (std::size_t i = ws_floats; i < ws.size(); ++i) REQUIRE(ws[i] == sentinel);
    }
    MESSAGE("mutated files refused " << refused << ", re-sealed ones that still verified (value changes inside "
                                     << "sections) " << opened);
    CHECK(refused > 0);
    CHECK(opened > 0);
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
