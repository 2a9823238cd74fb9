// The model sections (PREP, TASK, HEAD, BIAS, LABL of minor 1, the int8 head of minor 3, LTYP of minor 4): every one round-trips through
// serialize + open, every kind of corruption of each is refused with its status, the writer stamps the
// minor a file needs, and a minor-0 file still opens as before.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/test_models.hpp"
#include "runtime/map_state.hpp"

namespace fmt = kfm::format;
using kfm::status;
using namespace kfm::test;
using kfm::detail::section;

namespace {

status open_contents(const kfm::offline::map_contents& map) {
    const file_buffer buffer(kfm::offline::serialize(map));
    kfm::map v;
    return kfm::open(buffer.data(), buffer.size(), &v, kfm::isa::scalar);
}

std::uint16_t minor_of(const std::vector<std::uint8_t>& bytes) {
    fmt::file_header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    return h.version_minor;
}

kfm::offline::section* find(kfm::offline::map_contents& map, std::uint32_t tag) {
    for (auto& s : map.sections)
        if (s.tag == tag) return &s;
    return nullptr;
}

void drop(kfm::offline::map_contents& map, std::uint32_t tag) {
    for (auto it = map.sections.begin(); it != map.sections.end(); ++it)
        if (it->tag == tag) {
            map.sections.erase(it);
            return;
        }
}

template <class T>
void set_value(kfm::offline::section& s, std::size_t i, T v) {
    std::memcpy(s.bytes.data() + i * sizeof(T), &v, sizeof v);
}

template <class T>
void shrink(kfm::offline::section& s) {
    s.bytes.resize(s.bytes.size() - sizeof(T));
    --s.count;
}

fmt::model_task task_of(const kfm::offline::map_contents& map) {
    fmt::model_task t;
    for (const auto& s : map.sections)
        if (s.tag == fmt::tag::task) std::memcpy(&t, s.bytes.data(), sizeof t);
    return t;
}

void set_task(kfm::offline::map_contents& map, const fmt::model_task& t) {
    std::memcpy(find(map, fmt::tag::task)->bytes.data(), &t, sizeof t);
}

}  // namespace

TEST_CASE("model sections: every one round-trips and the accessors read it back") {
    const dense_spec spec;
    for (auto kind : {fmt::task_kind::regression, fmt::task_kind::binary, fmt::task_kind::multiclass}) {
        CAPTURE(static_cast<int>(kind));
        const auto contents = make_test_model(spec, kind, 4);
        const auto bytes = kfm::offline::serialize(contents);
        CHECK(minor_of(bytes) == 1);
        const file_buffer buffer(bytes);
        const kfm::map m = open_or_fail(buffer);
        const auto head = make_test_head(make_dense_map(spec), kind, 4);
        const auto scaling = make_test_scaling(spec.input_dim);
        CHECK(m.task() == kind);
        CHECK(m.head_outputs() == head.outputs);
        CHECK(m.class_count() == head.labels.size());
        for (std::uint32_t i = 0; i < head.labels.size(); ++i) CHECK(m.class_label(i) == head.labels[i]);
        CHECK(m.class_label(static_cast<std::uint32_t>(head.labels.size())) == 0);
        CHECK(m.has_preprocessing());

        const kfm::detail::map_state& s = *kfm::detail::state_of(m);
        REQUIRE(s.view<section::preprocess>().count == 2u * spec.input_dim);
        for (std::uint32_t i = 0; i < spec.input_dim; ++i) {
            CHECK(s.view<section::preprocess>().data[i] == scaling.shift[i]);
            CHECK(s.view<section::preprocess>().data[spec.input_dim + i] == scaling.scale[i]);
        }
        REQUIRE(s.view<section::head>().count == head.weights.size());
        CHECK(std::memcmp(s.view<section::head>().data, head.weights.data(), head.weights.size() * sizeof(float)) == 0);
        REQUIRE(s.view<section::bias>().count == head.bias.size());
        CHECK(std::memcmp(s.view<section::bias>().data, head.bias.data(), head.bias.size() * sizeof(float)) == 0);
        CHECK(s.view<section::labels>().count == head.labels.size());

        // map_part gives back the map without its model, which is a minor-0 file again.
        const auto plain = kfm::offline::map_part(bytes.data(), bytes.size());
        const auto plain_bytes = kfm::offline::serialize(plain);
        CHECK(plain_bytes == kfm::offline::serialize(make_dense_map(spec)));
    }
}

