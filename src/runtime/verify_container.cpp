// Container-level verification of a .kfm buffer: header fields, header CRC, section table geometry,
// dtypes and sizes, zero padding between and after sections, and per-section CRC-32C. Every offset and
// size test goes through runtime/checked.hpp so untrusted values cannot overflow.
#include <cstring>

#include "runtime/checked.hpp"
#include "runtime/crc32c.hpp"
#include "runtime/verify.hpp"

namespace kfm::detail {
namespace {

namespace fmt = kfm::format;

// How a known tag is stored and where its view goes.
struct known_section {
    std::uint32_t tag;
    fmt::dtype type;
    std::uint32_t record_bytes;  // for dtype::record only
};

constexpr known_section known_sections[] = {
    {fmt::tag::meta, fmt::dtype::record, sizeof(fmt::map_meta)},
    {fmt::tag::segments, fmt::dtype::record, sizeof(fmt::feature_segment)},
    {fmt::tag::kernel_params, fmt::dtype::f64, 0},
    {fmt::tag::dense, fmt::dtype::f32, 0},
    {fmt::tag::scales, fmt::dtype::f32, 0},
    {fmt::tag::weights, fmt::dtype::f32, 0},
    {fmt::tag::phases, fmt::dtype::f32, 0},
    {fmt::tag::constants, fmt::dtype::f32, 0},
    {fmt::tag::signs, fmt::dtype::bits, 0},
    {fmt::tag::indices, fmt::dtype::u32, 0},
    {fmt::tag::frequencies, fmt::dtype::bits, 0},
    {fmt::tag::twiddles, fmt::dtype::f32, 0},
    {fmt::tag::butterfly, fmt::dtype::f32, 0},
    {fmt::tag::permutation, fmt::dtype::u32, 0},
    {fmt::tag::groups, fmt::dtype::u32, 0},
};
constexpr std::size_t known_count = sizeof(known_sections) / sizeof(known_sections[0]);

const known_section* find_known(std::uint32_t tag) {
    for (const auto& k : known_sections)
        if (k.tag == tag) return &k;
    return nullptr;
}

// Element size of an array dtype; 0 for bits and record (sized differently) and for unknown values.
std::uint64_t element_bytes(std::uint32_t type) {
    switch (static_cast<fmt::dtype>(type)) {
        case fmt::dtype::u8: return 1;
        case fmt::dtype::u16: return 2;
        case fmt::dtype::u32: return 4;
        case fmt::dtype::i32: return 4;
        case fmt::dtype::f32: return 4;
        case fmt::dtype::f64: return 8;
        default: return 0;
    }
}

bool dtype_known(std::uint32_t type) { return type >= 1 && type <= 8; }

// bytes == the size implied by count and dtype (records of unknown tags: any size).
bool size_matches(const fmt::section_entry& e, const known_section* known) {
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

// Points the view member for `tag` at the payload.
void attach(map_view* v, std::uint32_t tag, const std::uint8_t* p, std::uint64_t count) {
    switch (tag) {
        case fmt::tag::meta: v->meta = reinterpret_cast<const fmt::map_meta*>(p); break;
        case fmt::tag::segments:
            v->segments = reinterpret_cast<const fmt::feature_segment*>(p);
            v->segment_count = static_cast<std::uint32_t>(count);
            break;
        case fmt::tag::kernel_params:
            v->kernel_params = reinterpret_cast<const double*>(p);
            v->kernel_param_count = count;
            break;
        case fmt::tag::dense:
            v->dense = reinterpret_cast<const float*>(p);
            v->dense_count = count;
            break;
        case fmt::tag::scales:
            v->scales = reinterpret_cast<const float*>(p);
            v->scale_count = count;
            break;
        case fmt::tag::weights:
            v->weights = reinterpret_cast<const float*>(p);
            v->weight_count = count;
            break;
        case fmt::tag::phases:
            v->phases = reinterpret_cast<const float*>(p);
            v->phase_count = count;
            break;
        case fmt::tag::constants:
            v->constants = reinterpret_cast<const float*>(p);
            v->constant_count = count;
            break;
        case fmt::tag::signs:
            v->signs = p;
            v->sign_count = count;
            break;
        case fmt::tag::indices:
            v->indices = reinterpret_cast<const std::uint32_t*>(p);
            v->index_count = count;
            break;
        case fmt::tag::frequencies:
            v->frequencies = p;
            v->frequency_count = count;
            break;
        case fmt::tag::twiddles:
            v->twiddles = reinterpret_cast<const float*>(p);
            v->twiddle_count = count;
            break;
        case fmt::tag::butterfly:
            v->butterfly = reinterpret_cast<const float*>(p);
            v->butterfly_count = count;
            break;
        case fmt::tag::permutation:
            v->permutation = reinterpret_cast<const std::uint32_t*>(p);
            v->permutation_count = count;
            break;
        case fmt::tag::groups:
            v->groups = reinterpret_cast<const std::uint32_t*>(p);
            v->group_count = count;
            break;
        default: break;
    }
}

}  // namespace

status verify_container(const std::uint8_t* bytes, std::size_t size, map_view* view) noexcept {
    const auto& h = *reinterpret_cast<const fmt::file_header*>(bytes);
    if (status s = check_header(h, size); s != status::ok) return s;
    if (header_crc(bytes, h.header_bytes) != h.header_crc) return status::header_checksum;

    const auto* table = reinterpret_cast<const fmt::section_entry*>(bytes + h.section_table_offset);
    const std::uint64_t file_bytes = h.file_bytes;

    // Geometry: aligned, after the table, inside the file, sorted and non-overlapping; known dtype and size.
    std::uint64_t previous_end = h.header_bytes;
    bool seen[known_count] = {};
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const fmt::section_entry& e = table[i];
        if (e.reserved != 0 || !dtype_known(e.dtype)) return status::bad_section_table;
        if (!is_aligned(e.offset, fmt::section_alignment) || e.offset < previous_end)
            return status::bad_section_table;
        if (!range_inside(e.offset, e.bytes, file_bytes)) return status::bad_section_table;
        const known_section* known = find_known(e.tag);
        if (known == nullptr) {
            // Sections from a newer minor version are skipped; in the current minor they are errors.
            if (h.version_minor <= fmt::version_minor) return status::bad_section_table;
        } else {
            if (static_cast<std::uint32_t>(known->type) != e.dtype) return status::bad_section_table;
            const std::size_t k = static_cast<std::size_t>(known - known_sections);
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
    if (!seen[0] || !seen[1]) return status::missing_section;
    map_view v;
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        const fmt::section_entry& e = table[i];
        if (e.tag == fmt::tag::meta && e.count != 1) return status::bad_section_size;
        if (e.tag == fmt::tag::segments && (e.count == 0 || e.count > UINT32_MAX)) return status::bad_section_size;
        attach(&v, e.tag, bytes + e.offset, e.count);
    }
    *view = v;
    return status::ok;
}

}  // namespace kfm::detail
