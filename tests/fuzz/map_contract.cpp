// See map_contract.hpp.
#include "map_contract.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "kfm/format.hpp"
#include "kfm/kfm.hpp"
#include "format/crc32c.hpp"
#include "runtime/map_state.hpp"
#include "runtime/work_bound.hpp"

namespace kfm::fuzz {
namespace {

namespace fmt = kfm::format;

bool untouched(const std::vector<float>& out) {
    for (float v : out)
        if (std::memcmp(&v, &sentinel, sizeof v) != 0) return false;
    return true;
}

// Deterministic inputs from the file bytes: entries in [-max_input_abs, max_input_abs], one at the bound.
std::vector<float> bounded_input(std::size_t d, const std::uint8_t* bytes, std::size_t size) {
    std::vector<float> x(d);
    std::uint32_t state = 2166136261u;
    for (std::size_t i = 0; i < size && i < 256; ++i) state = (state ^ bytes[i]) * 16777619u;
    for (std::size_t i = 0; i < d; ++i) {
        state = state * 1664525u + 1013904223u;
        x[i] = float(fmt::max_input_abs) * (float(state >> 8) / float(1u << 23) - 1.0f);
    }
    if (d > 0) x[d / 2] = -float(fmt::max_input_abs);
    return x;
}

void check_open_map(const map& m, isa i, const std::uint8_t* bytes, std::size_t size, std::size_t file_size) {
    const detail::map_state* state = detail::state_of(m);
    if (state == nullptr) violated("open returned ok but the map is not open", i);
    if (detail::transform_work(*state) > detail::work_limit(*state, file_size)) violated("work above the bound", i);
    const std::size_t d = m.input_dim(), D = m.output_dim();
    std::vector<std::uint8_t> workspace(workspace_bytes(m, 1));
    std::vector<float> out(D + 1, sentinel);
    std::vector<float> x = bounded_input(d, bytes, size);

    // Bad arguments: a status, and nothing written.
    // (A model's workspace_bytes also holds predict's phi and scores: transform needs less.)
    const bool model = m.task() != fmt::task_kind::none;
    if (transform(m, x.data(), d + 1, out.data(), D, workspace.data(), workspace.size()) != status::wrong_dimension ||
        transform(m, x.data(), d, out.data(), D - 1, workspace.data(), workspace.size()) != status::output_too_small ||
        (!model && transform(m, x.data(), d, out.data(), D, workspace.data(), workspace.size() - 1) !=
                       status::workspace_too_small))
        violated("a bad argument was not refused", i);
    std::vector<float> bad = x;
    bad[d - 1] = std::numeric_limits<float>::quiet_NaN();
    if (transform(m, bad.data(), d, out.data(), D, workspace.data(), workspace.size()) != status::non_finite_input)
        violated("a NaN input was not refused", i);
    if (!untouched(out)) violated("a refused transform wrote to the output", i);

    // Bounded finite input: finite output, and nothing past output_dim.
    if (const status s = transform(m, x.data(), d, out.data(), D, workspace.data(), workspace.size()); s != status::ok) {
        std::fprintf(stderr, "transform: %s\n", status_string(s));
        violated("a valid transform failed", i);
    }
    for (std::size_t k = 0; k < D; ++k)
        if (!std::isfinite(out[k])) violated("non-finite output for a bounded finite input", i);
    if (std::memcmp(&out[D], &sentinel, sizeof sentinel) != 0) violated("wrote past output_dim", i);
}

}  // namespace

void violated(const char* what, isa i) {
    std::fprintf(stderr, "contract violated on %s: %s\n", isa_name(i), what);
    std::abort();
}

void reseal(std::uint8_t* bytes, std::size_t size) {
    if (size < sizeof(fmt::file_header)) return;
    fmt::file_header h;
    std::memcpy(&h, bytes, sizeof h);
    h.file_bytes = size;
    const std::uint64_t table_end = sizeof(fmt::file_header) + std::uint64_t(h.section_count) * sizeof(fmt::section_entry);
    if (h.section_count <= fmt::max_sections && table_end <= size) {
        for (std::uint32_t i = 0; i < h.section_count; ++i) {
            fmt::section_entry e;
            std::uint8_t* at = bytes + sizeof(fmt::file_header) + i * sizeof(fmt::section_entry);
            std::memcpy(&e, at, sizeof e);
            if (e.offset > size || e.bytes > size - e.offset) continue;
            e.checksum = detail::crc32c(bytes + e.offset, static_cast<std::size_t>(e.bytes));
            std::memcpy(at, &e, sizeof e);
        }
    }
    std::memcpy(bytes, &h, sizeof h);
    if (h.header_bytes < offsetof(fmt::file_header, header_crc) + 4 || h.header_bytes > size) return;
    h.header_crc = 0;
    std::memcpy(bytes, &h, sizeof h);
    h.header_crc = detail::crc32c(bytes, h.header_bytes);
    std::memcpy(bytes, &h, sizeof h);
}

void check_map_bytes(const std::uint8_t* bytes, std::size_t size) {
    std::vector<std::uint64_t> aligned(size / 8 + 1);
    if (size > 0) std::memcpy(aligned.data(), bytes, size);  // an empty input may come with a null pointer
    for (std::size_t k = 0; k < isa_count(); ++k) {
        const isa i = isa_at(k);
        if (!isa_available(i)) continue;
        map m;
        unsigned char before[sizeof(map)];
        std::memcpy(before, static_cast<const void*>(&m), sizeof m);
        const status s = open(aligned.data(), size, &m, i);
        if (s != status::ok) {
            if (std::memcmp(before, static_cast<const void*>(&m), sizeof m) != 0) violated("a refused open wrote the map", i);
            continue;
        }
        check_open_map(m, i, bytes, size, size);
    }
}

}  // namespace kfm::fuzz
