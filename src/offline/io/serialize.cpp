// The v1 writer: header, section table, META then the given sections at 64-byte aligned offsets with
// zero padding, per-section CRC-32C and the header CRC over header (crc field zeroed) plus table.
// docs/format.md is the specification this must match byte for byte. write_map_file is the one way a
// map reaches the disk: it runs the runtime's own verifier on the bytes before writing them.
#include <cstring>
#include <stdexcept>
#include <string>

#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"
#include "format/crc32c.hpp"
#include "format/section_table.hpp"

namespace kfm::offline {
namespace {

std::uint64_t align_up(std::uint64_t v) {
    const std::uint64_t a = format::section_alignment;
    return (v + a - 1) / a * a;
}

std::string tag_text(std::uint32_t tag) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += static_cast<char>((tag >> (8 * i)) & 0xffu);
    return s;
}

// The payload size implied by dtype and count (records: the known record sizes, else whatever is given).
void check_section(const section& s) {
    std::uint64_t expected = s.bytes.size();
    switch (s.type) {
        case format::dtype::u8:
        case format::dtype::i8: expected = s.count; break;
        case format::dtype::u16: expected = s.count * 2; break;
        case format::dtype::u32:
        case format::dtype::i32:
        case format::dtype::f32: expected = s.count * 4; break;
        case format::dtype::f64: expected = s.count * 8; break;
        case format::dtype::bits: expected = (s.count + 7) / 8; break;
        case format::dtype::record:
            if (s.tag == format::tag::segments) expected = s.count * sizeof(format::feature_segment);
            if (s.tag == format::tag::task) expected = s.count * sizeof(format::model_task);
            break;
        default: throw std::invalid_argument("section " + tag_text(s.tag) + ": unknown dtype");
    }
    if (expected != s.bytes.size())
        throw std::invalid_argument("section " + tag_text(s.tag) + ": byte size does not match its count");
    if (s.tag == format::tag::meta) throw std::invalid_argument("META is written from map_contents::meta");
}

}  // namespace

std::vector<std::uint8_t> serialize(const map_contents& map) {
    const std::size_t section_count = map.sections.size() + 1;
    if (section_count > format::max_sections) throw std::invalid_argument("too many sections");
    for (const section& s : map.sections) check_section(s);

    // Lay out: header, table, then each payload at the next aligned offset.
    std::vector<format::section_entry> table(section_count);
    const std::uint32_t header_bytes =
        static_cast<std::uint32_t>(sizeof(format::file_header) + section_count * sizeof(format::section_entry));
    std::uint64_t cursor = header_bytes;
    auto place = [&](std::size_t i, std::uint32_t tag, format::dtype type, std::uint64_t count,
                     const std::uint8_t* data, std::size_t bytes) {
        format::section_entry& e = table[i];
        e = format::section_entry{};
        e.tag = tag;
        e.dtype = static_cast<std::uint32_t>(type);
        e.offset = align_up(cursor);
        e.bytes = bytes;
        e.count = count;
        e.checksum = detail::crc32c(data, bytes);
        cursor = e.offset + bytes;
    };
    place(0, format::tag::meta, format::dtype::record, 1, reinterpret_cast<const std::uint8_t*>(&map.meta),
          sizeof(format::map_meta));
    for (std::size_t i = 0; i < map.sections.size(); ++i) {
        const section& s = map.sections[i];
        place(i + 1, s.tag, s.type, s.count, s.bytes.data(), s.bytes.size());
    }
    const std::uint64_t file_bytes = align_up(cursor);

    std::vector<std::uint8_t> out(static_cast<std::size_t>(file_bytes), 0);
    format::file_header h{};
    std::memcpy(h.magic, format::magic, sizeof(h.magic));
    h.version_major = format::version_major;
    // The oldest minor that knows every section, so a plain map stays readable by 1.0 readers.
    h.version_minor = 0;
    for (const section& s : map.sections) {
        const std::uint16_t since = detail::section_since_minor(s.tag);
        if (since > h.version_minor) h.version_minor = since;
    }
    h.endian_tag = format::endian_tag;
    h.header_bytes = header_bytes;
    h.flags = 0;
    h.file_bytes = file_bytes;
    h.section_count = static_cast<std::uint32_t>(section_count);
    h.section_table_offset = sizeof(format::file_header);
    h.header_crc = 0;
    std::memcpy(out.data(), &h, sizeof(h));
    std::memcpy(out.data() + sizeof(h), table.data(), table.size() * sizeof(format::section_entry));

    std::memcpy(out.data() + table[0].offset, &map.meta, sizeof(format::map_meta));
    for (std::size_t i = 0; i < map.sections.size(); ++i) {
        const section& s = map.sections[i];
        if (!s.bytes.empty()) std::memcpy(out.data() + table[i + 1].offset, s.bytes.data(), s.bytes.size());
    }
    h.header_crc = detail::crc32c(out.data(), header_bytes);
    std::memcpy(out.data() + offsetof(format::file_header, header_crc), &h.header_crc, sizeof(h.header_crc));
    return out;
}

// kfm::open needs 8-byte aligned bytes; a vector's storage comes from the default operator new.
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 8, "std::vector<std::uint8_t> storage is 8-byte aligned");

std::vector<std::uint8_t> serialize_verified(const map_contents& map) {
    std::vector<std::uint8_t> bytes = serialize(map);
    kfm::map view;
    const kfm::status s = kfm::open(bytes.data(), bytes.size(), &view);
    if (s != kfm::status::ok)
        throw std::invalid_argument(std::string("the map was not written: kfm::open would refuse it (") +
                                    kfm::status_string(s) + ")");
    return bytes;
}

void write_map_file(const std::string& path, const map_contents& map) {
    write_file_atomic(path, serialize_verified(map));
}

}  // namespace kfm::offline
