// The .npy reader and writer: every header version, dtype, byte order and memory order NumPy writes,
// rejection (with a message, never a crash) of everything else, and fuzzed inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "kfm/offline/npy.hpp"
#include "offline/sampling/random.hpp"

using kfm::offline::npy_array;
using kfm::offline::parse_npy;

namespace {

// Builds .npy bytes by hand the way NumPy lays them out (magic, version, header length, padded dict).
std::vector<std::uint8_t> make_npy(unsigned major, const std::string& dict, const std::vector<std::uint8_t>& payload) {
    std::string header = dict;
    const std::size_t prefix = major == 1 ? 10 : 12;
    const std::size_t unpadded = prefix + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::vector<std::uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', std::uint8_t(major), 0};
    const std::size_t len = header.size();
    out.push_back(std::uint8_t(len));
    out.push_back(std::uint8_t(len >> 8));
    if (major != 1) {
        out.push_back(std::uint8_t(len >> 16));
        out.push_back(std::uint8_t(len >> 24));
    }
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

std::string dict(const std::string& descr, bool fortran, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

// Serialises values as `T` in little- or big-endian byte order.
template <class T>
std::vector<std::uint8_t> payload(const std::vector<double>& values, bool big_endian) {
    std::vector<std::uint8_t> out;
    for (double v : values) {
        const T t = static_cast<T>(v);
        std::uint8_t b[sizeof(T)];
        std::memcpy(b, &t, sizeof(T));  // the test hosts (x86, ARM) are little-endian
        for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(b[big_endian ? sizeof(T) - 1 - i : i]);
    }
    return out;
}

// Serialises integers as they are (payload<T> goes through double, which cannot hold 2^63 - 1).
template <class T>
std::vector<std::uint8_t> integer_payload(const std::vector<T>& values, bool big_endian) {
    std::vector<std::uint8_t> out;
    for (const T t : values) {
        std::uint8_t b[sizeof(T)];
        std::memcpy(b, &t, sizeof(T));
        for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(b[big_endian ? sizeof(T) - 1 - i : i]);
    }
    return out;
}

npy_array parse(const std::vector<std::uint8_t>& bytes) { return parse_npy(bytes.data(), bytes.size(), "test.npy"); }

std::string parse_error(const std::vector<std::uint8_t>& bytes) {
    try {
        parse(bytes);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// A 2 x 3 matrix in C order, and the same in Fortran (column-major) order.
const std::vector<double> c_values = {1, 2, 3, 4, 5, 6};
const std::vector<double> f_values = {1, 4, 2, 5, 3, 6};

void check_2x3(const npy_array& a) {
    REQUIRE(a.rows == 2);
    REQUIRE(a.cols == 3);
    CHECK(a.ndim == 2);
    for (std::size_t k = 0; k < 6; ++k) CHECK(a.data[k] == float(c_values[k]));
}

}  // namespace

TEST_CASE("npy: header versions 1.0, 2.0 and 3.0 read the same array") {
    for (unsigned major : {1u, 2u, 3u}) {
        CAPTURE(major);
        check_2x3(parse(make_npy(major, dict("<f4", false, "(2, 3)"), payload<float>(c_values, false))));
    }
}

TEST_CASE("npy: float32 and float64 in both byte orders, C and Fortran order") {
    for (bool fortran : {false, true}) {
        const auto& v = fortran ? f_values : c_values;
        CAPTURE(fortran);
        check_2x3(parse(make_npy(1, dict("<f4", fortran, "(2, 3)"), payload<float>(v, false))));
        check_2x3(parse(make_npy(1, dict(">f4", fortran, "(2, 3)"), payload<float>(v, true))));
        check_2x3(parse(make_npy(1, dict("<f8", fortran, "(2, 3)"), payload<double>(v, false))));
        check_2x3(parse(make_npy(1, dict(">f8", fortran, "(2, 3)"), payload<double>(v, true))));
    }
}

TEST_CASE("npy: float64 values are rounded to the nearest float") {
    const auto a = parse(make_npy(1, dict("<f8", false, "(1, 2)"), payload<double>({0.1, -1e-3}, false)));
    CHECK(a.data[0] == 0.1f);
    CHECK(a.data[1] == -1e-3f);
}

TEST_CASE("npy: integer dtypes are converted") {
    check_2x3(parse(make_npy(1, dict("|i1", false, "(2, 3)"), payload<std::int8_t>(c_values, false))));
    check_2x3(parse(make_npy(1, dict("|u1", false, "(2, 3)"), payload<std::uint8_t>(c_values, false))));
    check_2x3(parse(make_npy(1, dict("<i2", false, "(2, 3)"), payload<std::int16_t>(c_values, false))));
    check_2x3(parse(make_npy(1, dict(">i4", false, "(2, 3)"), payload<std::int32_t>(c_values, true))));
    check_2x3(parse(make_npy(1, dict("<i8", false, "(2, 3)"), payload<std::int64_t>(c_values, false))));
    check_2x3(parse(make_npy(1, dict("<u4", false, "(2, 3)"), payload<std::uint32_t>(c_values, false))));
    const auto neg = parse(make_npy(1, dict("|i1", false, "(3,)"), payload<std::int8_t>({-1, 1, -128}, false)));
    CHECK(neg.data == std::vector<float>{-1.f, 1.f, -128.f});
}

TEST_CASE("npy: targets read in double keep int64, int32 and float64 values at their extremes") {
    const auto parse_f64 = [](const std::vector<std::uint8_t>& bytes) {
        return kfm::offline::parse_npy_f64(bytes.data(), bytes.size(), "y.npy");
    };
    constexpr std::int64_t two_53 = std::int64_t(1) << 53;
    const std::vector<std::int64_t> i64 = {16777217, 16777219, -16777217, two_53, -two_53,
                                           std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::min()};
    for (bool big_endian : {false, true}) {
        CAPTURE(big_endian);
        const auto bytes =
            make_npy(1, dict(big_endian ? ">i8" : "<i8", false, "(7,)"), integer_payload(i64, big_endian));
        // Exact up to 2^53; beyond, the nearest double (2^63 - 1 -> 2^63), still beyond every int32.
        CHECK(parse_f64(bytes).data == std::vector<double>{16777217.0, 16777219.0, -16777217.0, 9007199254740992.0,
                                                           -9007199254740992.0, 9223372036854775808.0,
                                                           -9223372036854775808.0});
        CHECK(parse(bytes).data[0] == 16777216.0f);  // inputs X stay float: 2^24 + 1 rounds to 2^24
    }
    const std::vector<std::int32_t> i32 = {std::numeric_limits<std::int32_t>::min(),
                                           std::numeric_limits<std::int32_t>::max(), -1, 0};
    CHECK(parse_f64(make_npy(1, dict("<i4", false, "(2, 2)"), integer_payload(i32, false))).data ==
          std::vector<double>{-2147483648.0, 2147483647.0, -1.0, 0.0});
    CHECK(parse_f64(make_npy(1, dict(">i4", true, "(2, 2)"), integer_payload(i32, true))).data ==
          std::vector<double>{-2147483648.0, -1.0, 2147483647.0, 0.0});  // Fortran order: columns first
    const std::vector<std::uint64_t> u64 = {std::numeric_limits<std::uint64_t>::max(), 4294967295u};
    CHECK(parse_f64(make_npy(1, dict("<u8", false, "(2,)"), integer_payload(u64, false))).data ==
          std::vector<double>{18446744073709551616.0, 4294967295.0});

    // float64 bit for bit: 1e8 plus less than float32's spacing there (8), the extremes, a subnormal.
    const std::vector<double> f64 = {1e8 + 1e-7, 1e8 + 3 * 0.123456789, 0.1, 1e-310,
                                     std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()};
    for (bool big_endian : {false, true}) {
        CAPTURE(big_endian);
        const auto bytes =
            make_npy(1, dict(big_endian ? ">f8" : "<f8", false, "(6,)"), payload<double>(f64, big_endian));
        CHECK(parse_f64(bytes).data == f64);
        // Inputs X are float32: the largest doubles are refused by position, not turned into Inf.
        CHECK_THROWS_WITH_AS(parse(bytes), doctest::Contains("row 0, column 4 holds 1.79769313e+308, beyond float32's range"),
                             std::runtime_error);
    }
    // float32 values are exact in double.
    CHECK(parse_f64(make_npy(1, dict("<f4", false, "(2,)"), payload<float>({16777216.0, 0.1}, false))).data ==
          std::vector<double>{16777216.0, double(0.1f)});
}

TEST_CASE("npy: a 1-D array is one row; keys in any order; empty arrays") {
    const auto a = parse(make_npy(1, dict("<f4", false, "(4,)"), payload<float>({1, 2, 3, 4}, false)));
    CHECK(a.ndim == 1);
    CHECK(a.rows == 1);
    CHECK(a.cols == 4);
    CHECK(a.data == std::vector<float>{1, 2, 3, 4});

    const auto b = parse(make_npy(1, "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
                                  payload<float>(c_values, false)));
    check_2x3(b);

    const auto e = parse(make_npy(1, dict("<f4", false, "(0, 5)"), {}));
    CHECK(e.rows == 0);
    CHECK(e.cols == 5);
    CHECK(e.data.empty());
}

TEST_CASE("npy: unsupported files are rejected with a clear message") {
    const auto f4 = payload<float>(c_values, false);
    struct bad_case {
        std::vector<std::uint8_t> bytes;
        const char* expected;  // a fragment of the message
    };
    std::vector<std::uint8_t> bad_magic = make_npy(1, dict("<f4", false, "(2, 3)"), f4);
    bad_magic[1] = 'X';
    std::vector<std::uint8_t> bad_version = make_npy(1, dict("<f4", false, "(2, 3)"), f4);
    bad_version[6] = 4;
    std::vector<std::uint8_t> truncated = make_npy(1, dict("<f4", false, "(2, 3)"), f4);
    truncated.pop_back();
    std::vector<std::uint8_t> trailing = make_npy(1, dict("<f4", false, "(2, 3)"), f4);
    trailing.push_back(0);
    std::vector<std::uint8_t> long_header = make_npy(1, dict("<f4", false, "(2, 3)"), f4);
    long_header[8] = 0xff;
    long_header[9] = 0xff;

    const std::vector<bad_case> cases = {
        {{}, "not a .npy file"},
        {{'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '!'}, "not a .npy file"},
        {bad_magic, "not a .npy file"},
        {bad_version, "unsupported .npy format version 4"},
        {truncated, "truncated data"},
        {trailing, "unexpected bytes after the data"},
        {long_header, "truncated .npy header"},
        {make_npy(1, dict("<f4", false, "(2, 3, 1)"), f4), "1-D or 2-D"},
        {make_npy(1, dict("<f4", false, "()"), payload<float>({1}, false)), "1-D or 2-D"},
        {make_npy(1, dict("<f2", false, "(2, 3)"), payload<std::int16_t>(c_values, false)), "unsupported dtype '<f2'"},
        {make_npy(1, dict("<c8", false, "(2, 3)"), payload<double>(c_values, false)), "unsupported dtype '<c8'"},
        {make_npy(1, dict("|O", false, "(2, 3)"), f4), "unsupported dtype '|O'"},
        {make_npy(1, dict("|b1", false, "(2, 3)"), payload<std::int8_t>(c_values, false)), "unsupported dtype"},
        {make_npy(1, dict("<U8", false, "(2, 3)"), f4), "unsupported dtype"},
        {make_npy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3), }", f4), "structured"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False}", f4), "must have"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", f4), "True or False"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", f4), "non-negative"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", f4), "unexpected key"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} junk", f4), "after the header"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 3)}", f4), "too large"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4)}", f4), "too large"},
        {make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", f4), "expected"},
        {make_npy(1, "{'descr: '<f4'}", f4), "bad .npy header"},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        CAPTURE(i);
        const std::string message = parse_error(cases[i].bytes);
        CAPTURE(message);
        CHECK(message.rfind("test.npy: ", 0) == 0);
        CHECK(message.find(cases[i].expected) != std::string::npos);
    }
}