TEST_CASE("model sections: PREP alone is a valid file (transform applies it)") {
    auto map = make_dense_map(dense_spec{});
    kfm::offline::add_preprocessing(map, make_test_scaling(map.meta.input_dim));
    const file_buffer buffer(kfm::offline::serialize(map));  // the map borrows these bytes while it is used
    kfm::map m;
    REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, kfm::isa::scalar) == status::ok);
    CHECK(m.has_preprocessing());
    CHECK(m.task() == fmt::task_kind::none);
    CHECK(m.head_outputs() == 0);
}

TEST_CASE("model sections: a minor-0 file opens as before; model sections in a minor-0 file are refused") {
    const auto plain = kfm::offline::serialize(make_dense_map(dense_spec{}));
    CHECK(minor_of(plain) == 0);
    kfm::map v;
    const file_buffer buffer(plain);
    CHECK(kfm::open(buffer.data(), buffer.size(), &v) == status::ok);
    CHECK(v.task() == fmt::task_kind::none);
    CHECK_FALSE(v.has_preprocessing());

    auto model = kfm::offline::serialize(make_test_model(dense_spec{}, fmt::task_kind::binary, 1));
    const std::uint16_t zero = 0;
    std::memcpy(model.data() + offsetof(fmt::file_header, version_minor), &zero, 2);
    reseal_header(model);
    const file_buffer old(model);
    CHECK(kfm::open(old.data(), old.size(), &v) == status::bad_section_table);
}

TEST_CASE("model sections: sizes against the map's dims and k") {
    const dense_spec spec;
    auto prep = make_test_model(spec, fmt::task_kind::multiclass, 3);
    shrink<float>(*find(prep, fmt::tag::preprocess));
    CHECK(open_contents(prep) == status::bad_section_size);

    auto head = make_test_model(spec, fmt::task_kind::multiclass, 3);
    shrink<float>(*find(head, fmt::tag::head));
    CHECK(open_contents(head) == status::bad_section_size);

    auto bias = make_test_model(spec, fmt::task_kind::regression, 2);
    shrink<float>(*find(bias, fmt::tag::bias));
    CHECK(open_contents(bias) == status::bad_section_size);

    auto labels = make_test_model(spec, fmt::task_kind::multiclass, 3);
    shrink<std::int32_t>(*find(labels, fmt::tag::labels));
    CHECK(open_contents(labels) == status::bad_section_size);

    auto two_tasks = make_test_model(spec, fmt::task_kind::regression, 1);
    auto* t = find(two_tasks, fmt::tag::task);
    t->bytes.insert(t->bytes.end(), t->bytes.begin(), t->bytes.end());
    t->count = 2;
    CHECK(open_contents(two_tasks) == status::bad_section_size);
}

TEST_CASE("model sections: non-finite values and zero scales are refused") {
    const dense_spec spec;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (std::uint32_t tag : {fmt::tag::preprocess, fmt::tag::head, fmt::tag::bias}) {
        auto m = make_test_model(spec, fmt::task_kind::regression, 2);
        set_value(*find(m, tag), 1, nan);
        CHECK(open_contents(m) == status::bad_parameter_value);
        auto n = make_test_model(spec, fmt::task_kind::regression, 2);
        set_value(*find(n, tag), 0, inf);
        CHECK(open_contents(n) == status::bad_parameter_value);
    }
    auto zero_scale = make_test_model(spec, fmt::task_kind::regression, 2);
    set_value(*find(zero_scale, fmt::tag::preprocess), spec.input_dim + 2, 0.0f);
    CHECK(open_contents(zero_scale) == status::bad_parameter_value);
    auto zero_shift = make_test_model(spec, fmt::task_kind::regression, 2);
    set_value(*find(zero_shift, fmt::tag::preprocess), 2, 0.0f);  // a zero shift is fine
    CHECK(open_contents(zero_shift) == status::ok);
}

