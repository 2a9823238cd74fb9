// Container-level verification of a .kfm buffer: header fields, header CRC, section table geometry,
// dtypes and sizes, zero padding between and after sections, per-section CRC-32C, element rules, and
// which sections the projection may carry, all driven by the section table (section_table.hpp). Every offset and
// size test goes through format/checked.hpp so untrusted values cannot overflow.
#include <cmath>
#include <cstring>

#include "format/checked.hpp"
#include "format/crc32c.hpp"
#include "format/section_table.hpp"
#include "runtime/verify.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

// Element size of an array dtype; 0 for bits and record (sized differently) and for unknown values.
std::uint64_t element_bytes(std::uint32_t type) {
    switch (static_cast<fmt::dtype>(type)) {
        case fmt::dtype::u8:
        case fmt::dtype::i8: return 1;
        case fmt::dtype::u16: return 2;
        case fmt::dtype::u32: return 4;
        case fmt::dtype::i32: return 4;
        case fmt::dtype::f32: return 4;
        case fmt::dtype::f64: return 8;
        default: return 0;
    }
}

bool dtype_known(std::uint32_t type) { return type >= 1 && type <= 9; }

// bytes == the size implied by count and dtype (records of unknown tags: any size).
bool size_matches(const fmt::section_entry& e, const section_row* known) {
    const auto type = static_cast<fmt::dtype>(e.dtype);
    if (type == fmt::dtype::bits) return e.bytes == e.count / 8 + (e.count % 8 != 0 ? 1 : 0);
    std::uint64_t expected = 0;
    if (type == fmt::dtype::record) {
        if (known == nullptr) return true;
        return checked_mul(e.count, known->record_bytes, &expected) && expected == e.bytes;
    }
    return checked_mul(e.count, element_bytes(e.dtype), &expected) && expected == e.bytes;
}

bool all_zero(const std::uint8_t* p, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

status check_header(const fmt::file_header& h, std::size_t size) {
    if (std::memcmp(h.magic, fmt::magic, sizeof(fmt::magic)) != 0) return status::bad_magic;
    if (h.version_major != fmt::version_major) return status::unsupported_version;
    if (h.endian_tag != fmt::endian_tag) return status::wrong_endianness;
    if (h.section_count == 0 || h.section_count > fmt::max_sections) return status::bad_header;
    if (h.section_table_offset != sizeof(fmt::file_header)) return status::bad_header;
    if (h.header_bytes != sizeof(fmt::file_header) + sizeof(fmt::section_entry) * h.section_count)
        return status::bad_header;
    if (h.flags != 0 || !all_zero(h.reserved, sizeof(h.reserved))) return status::bad_header;
    if (h.file_bytes != size) return status::file_size_mismatch;
    if (h.header_bytes > h.file_bytes) return status::file_too_small;
    return status::ok;
}

// CRC of header (with header_crc read as zero) followed by the section table.
std::uint32_t header_crc(const std::uint8_t* bytes, std::uint32_t header_bytes) {
    constexpr std::size_t crc_at = offsetof(fmt::file_header, header_crc);
    const std::uint8_t zero[4] = {0, 0, 0, 0};
    std::uint32_t crc = crc32c(bytes, crc_at);
    crc = crc32c(zero, sizeof(zero), crc);
    return crc32c(bytes + crc_at + 4, header_bytes - (crc_at + 4), crc);
}

// Every element of a floating-point section marked finite is finite.
bool elements_ok(const section_row& row, const std::uint8_t* p, std::uint64_t count) {
    if (row.rule != element_rule::finite) return true;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (row.type == fmt::dtype::f64) {
            double v;
            std::memcpy(&v, p + 8 * i, sizeof v);
            if (!std::isfinite(v)) return false;
        } else {
            float v;
            std::memcpy(&v, p + 4 * i, sizeof v);
            if (!std::isfinite(v)) return false;
        }
    }
    return true;
}

}  // namespace

status verify_container(const std::uint8_t* bytes, std::size_t size, map_state* state) noexcept {
    const auto& h = *reinterpret_cast<const fmt::file_header*>(bytes);
    if (status s = check_header(h, size); s != status::ok) return s;
    if (header_crc(bytes, h.header_bytes) != h.header_crc) return status::header_checksum;

    const auto* table = reinterpret_cast<const fmt::section_entry*>(bytes + h.section_table_offset);
    const std::uint64_t file_bytes = h.file_bytes;

    // Geometry: aligned, after the table, inside the file, sorted and non-overlapping; known dtype and size.
    std::uint64_t previous_end = h.header_bytes;
    bool seen[max_section_rows] = {};
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const fmt::section_entry& e = table[i];
        if (e.reserved != 0 || !dtype_known(e.dtype)) return status::bad_section_table;
        if (!is_aligned(e.offset, fmt::section_alignment) || e.offset < previous_end)
            return status::bad_section_table;
        if (!range_inside(e.offset, e.bytes, file_bytes)) return status::bad_section_table;
        const section_row* known = find_section(e.tag);
        if (known == nullptr) {
            // Sections from a newer minor version are skipped; in the current minor they are errors.
            if (h.version_minor <= fmt::version_minor) return status::bad_section_table;
        } else {
            if (static_cast<std::uint32_t>(known->type) != e.dtype) return status::bad_section_table;
            if (known->since_minor > h.version_minor) return status::bad_section_table;
            const std::size_t k = static_cast<std::size_t>(known->id);
            if (seen[k]) return status::missing_section;
            seen[k] = true;
        }
        if (!size_matches(e, known)) return status::bad_section_table;
        previous_end = e.offset + e.bytes;
    }

    // Every byte not covered by the header, the table or a section is zero (the tail included).
    std::uint64_t cursor = h.header_bytes;
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        if (!all_zero(bytes + cursor, table[i].offset - cursor)) return status::nonzero_padding;
        cursor = table[i].offset + table[i].bytes;
    }
    if (!all_zero(bytes + cursor, file_bytes - cursor)) return status::nonzero_padding;

    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const fmt::section_entry& e = table[i];
        if (crc32c(bytes + e.offset, static_cast<std::size_t>(e.bytes)) != e.checksum)
            return status::section_checksum;
    }

    // META (one record) and SEGS are required by every map; the rest depends on the projection kind.
    if (!seen[static_cast<std::size_t>(section::meta)] || !seen[static_cast<std::size_t>(section::segments)])
        return status::missing_section;
    map_state s;
    s.attach_file(bytes);
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const fmt::section_entry& e = table[i];
        const section_row* row = find_section(e.tag);
        if (row == nullptr) continue;  // a newer minor version's section (checked above)
        if (e.tag == fmt::tag::meta && e.count != 1) return status::bad_section_size;
        if (e.tag == fmt::tag::segments && (e.count == 0 || e.count > UINT32_MAX)) return status::bad_section_size;
        if (!elements_ok(*row, bytes + e.offset, e.count)) return status::bad_parameter_value;
        s.attach(row->id, bytes + e.offset, i);
    }
    // Only the sections the map's projection reads (an unknown projection is reported by verify_map).
    const std::uint32_t kind = s.meta->projection;
    if (kind < 32) {
        for (std::uint32_t i = 0; i < h.section_count; ++i) {
            const section_row* row = find_section(table[i].tag);
            if (row != nullptr && (row->projections & (1u << kind)) == 0) return status::unexpected_section;
        }
    }
    *state = s;
    return status::ok;
}

}  // namespace kfm::detail