TEST_CASE("npy: writer output is a version 1.0 float32 C-order file that reads back exactly") {
    const std::vector<float> values = {1.5f, -2.25f, 3e-8f, 1e30f, 0.f, -0.f};
    const auto bytes = kfm::offline::encode_npy_f32(3, 2, values.data());
    REQUIRE(bytes.size() > 10);
    CHECK(bytes[6] == 1);
    CHECK(bytes[7] == 0);
    const std::size_t header_len = bytes[8] | std::size_t(bytes[9]) << 8;
    CHECK((10 + header_len) % 64 == 0);  // data aligned like NumPy's own writer
    CHECK(bytes[10 + header_len - 1] == '\n');
    const std::string header(bytes.begin() + 10, bytes.begin() + 10 + std::ptrdiff_t(header_len));
    CHECK(header.find("'descr': '<f4'") != std::string::npos);
    CHECK(header.find("'shape': (3, 2)") != std::string::npos);
    const auto a = parse(bytes);
    CHECK(a.rows == 3);
    CHECK(a.cols == 2);
    CHECK(std::memcmp(a.data.data(), values.data(), values.size() * 4) == 0);
}

TEST_CASE("npy: write_npy_f32 writes atomically and read_npy reads the file") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("kfm_npy_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::vector<float> values = {1, 2, 3, 4, 5, 6};
    const std::string path = (dir / "x.npy").string();
    kfm::offline::write_npy_f32(path, 2, 3, values.data());
    check_2x3(kfm::offline::read_npy(path));

    // A directory that does not exist: an error, and nothing left in `dir` but x.npy.
    CHECK_THROWS(kfm::offline::write_npy_f32((dir / "missing" / "y.npy").string(), 2, 3, values.data()));
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
    CHECK(files == 1);

    try {
        kfm::offline::read_npy((dir / "absent.npy").string());
        FAIL("read_npy of a missing file must throw");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find("absent.npy: no such file") != std::string::npos);
    }
    // Only regular files are read: a directory is refused by name (not read, not a stream error).
    try {
        kfm::offline::read_npy(dir.string());
        FAIL("read_npy of a directory must throw");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == dir.string() + ": is a directory, not a regular file");
    }
    fs::remove_all(dir);
}