TEST_CASE("model sections: the task must be consistent with k, the classes and the labels") {
    const dense_spec spec;
    auto base = make_test_model(spec, fmt::task_kind::multiclass, 3);
    REQUIRE(open_contents(base) == status::ok);

    auto unknown = base;
    fmt::model_task t = task_of(unknown);
    t.kind = 4;
    set_task(unknown, t);
    CHECK(open_contents(unknown) == status::bad_model);

    auto reserved = base;
    t = task_of(reserved);
    t.reserved[4] = 1;
    set_task(reserved, t);
    CHECK(open_contents(reserved) == status::bad_model);

    auto classes = base;  // class_count != k
    t = task_of(classes);
    t.class_count = 4;
    set_task(classes, t);
    CHECK(open_contents(classes) == status::bad_model);

    auto as_binary = base;  // binary needs k = 1
    t = task_of(as_binary);
    t.kind = static_cast<std::uint32_t>(fmt::task_kind::binary);
    set_task(as_binary, t);
    CHECK(open_contents(as_binary) == status::bad_model);

    auto k_mismatch = make_test_model(spec, fmt::task_kind::regression, 3);  // TASK says 2, HEAD has 3 rows
    t = task_of(k_mismatch);
    t.output_count = 2;
    set_task(k_mismatch, t);
    CHECK(open_contents(k_mismatch) == status::bad_section_size);

    auto duplicate = base;
    set_value<std::int32_t>(*find(duplicate, fmt::tag::labels), 1, 10);  // 10, 10, 30
    CHECK(open_contents(duplicate) == status::bad_model);
    auto unsorted = base;
    set_value<std::int32_t>(*find(unsorted, fmt::tag::labels), 0, 25);  // 25, 20, 30
    CHECK(open_contents(unsorted) == status::bad_model);

    auto binary_same = make_test_model(spec, fmt::task_kind::binary, 1);
    set_value<std::int32_t>(*find(binary_same, fmt::tag::labels), 1, -3);
    CHECK(open_contents(binary_same) == status::bad_model);
}

TEST_CASE("model sections: TASK, HEAD and BIAS come together; LABL exactly when classifying") {
    const dense_spec spec;
    for (std::uint32_t tag : {fmt::tag::task, fmt::tag::head, fmt::tag::bias}) {
        auto m = make_test_model(spec, fmt::task_kind::regression, 2);
        drop(m, tag);
        CHECK(open_contents(m) == status::missing_section);
    }
    auto no_labels = make_test_model(spec, fmt::task_kind::binary, 1);
    drop(no_labels, fmt::tag::labels);
    CHECK(open_contents(no_labels) == status::missing_section);

    auto regression_labels = make_test_model(spec, fmt::task_kind::regression, 1);
    regression_labels.sections.push_back(
        kfm::offline::section{fmt::tag::labels, fmt::dtype::i32, 1, {1, 0, 0, 0}});
    CHECK(open_contents(regression_labels) == status::bad_model);

    auto labels_only = make_dense_map(spec);
    labels_only.sections.push_back(kfm::offline::section{fmt::tag::labels, fmt::dtype::i32, 1, {1, 0, 0, 0}});
    CHECK(open_contents(labels_only) == status::missing_section);

    auto duplicate_head = make_test_model(spec, fmt::task_kind::regression, 1);
    duplicate_head.sections.push_back(*find(duplicate_head, fmt::tag::bias));
    CHECK(open_contents(duplicate_head) == status::missing_section);  // a duplicated tag
}

