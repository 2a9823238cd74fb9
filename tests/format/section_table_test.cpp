// The section table (src/format/section_table.hpp) and the views an open map offers of its rows: every
// tag once, found by tag, with the minor version that introduced it; a shared row read with view, a
// projection's own row only with own_view of a projection the row lists.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "format/section_table.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
namespace detail = kfm::detail;
using detail::section;

namespace {

// Whether the call compiles.
template <section S>
constexpr bool has_view = requires(const detail::map_state& m) { m.view<S>(); };
template <fmt::projection P, section S>
constexpr bool has_own_view = requires(const detail::map_state& m) { m.own_view<P, S>(); };

using projection_values = std::integer_sequence<std::uint32_t, 1, 2, 3, 4, 5, 6, 7, 8>;  // format::projection

// Projections whose own_view of row S compiles when it should not, or does not when it should.
template <section S, std::uint32_t... P>
int own_view_mismatches(std::integer_sequence<std::uint32_t, P...>) {
    constexpr detail::section_row row = detail::row_of(S);
    constexpr bool own = row.access == detail::section_access::own;
    return ((has_own_view<fmt::projection(P), S> !=
             (own && (row.projections & detail::projection_bit(fmt::projection(P))) != 0)) +
            ...);
}

// Rows whose view or own_view access differs from the row's access column.
template <std::size_t... Rows>
int access_mismatches(std::index_sequence<Rows...>) {
    constexpr auto shared = detail::section_access::shared;
    return ((has_view<section(Rows)> != (detail::row_of(section(Rows)).access == shared)) + ...) +
           (own_view_mismatches<section(Rows)>(projection_values{}) + ...);
}

}  // namespace

TEST_CASE("section table: every tag once, found by tag, with the minor version that introduced it") {
    std::set<std::uint32_t> tags;
    for (std::size_t i = 0; i < detail::section_row_count(); ++i) {
        const detail::section_row& row = detail::section_rows[i];
        tags.insert(row.tag);
        CHECK(detail::find_section(row.tag) == &row);
        CHECK(detail::section_since_minor(row.tag) == row.since_minor);
        CHECK(row.since_minor <= fmt::version_minor);
    }
    CHECK(tags.size() == detail::section_row_count());
    CHECK(detail::find_section(fmt::make_tag('N', 'O', 'P', 'E')) == nullptr);
    CHECK(detail::section_since_minor(fmt::make_tag('N', 'O', 'P', 'E')) == 0);
    CHECK(detail::section_since_minor(fmt::tag::twiddles) == 0);
    CHECK(detail::section_since_minor(fmt::tag::preprocess) == 1);
    CHECK(detail::section_since_minor(fmt::tag::gaussian_diagonal) == 2);
    CHECK(detail::section_since_minor(fmt::tag::head_int8) == 3);
}

TEST_CASE("section views: a projection's own section is reachable only through own_view of that projection") {
    CHECK(access_mismatches(std::make_index_sequence<detail::section_row_count()>()) == 0);
    // The private rows: Fastfood's G, the landmark norms and K^{-1/2}, the butterfly angles.
    CHECK_FALSE(has_view<section::gaussian_diagonal>);
    CHECK(has_own_view<fmt::projection::fastfood, section::gaussian_diagonal>);
    CHECK_FALSE(has_own_view<fmt::projection::hadamard, section::gaussian_diagonal>);
    CHECK_FALSE(has_view<section::landmark_norms>);
    CHECK_FALSE(has_view<section::kernel_inverse_root>);
    CHECK(has_own_view<fmt::projection::kernel_landmarks, section::kernel_inverse_root>);
    CHECK_FALSE(has_own_view<fmt::projection::dense, section::kernel_inverse_root>);
    CHECK_FALSE(has_view<section::butterfly>);
    CHECK(has_own_view<fmt::projection::butterfly_simplex, section::butterfly>);
    CHECK(has_own_view<fmt::projection::butterfly_blocks, section::butterfly>);
    // Shared rows, read by every stage, have no own_view.
    CHECK(has_view<section::twiddles>);
    CHECK(has_view<section::groups>);
    CHECK_FALSE(has_own_view<fmt::projection::ssf_fft, section::twiddles>);
}