TEST_CASE("npy: random mutations and truncations never crash") {
    const std::vector<std::vector<std::uint8_t>> seeds = {
        make_npy(1, dict("<f4", false, "(2, 3)"), payload<float>(c_values, false)),
        make_npy(2, dict(">f8", true, "(3, 2)"), payload<double>(f_values, true)),
        make_npy(3, dict("<i2", false, "(6,)"), payload<std::int16_t>(c_values, false)),
    };
    kfm::offline::rng r(20261121);
    std::size_t accepted = 0, rejected = 0;
    for (int iter = 0; iter < 4000; ++iter) {
        std::vector<std::uint8_t> bytes = seeds[r.below(seeds.size())];
        const unsigned edits = 1 + unsigned(r.below(4));
        for (unsigned e = 0; e < edits; ++e) {
            const std::size_t at = r.below(bytes.size());
            switch (r.below(3)) {
                case 0: bytes[at] = std::uint8_t(r.next_u64()); break;                   // overwrite
                case 1: bytes.resize(at); break;                                          // truncate
                default: bytes.insert(bytes.begin() + std::ptrdiff_t(at), std::uint8_t(r.next_u64()));  // insert
            }
            if (bytes.empty()) break;
        }
        try {
            const auto a = parse(bytes);
            CHECK(a.data.size() == a.rows * a.cols);
            ++accepted;
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()).rfind("test.npy: ", 0) == 0);
            ++rejected;
        }
    }
    CHECK(rejected > 0);
    MESSAGE("fuzz: " << accepted << " accepted, " << rejected << " rejected");
}