// Every per-element rule of the model sections at the first, a middle and the last element, so that a
// loop bound or an index that skips an end (i < n - 1, i = 1, d + i off by one) is caught.
TEST_CASE("model sections: each per-element rule holds at the first, middle and last element") {
    const dense_spec spec;  // d inputs, D features
    const std::size_t d = spec.input_dim;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    auto positions = [](std::size_t first, std::size_t count) {
        return std::vector<std::size_t>{first, first + count / 2, first + count - 1};
    };
    struct area {
        const char* name;
        std::uint32_t tag;
        std::size_t first, count;
    };
    const auto base = make_test_model(spec, fmt::task_kind::regression, 3);
    REQUIRE(open_contents(base) == status::ok);
    auto probe = base;
    const std::size_t weights = find(probe, fmt::tag::head)->count;
    REQUIRE(weights == 3 * base.meta.output_dim);
    const area areas[] = {{"PREP shifts", fmt::tag::preprocess, 0, d},
                          {"PREP scales", fmt::tag::preprocess, d, d},
                          {"HEAD", fmt::tag::head, 0, weights},
                          {"BIAS", fmt::tag::bias, 0, 3}};
    for (const area& a : areas)
        for (std::size_t i : positions(a.first, a.count))
            for (float bad : {nan, inf, -inf}) {
                CAPTURE(a.name);
                CAPTURE(i);
                CAPTURE(bad);
                auto m = base;
                set_value(*find(m, a.tag), i, bad);
                CHECK(open_contents(m) == status::bad_parameter_value);
            }
    for (std::size_t i : positions(d, d)) {  // a zero scale anywhere; a zero shift anywhere is fine
        CAPTURE(i);
        auto scale = base;
        set_value(*find(scale, fmt::tag::preprocess), i, 0.0f);
        CHECK(open_contents(scale) == status::bad_parameter_value);
        auto shift = base;
        set_value(*find(shift, fmt::tag::preprocess), i - d, 0.0f);
        CHECK(open_contents(shift) == status::ok);
    }
    // LABL strictly increasing: a tie or a descent at the first, a middle and the last pair.
    const auto classes = make_test_model(spec, fmt::task_kind::multiclass, 5);  // labels 10 .. 50
    REQUIRE(open_contents(classes) == status::ok);
    for (std::size_t pair : {std::size_t(1), std::size_t(2), std::size_t(4)}) {
        CAPTURE(pair);
        const std::int32_t before = 10 * std::int32_t(pair);  // labels[pair - 1]
        for (std::int32_t value : {before, before - 1}) {
            auto m = classes;
            set_value<std::int32_t>(*find(m, fmt::tag::labels), pair, value);
            CHECK(open_contents(m) == status::bad_model);
        }
        auto fine = classes;  // a larger gap keeps the order
        set_value<std::int32_t>(*find(fine, fmt::tag::labels), pair - 1, before - 5);
        CHECK(open_contents(fine) == status::ok);
    }
}

// The int8 head of minor 3: HDI8 (i8, k x D) and HSCL (f32, k) in place of HEAD.
namespace {

kfm::offline::map_contents int8_model(fmt::task_kind kind, std::uint32_t k) {
    return make_test_model(dense_spec{}, kind, k, true, kfm::offline::head_dtype::int8);
}

}  // namespace

TEST_CASE("int8 head: round-trips, is stamped 1.3 (an f32 head still 1.1), and a 1.2 reader refuses it") {
    auto model = int8_model(fmt::task_kind::multiclass, 3);
    CHECK(find(model, fmt::tag::head) == nullptr);
    const auto bytes = kfm::offline::serialize(model);
    CHECK(minor_of(bytes) == 3);
    CHECK(minor_of(kfm::offline::serialize(make_test_model(dense_spec{}, fmt::task_kind::multiclass, 3))) == 1);
    kfm::map m;
    const file_buffer buffer(bytes);
    REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, kfm::isa::scalar) == status::ok);
    const auto& s = *kfm::detail::state_of(m);
    CHECK(s.view<section::head>().data == nullptr);
    const auto head = make_test_head(make_dense_map(dense_spec{}), fmt::task_kind::multiclass, 3);
    const auto q = kfm::offline::quantize_head(head.weights, 3);
    REQUIRE(s.view<section::head_int8>().count == q.weights.size());
    CHECK(std::memcmp(s.view<section::head_int8>().data, q.weights.data(), q.weights.size()) == 0);
    REQUIRE(s.view<section::head_scales>().count == 3);
    CHECK(std::memcmp(s.view<section::head_scales>().data, q.scales.data(), 3 * sizeof(float)) == 0);

    // The file as a 1.2 writer would have stamped it: HDI8 and HSCL are not 1.2 sections.
    auto older = bytes;
    const std::uint16_t two = 2;
    std::memcpy(older.data() + offsetof(fmt::file_header, version_minor), &two, 2);
    reseal_header(older);
    const file_buffer old(older);
    CHECK(kfm::open(old.data(), old.size(), &m) == status::bad_section_table);
}

