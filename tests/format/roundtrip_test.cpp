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
#include <utility>

#include "common/builder_configs.hpp"
#include "common/test_maps.hpp"
#include "common/test_models.hpp"
#include "format/crc32c.hpp"
#include "format/section_table.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

namespace detail = kfm::detail;

template <class T>
bool view_equals(const T* view, std::uint64_t count, const kfm::offline::section& s) {
    return view != nullptr && count == s.count && std::memcmp(view, s.bytes.data(), s.bytes.size()) == 0;
}

// The first projection whose bit is set (a private row's first owner).
constexpr fmt::projection first_projection(std::uint32_t bits) {
    unsigned p = 0;
    while (((bits >> p) & 1u) == 0) ++p;
    return static_cast<fmt::projection>(p);
}

// Row S's view in an open map, whatever its access (a private row through a projection that owns it).
template <detail::section S>
detail::section_view<detail::section_element_t<S>> any_view(const detail::map_state& st) {
    if constexpr (detail::row_of(S).access == detail::section_access::shared) {
        return st.view<S>();
    } else {
        return st.own_view<first_projection(detail::row_of(S).projections), S>();
    }
}

// Row S's view is the serialised section of that tag, in place (count and bytes), or empty when the map
// has none; META is the meta the contents carry.
template <detail::section S>
void check_row(const detail::map_state& st, const kfm::offline::map_contents& contents) {
    const std::uint32_t tag = detail::row_of(S).tag;
    INFO("section " << std::string(reinterpret_cast<const char*>(&tag), 4));
    const auto view = any_view<S>(st);
    if constexpr (S == detail::section::meta) {
        CHECK(view.data == st.meta);
        CHECK(view.count == 1);
        CHECK(std::memcmp(view.data, &contents.meta, sizeof(fmt::map_meta)) == 0);
    } else {
        const kfm::offline::section* serialised = nullptr;
        for (const auto& s : contents.sections)
            if (s.tag == tag) serialised = &s;
        if (serialised != nullptr) {
            CHECK(view_equals(view.data, view.count, *serialised));
        } else {
            CHECK(!view.present());
            CHECK(view.count == 0);
        }
    }
}

template <std::size_t... Rows>
void check_every_row(const detail::map_state& st, const kfm::offline::map_contents& contents,
                     std::index_sequence<Rows...>) {
    (check_row<static_cast<detail::section>(Rows)>(st, contents), ...);
}

// Every row of the section table has the view open made of `contents`: the serialised bytes, in place,
// with their count, and nothing for the sections it lacks.
void check_round_trip(const kfm::offline::map_contents& contents) {
    const file_buffer buffer(kfm::offline::serialize(contents));
    const kfm::map v = open_or_fail(buffer);
    const detail::map_state& st = *detail::state_of(v);
    CHECK(v.input_dim() == contents.meta.input_dim);
    CHECK(v.output_dim() == contents.meta.output_dim);
    CHECK(v.negative_dim() == contents.meta.negative_dim);
    for (const auto& s : contents.sections) CHECK(detail::find_section(s.tag) != nullptr);
    check_every_row(st, contents, std::make_index_sequence<detail::section_row_count()>());
    // Views point into the caller's buffer: no copy.
    CHECK(reinterpret_cast<const std::uint8_t*>(st.meta) >= buffer.data());
    CHECK(reinterpret_cast<const std::uint8_t*>(st.meta) < buffer.data() + buffer.size());
}

kfm::offline::build_options built(fmt::method method, fmt::kernel kernel, unsigned d, unsigned features) {
    kfm::offline::build_options o;
    o.method = method;
    o.kernel.kind = kernel;
    o.input_dim = d;
    o.features = features;
    o.seed = 5;
    return o;
}

}  // namespace

TEST_CASE("round trip: every section view equals what was serialised") {
    dense_spec spec;
    spec.kind = fmt::nonlinearity::cos_phase;
    spec.scale_array = spec.weight_array = true;
    spec.constants = 3;
    spec.negative_dim = 2;
    spec.passes = 2;
    check_round_trip(make_dense_map(spec));
    check_round_trip(make_product_map(product_spec{}));  // GRPS
    // The sections only structured projections carry, from the builders.
    check_round_trip(kfm::offline::build_map(built(fmt::method::ssf, fmt::kernel::gaussian, 6, 32)));        // SIGN FREQ TWID
    check_round_trip(kfm::offline::build_map(built(fmt::method::tensorsketch, fmt::kernel::polynomial_sphere, 5, 32)));  // INDX
    check_round_trip(kfm::offline::build_map(built(fmt::method::quadrature, fmt::kernel::gaussian, 5, 48)));  // BFLY PERM
    // Every method's map (GDIA, LNRM, KIRT among them) and the model sections, f32 and int8 heads.
    for (const auto& config : builder_configs(5, 40)) {
        INFO(config.label);
        check_round_trip(kfm::offline::build_map(config.options));
    }
    check_round_trip(make_test_model(dense_spec{}, fmt::task_kind::multiclass, 3));  // PREP TASK HEAD BIAS LABL
    check_round_trip(make_test_model(dense_spec{}, fmt::task_kind::binary, 1, true, kfm::offline::head_dtype::int8));
}

TEST_CASE("bit sections are packed LSB first") {
    auto options = built(fmt::method::ssf, fmt::kernel::gaussian, 6, 32);
    options.radial_rule = kfm::offline::radial_rule_kind::midpoint;  // one radius per direction: 16 sign bits (antithetic radii halve them)
    auto map = kfm::offline::build_map(options);
    for (auto& s : map.sections) {
        if (s.tag != fmt::tag::signs) continue;
        REQUIRE(s.count > 8);
        std::vector<bool> bits(std::size_t(s.count), false);
        bits[0] = bits[2] = bits[3] = bits[8] = true;
        s = kfm::offline::make_bits_section(fmt::tag::signs, bits);
    }
    const file_buffer buffer(kfm::offline::serialize(map));
    const kfm::map v = open_or_fail(buffer);
    CHECK(detail::state_of(v)->view<detail::section::signs>()[0] == 0x0d);  // bits 0, 2, 3 set, LSB first
    CHECK(detail::state_of(v)->view<detail::section::signs>()[1] == 0x01);
}

TEST_CASE("a section the map's projection does not read is refused") {
    for (const auto& extra : {kfm::offline::make_bits_section(fmt::tag::signs, {true, false, true}),
                              kfm::offline::make_u32_section(fmt::tag::indices, {7, 1, 2}),
                              kfm::offline::make_bits_section(fmt::tag::frequencies, {false, true, true, false}),
                              kfm::offline::make_f32_section(fmt::tag::twiddles, {1.0f, 0.0f}),
                              kfm::offline::make_f32_section(fmt::tag::butterfly, {1.0f, 0.0f}),
                              kfm::offline::make_u32_section(fmt::tag::permutation, {0, 1})}) {
        auto map = make_dense_map(dense_spec{});
        map.sections.push_back(extra);
        const file_buffer buffer(kfm::offline::serialize(map));
        kfm::map v;
        CHECK(kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar) == kfm::status::unexpected_section);
        CHECK(!v.is_open());
    }
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
