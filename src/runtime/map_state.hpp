// The verified state of an opened map, kept inside kfm::map's storage block. Only the runtime, the
// offline tooling, the CLI and the tests include this header: users see the opaque kfm::map.
// The sections are one view per row of the section table (format/section_table.hpp): a typed pointer into
// the caller's file bytes (no copy) and its element count, read from the file's own verified section
// table. A section added to the format is a row there and costs no room here (max_section_rows).
#pragma once
#include <cstdint>
#include <new>
#include <type_traits>

#include "format/section_table.hpp"
#include "kfm/kfm.hpp"

namespace kfm::detail {

struct kernel_table;
struct projection_ops;

// One section of an open map: its elements (null when the file does not carry it) and their number
// (bits sections: the number of bits).
template <class T>
struct section_view {
    const T* data = nullptr;
    std::uint64_t count = 0;

    bool present() const noexcept { return data != nullptr; }
    const T& operator[](std::uint64_t i) const noexcept { return data[i]; }
};

struct map_state {
    const format::map_meta* meta = nullptr;  // non-null exactly when the map is open (the META view)

    // Resolved once at open.
    const projection_ops* ops = nullptr;
    const kernel_table* kernels = nullptr;
    isa active_isa = isa::automatic;

    // A shared section: map.view<section::scales>() is a section_view<float>, its element type the row's.
    // There is no view of a projection's own section (the call does not compile): see own_view.
    template <section S, std::enable_if_t<row_of(S).access == section_access::shared, int> = 0>
    [[gnu::always_inline]] section_view<section_element_t<S>> view() const noexcept {
        return typed<S>();
    }

    // A section private to the projections that carry it (access own: BFLY, GDIA, LNRM, KIRT): the reader
    // names the projection, and the call compiles only for a projection of the row's.
    template <format::projection P, section S,
              std::enable_if_t<row_of(S).access == section_access::own && (row_of(S).projections & projection_bit(P)) != 0,
                               int> = 0>
    [[gnu::always_inline]] section_view<section_element_t<S>> own_view() const noexcept {
        return typed<S>();
    }

    // verify_container's attach: the file the sections' offsets count from, then each verified section at
    // position `entry` of the file's section table.
    void attach_file(const std::uint8_t* file) noexcept { file_ = file; }
    void attach(section s, const std::uint8_t* payload, std::uint32_t entry) noexcept {
        data_[static_cast<std::size_t>(s)] = payload;
        entry_[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(entry);
        if (s == section::meta) meta = reinterpret_cast<const format::map_meta*>(payload);
    }

private:
    // Always inlined (as are view and own_view): a lookup is one load of the data pointer, and a few more
    // where the count is read; -Os would otherwise make one out-of-line function per section.
    template <section S>
    [[gnu::always_inline]] section_view<section_element_t<S>> typed() const noexcept {
        using T = section_element_t<S>;
        static_assert(row_of(S).type != format::dtype::record || sizeof(T) == row_of(S).record_bytes,
                      "a record row's struct has the row's size");
        const std::size_t i = static_cast<std::size_t>(S);
        return {static_cast<const T*>(data_[i]), count(i)};
    }
    // Element count of row i (0 when absent), from the file's section table (verified at open).
    std::uint64_t count(std::size_t i) const noexcept {
        if (data_[i] == nullptr) return 0;
        const auto* table = reinterpret_cast<const format::section_entry*>(file_ + sizeof(format::file_header));
        return table[entry_[i]].count;
    }

    const std::uint8_t* file_ = nullptr;
    const void* data_[max_section_rows] = {};
    std::uint8_t entry_[max_section_rows] = {};  // position of row i in the file's section table
};

static_assert(format::max_sections <= 256, "a section's position in the file's table fits map_state's uint8_t");
// The room check: the state with a view for every possible row (not only today's) fits the public storage.
static_assert(sizeof(map_state) <= map_storage_bytes, "kfm::map_storage_bytes must hold a map_state");
static_assert(alignof(map_state) <= 8, "kfm::map's storage is 8-byte aligned");
static_assert(std::is_trivially_copyable_v<map_state> && std::is_trivially_destructible_v<map_state>,
              "a map is copied and dropped as plain bytes");

// The only door into a map's storage.
struct map_access {
    static const map_state& state(const map& m) noexcept {
        return *std::launder(reinterpret_cast<const map_state*>(m.storage_));
    }
    // open() writes the verified state in one go.
    static void publish(map* m, const map_state& s) noexcept { ::new (static_cast<void*>(m->storage_)) map_state(s); }
};

// The state of an open map, or null when it is not open (default-constructed: all bytes zero, so meta is
// null; and open never publishes a state with a null meta).
inline const map_state* state_of(const map& m) noexcept {
    const map_state& s = map_access::state(m);
    return s.meta != nullptr ? &s : nullptr;
}

}  // namespace kfm::detail