TEST_CASE("int8 head: quantize_head rounds each weight to within half its output's scale") {
    const auto head = make_test_head(make_dense_map(dense_spec{}), fmt::task_kind::regression, 3);
    std::vector<float> weights = head.weights;
    const std::size_t d = weights.size() / 3;
    std::fill(weights.begin() + std::ptrdiff_t(d), weights.begin() + std::ptrdiff_t(2 * d), 0.0f);  // an all-zero row
    const auto q = kfm::offline::quantize_head(weights, 3);
    REQUIRE(q.scales.size() == 3);
    CHECK(q.scales[1] == 1.0f);
    for (std::size_t j : {std::size_t(0), std::size_t(2)}) {
        float largest = 0.0f;
        for (std::size_t i = 0; i < d; ++i) largest = std::max(largest, std::fabs(weights[j * d + i]));
        CHECK(q.scales[j] == static_cast<float>(double(largest) / 127.0));
    }
    bool reaches_127 = false;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const double scale = q.scales[i / d];
        CHECK(std::fabs(double(q.weights[i]) * scale - double(weights[i])) <= 0.5 * scale * (1 + 1e-6));
        CHECK(std::abs(int(q.weights[i])) <= 127);
        reaches_127 |= std::abs(int(q.weights[i])) == 127;
    }
    CHECK(reaches_127);
    weights.push_back(1.0f);  // 3 D + 1 weights are not 3 rows
    CHECK_THROWS_AS(kfm::offline::quantize_head(weights, 3), std::invalid_argument);
    CHECK_THROWS_AS(kfm::offline::quantize_head(weights, 0), std::invalid_argument);
}

TEST_CASE("int8 head: sizes against k x D, HSCL against k; HEAD and HDI8 exclude each other") {
    auto weights = int8_model(fmt::task_kind::multiclass, 3);
    shrink<std::int8_t>(*find(weights, fmt::tag::head_int8));
    CHECK(open_contents(weights) == status::bad_section_size);
    auto scales = int8_model(fmt::task_kind::multiclass, 3);
    shrink<float>(*find(scales, fmt::tag::head_scales));
    CHECK(open_contents(scales) == status::bad_section_size);

    auto both = int8_model(fmt::task_kind::regression, 2);
    auto f32_model = make_test_model(dense_spec{}, fmt::task_kind::regression, 2);
    both.sections.push_back(*find(f32_model, fmt::tag::head));
    CHECK(open_contents(both) == status::bad_model);

    for (std::uint32_t tag : {fmt::tag::head_int8, fmt::tag::head_scales, fmt::tag::task, fmt::tag::bias}) {
        auto m = int8_model(fmt::task_kind::regression, 2);
        drop(m, tag);
        CAPTURE(tag);
        CHECK(open_contents(m) == status::missing_section);
    }
    auto scales_only = make_dense_map(dense_spec{});
    auto source = int8_model(fmt::task_kind::regression, 2);
    scales_only.sections.push_back(*find(source, fmt::tag::head_scales));
    CHECK(open_contents(scales_only) == status::missing_section);
}

// Every HSCL scale finite and nonzero, every HDI8 byte (the full int8 range, -128 too) accepted, at the
// first, a middle and the last element.
TEST_CASE("int8 head: each per-element rule holds at the first, middle and last element") {
    const auto base = int8_model(fmt::task_kind::regression, 3);
    REQUIRE(open_contents(base) == status::ok);
    const std::size_t weights = 3 * std::size_t(base.meta.output_dim);
    for (std::size_t i : {std::size_t(0), std::size_t(1), std::size_t(2)})
        for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(), 0.0f, -0.0f}) {
            CAPTURE(i);
            CAPTURE(bad);
            auto m = base;
            set_value(*find(m, fmt::tag::head_scales), i, bad);
            CHECK(open_contents(m) == status::bad_parameter_value);
        }
    for (std::size_t i : {std::size_t(0), weights / 2, weights - 1})
        for (std::int8_t value : {std::int8_t(-128), std::int8_t(127), std::int8_t(0)}) {
            CAPTURE(i);
            CAPTURE(int(value));
            auto m = base;
            set_value(*find(m, fmt::tag::head_int8), i, value);
            CHECK(open_contents(m) == status::ok);
        }
    auto negative = base;  // a negative scale is a valid scale
    set_value(*find(negative, fmt::tag::head_scales), 1, -0.5f);
    CHECK(open_contents(negative) == status::ok);
}

