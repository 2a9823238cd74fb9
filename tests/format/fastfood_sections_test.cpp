// Open-time refusals of the fastfood projection's sections: PERM not a permutation of [0, n) in some
// block (a repeated or an out-of-range index, also past the first 2^15-value window of the check),
// non-finite GDIA, wrong section sizes, a missing section, GDIA in another projection's map, bad meta.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "common/test_maps.hpp"
#include "kfm/offline.hpp"

using namespace kfm;

namespace {

offline::map_contents fastfood_map(unsigned d, unsigned features) {
    offline::build_options o;
    o.method = format::method::fastfood;
    o.input_dim = d;
    o.features = features;
    o.kernel.sigma = 2.0;
    return offline::build_map(o);
}

status open_status(const offline::map_contents& m) {
    const test::file_buffer b(offline::serialize(m));
    map v;
    return open(b.data(), b.size(), &v, isa::scalar);
}

offline::section& section_of(offline::map_contents& m, std::uint32_t tag) {
    for (auto& s : m.sections)
        if (s.tag == tag) return s;
    FAIL("no such section");
    return m.sections.front();
}

template <class T>
void set_value(offline::section& s, std::size_t i, T v) {
    std::memcpy(s.bytes.data() + i * sizeof(T), &v, sizeof(T));
}

template <class T>
T value(const offline::section& s, std::size_t i) {
    T v;
    std::memcpy(&v, s.bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}

// The status of the map after `edit`.
status edited(const offline::map_contents& base, const std::function<void(offline::map_contents&)>& edit) {
    offline::map_contents m = base;
    edit(m);
    return open_status(m);
}

void drop_last(offline::section& s, std::size_t element_bytes) {
    s.bytes.resize(s.bytes.size() - element_bytes);
    s.count -= 1;
}

}  // namespace

TEST_CASE("fastfood: PERM must be a permutation of [0, n) in every block") {
    const auto base = fastfood_map(13, 80);  // n = 16, 3 blocks
    REQUIRE(base.meta.block_count == 3);
    REQUIRE(open_status(base) == status::ok);
    // A repeated index in the last block (every value still < n).
    CHECK(edited(base, [](auto& m) {
              auto& s = section_of(m, format::tag::permutation);
              set_value<std::uint32_t>(s, 2 * 16 + 5, value<std::uint32_t>(s, 2 * 16 + 9));
          }) == status::index_out_of_range);
    // An index equal to n.
    CHECK(edited(base, [](auto& m) { set_value<std::uint32_t>(section_of(m, format::tag::permutation), 16 + 3, 16); }) ==
          status::index_out_of_range);
    // Swapping two entries keeps a permutation: still opens.
    CHECK(edited(base, [](auto& m) {
              auto& s = section_of(m, format::tag::permutation);
              const auto a = value<std::uint32_t>(s, 1), b = value<std::uint32_t>(s, 7);
              set_value<std::uint32_t>(s, 1, b);
              set_value<std::uint32_t>(s, 7, a);
          }) == status::ok);
}

TEST_CASE("fastfood: a repeated index above the check's first window of 2^15 values is refused") {
    const auto base = fastfood_map(40000, 16);  // n = 65536: two windows
    REQUIRE(base.meta.block_size == 65536);
    REQUIRE(open_status(base) == status::ok);
    CHECK(edited(base, [](auto& m) {
              auto& s = section_of(m, format::tag::permutation);
              std::size_t i = 0, j = 0;  // two positions holding values in the upper window
              while (value<std::uint32_t>(s, i) < 40000) ++i;
              j = i + 1;
              while (value<std::uint32_t>(s, j) < 40000) ++j;
              set_value<std::uint32_t>(s, j, value<std::uint32_t>(s, i));
          }) == status::index_out_of_range);
}

TEST_CASE("fastfood: non-finite G, wrong sizes, missing or foreign sections, bad meta") {
    const auto base = fastfood_map(13, 80);
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
        CHECK(edited(base, [bad](auto& m) { set_value<float>(section_of(m, format::tag::gaussian_diagonal), 20, bad); }) ==
              status::bad_parameter_value);
    CHECK(edited(base, [](auto& m) { drop_last(section_of(m, format::tag::gaussian_diagonal), 4); }) ==
          status::bad_section_size);
    CHECK(edited(base, [](auto& m) { drop_last(section_of(m, format::tag::permutation), 4); }) ==
          status::bad_section_size);
    CHECK(edited(base, [](auto& m) {
              auto& s = section_of(m, format::tag::signs);  // one stage too few: 2 blocks of sign bits
              s.count -= 16;
              s.bytes.resize((s.count + 7) / 8);
          }) == status::bad_section_size);
    for (std::uint32_t tag : {format::tag::gaussian_diagonal, format::tag::permutation, format::tag::signs})
        CHECK(edited(base, [tag](auto& m) {
                  std::erase_if(m.sections, [tag](const offline::section& s) { return s.tag == tag; });
              }) == status::missing_section);
    CHECK(edited(base, [](auto& m) { m.meta.repeats = 3; }) == status::bad_meta);
    CHECK(edited(base, [](auto& m) { m.meta.block_count = 4; }) == status::bad_meta);
    CHECK(edited(base, [](auto& m) { m.meta.block_size = 12; }) == status::bad_meta);

    // GDIA belongs to fastfood only: a SORF map carrying it is refused.
    offline::build_options o;
    o.method = format::method::sorf;
    o.input_dim = 13;
    o.features = 80;
    auto sorf = offline::build_map(o);
    REQUIRE(open_status(sorf) == status::ok);
    sorf.sections.push_back(section_of(const_cast<offline::map_contents&>(base), format::tag::gaussian_diagonal));
    CHECK(open_status(sorf) == status::unexpected_section);
}