TEST_CASE("npy: the shared data sets (written by NumPy) read with their documented shapes") {
    const std::string path = std::string(KFM_SHARED_DATA_DIR) + "/letter/X_train.npy";
    if (!std::filesystem::exists(path)) {
        MESSAGE("skipped: " << path << " is absent");
        return;
    }
    const auto a = kfm::offline::read_npy(path);
    CHECK(a.rows == 12000);
    CHECK(a.cols == 16);
    float lo = a.data[0], hi = a.data[0];
    for (float v : a.data) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    CHECK(lo >= -1.f);
    CHECK(hi <= 1.f);
    const auto y = kfm::offline::read_npy(std::string(KFM_SHARED_DATA_DIR) + "/letter/y_train.npy");
    CHECK(y.ndim == 1);
    CHECK(y.cols == 12000);
}

// Inputs are read as float32 (npy_array): every integer and float dtype the README lists, both byte
// orders, at its extremes, is the nearest float; a float64 beyond float32's range is refused by position.
TEST_CASE("npy: inputs of every dtype at its extremes read as the nearest float32") {
    for (bool big : {false, true}) {
        CAPTURE(big);
        const char* order = big ? ">" : "<";
        const auto read = [&](const std::string& code, const std::vector<std::uint8_t>& data, std::size_t n) {
            return parse(make_npy(1, dict((code.size() == 2 && (code[1] == '1') ? "|" : order) + code, false,
                                          "(" + std::to_string(n) + ",)"), data));
        };
        CHECK(read("i1", integer_payload<std::int8_t>({-128, 127}, big), 2).data == std::vector<float>{-128, 127});
        CHECK(read("u1", integer_payload<std::uint8_t>({0, 255}, big), 2).data == std::vector<float>{0, 255});
        CHECK(read("i2", integer_payload<std::int16_t>({-32768, 32767}, big), 2).data == std::vector<float>{-32768, 32767});
        CHECK(read("u2", integer_payload<std::uint16_t>({0, 65535}, big), 2).data == std::vector<float>{0, 65535});
        CHECK(read("i4", integer_payload<std::int32_t>({std::numeric_limits<std::int32_t>::min(),
                                                        std::numeric_limits<std::int32_t>::max()}, big), 2)
                  .data == std::vector<float>{-2147483648.0f, 2147483648.0f});
        CHECK(read("u4", integer_payload<std::uint32_t>({0, std::numeric_limits<std::uint32_t>::max()}, big), 2).data ==
              std::vector<float>{0, 4294967296.0f});
        CHECK(read("i8", integer_payload<std::int64_t>({std::numeric_limits<std::int64_t>::min(),
                                                        std::numeric_limits<std::int64_t>::max()}, big), 2)
                  .data == std::vector<float>{-9223372036854775808.0f, 9223372036854775808.0f});
        CHECK(read("u8", integer_payload<std::uint64_t>({0, std::numeric_limits<std::uint64_t>::max()}, big), 2).data ==
              std::vector<float>{0, 18446744073709551616.0f});
        const float fmax = std::numeric_limits<float>::max(), fmin = std::numeric_limits<float>::denorm_min();
        CHECK(read("f4", payload<float>({-double(fmax), double(fmax), double(fmin)}, big), 3).data ==
              std::vector<float>{-fmax, fmax, fmin});
        // float64: float32's own extremes are exact; 1e-300 underflows to 0 (it is below every float).
        CHECK(read("f8", payload<double>({-double(fmax), double(fmax), 1e-300}, big), 3).data ==
              std::vector<float>{-fmax, fmax, 0.0f});
        CHECK_THROWS_WITH_AS(read("f8", payload<double>({1.0, -1e39}, big), 2),
                             doctest::Contains("row 0, column 1 holds -1e+39, beyond float32's range"),
                             std::runtime_error);
    }
}