TEST_CASE("int8 head: the finite-output bound covers the dequantised weights") {
    auto fine = int8_model(fmt::task_kind::regression, 2);
    set_value(*find(fine, fmt::tag::head_scales), 1, 1e20f);
    CHECK(open_contents(fine) == status::ok);
    for (std::size_t i : {std::size_t(0), std::size_t(1)}) {
        CAPTURE(i);
        auto huge = int8_model(fmt::task_kind::regression, 2);
        set_value(*find(huge, fmt::tag::head_scales), i, 3e38f);  // 127 * 3e38 overflows float
        CHECK(open_contents(huge) == status::value_too_large);
    }
}

namespace {

kfm::offline::map_contents typed_model(fmt::task_kind kind, std::uint32_t k, fmt::label_type type) {
    kfm::offline::map_contents map = make_dense_map(dense_spec{});
    auto head = make_test_head(map, kind, k);
    head.label_type = type;
    kfm::offline::add_head(map, head);
    return map;
}

}  // namespace

TEST_CASE("label type: written unless int32, stamped 1.4, read back; refused in a file stamped 1.3") {
    auto int32_model = typed_model(fmt::task_kind::binary, 1, fmt::label_type::i32);
    CHECK(find(int32_model, fmt::tag::label_type) == nullptr);
    for (unsigned t = 1; t <= fmt::label_type_last; ++t) {
        CAPTURE(t);
        const auto type = static_cast<fmt::label_type>(t);
        const auto bytes = kfm::offline::serialize(typed_model(fmt::task_kind::multiclass, 3, type));
        CHECK(minor_of(bytes) == (type == fmt::label_type::i32 ? 1 : 4));
        const file_buffer buffer(bytes);
        kfm::map m;
        REQUIRE(kfm::open(buffer.data(), buffer.size(), &m, kfm::isa::scalar) == status::ok);
        CHECK(kfm::offline::label_type_of(m) == type);
        fmt::label_type back{};
        REQUIRE(kfm::offline::label_type_from_name(kfm::offline::label_type_name(type), &back));
        CHECK(back == type);
    }
    auto older = kfm::offline::serialize(typed_model(fmt::task_kind::binary, 1, fmt::label_type::i64));
    const std::uint16_t three = 3;
    std::memcpy(older.data() + offsetof(fmt::file_header, version_minor), &three, 2);
    reseal_header(older);
    const file_buffer old(older);
    kfm::map m;
    CHECK(kfm::open(old.data(), old.size(), &m) == status::bad_section_table);
    fmt::label_type unchanged = fmt::label_type::u8;
    CHECK(!kfm::offline::label_type_from_name("float32", &unchanged));
    CHECK(unchanged == fmt::label_type::u8);
    CHECK(kfm::offline::label_type_name(static_cast<fmt::label_type>(0)) == nullptr);
}

TEST_CASE("label type: one known value whose range holds every label, and only with LABL") {
    // The test head's labels are 10, 20, 30 ... (make_test_head): they fit every type.
    auto model = typed_model(fmt::task_kind::multiclass, 3, fmt::label_type::u8);
    REQUIRE(open_contents(model) == status::ok);
    for (std::uint8_t bad : {std::uint8_t{0}, std::uint8_t{9}, std::uint8_t{255}}) {
        auto m = model;
        find(m, fmt::tag::label_type)->bytes[0] = bad;
        CHECK(open_contents(m) == status::bad_parameter_value);
    }
    auto two = model;
    find(two, fmt::tag::label_type)->bytes.push_back(2);
    find(two, fmt::tag::label_type)->count = 2;
    CHECK(open_contents(two) == status::bad_section_size);
    // A label outside the type: -1 as uint8 or uint64, 200 as int8.
    for (auto [label, type] : {std::pair{-1, fmt::label_type::u8}, std::pair{-1, fmt::label_type::u64},
                               std::pair{200, fmt::label_type::i8}, std::pair{70000, fmt::label_type::u16}}) {
        CAPTURE(label);
        auto m = typed_model(fmt::task_kind::multiclass, 3, type);
        auto& labels = *find(m, fmt::tag::labels);
        set_value<std::int32_t>(labels, label < 0 ? 0 : 2, label);
        CHECK(open_contents(m) == status::bad_model);
    }
    // A regression model has no labels to type.
    auto regression = make_test_model(dense_spec{}, fmt::task_kind::regression, 2);
    regression.sections.push_back({fmt::tag::label_type, fmt::dtype::u8, 1, {5}});
    CHECK(open_contents(regression) == status::bad_model);
}
