// NumPy .npy reader and float32 writer (see npy.hpp for what is accepted).
// The header is a Python dict literal; it is parsed by a small strict tokenizer rather than by pattern
// matching so that any malformed or hostile header yields a message instead of a misread.
#include "kfm/offline/npy.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kfm/offline.hpp"

namespace kfm::offline {
namespace {

constexpr std::uint8_t npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

bool host_is_little_endian() {
    const std::uint16_t probe = 1;
    std::uint8_t first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

[[noreturn]] void fail(const std::string& name, const std::string& reason) {
    throw std::runtime_error(name + ": " + reason);
}

struct element_type {
    char kind = 0;          // 'f', 'i' or 'u'
    std::size_t size = 0;   // bytes per element
    bool swap = false;      // stored in the other byte order than the host's
};

struct header_fields {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::uint64_t> shape;
    bool has_descr = false, has_order = false, has_shape = false;
};

// Strict parser for the header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class header_parser {
public:
    header_parser(const std::string& text, const std::string& name) : text_(text), name_(name) {}

    header_fields parse() {
        header_fields h;
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') { ++pos_; break; }
            const std::string key = parse_string("a key");
            expect(':');
            if (key == "descr") {
                if (h.has_descr) bad("duplicate key 'descr'");
                skip_space();
                if (peek() != '\'' && peek() != '"')
                    bad("structured or record dtypes are not supported (descr is not a simple type string)");
                h.descr = parse_string("the dtype");
                h.has_descr = true;
            } else if (key == "fortran_order") {
                if (h.has_order) bad("duplicate key 'fortran_order'");
                h.fortran_order = parse_bool();
                h.has_order = true;
            } else if (key == "shape") {
                if (h.has_shape) bad("duplicate key 'shape'");
                h.shape = parse_shape();
                h.has_shape = true;
            } else {
                bad("unexpected key '" + key + "'");
            }
            skip_space();
            if (peek() == ',') { ++pos_; continue; }
            if (peek() == '}') { ++pos_; break; }
            bad("expected ',' or '}' in the header");
        }
        skip_space();
        if (pos_ != text_.size()) bad("unexpected characters after the header dict");
        if (!h.has_descr || !h.has_order || !h.has_shape)
            bad("the header must have 'descr', 'fortran_order' and 'shape'");
        return h;
    }

private:
    [[noreturn]] void bad(const std::string& reason) const { fail(name_, "bad .npy header: " + reason); }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                       text_[pos_] == '\r'))
            ++pos_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) bad(std::string("expected '") + c + "'");
        ++pos_;
    }
    std::string parse_string(const char* what) {
        skip_space();
        const char quote = peek();
        if (quote != '\'' && quote != '"') bad(std::string("expected a quoted string for ") + what);
        ++pos_;
        const std::size_t end = text_.find(quote, pos_);
        if (end == std::string::npos) bad("unterminated string");
        std::string s = text_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return s;
    }
    bool parse_bool() {
        skip_space();
        if (text_.compare(pos_, 4, "True") == 0) { pos_ += 4; return true; }
        if (text_.compare(pos_, 5, "False") == 0) { pos_ += 5; return false; }
        bad("fortran_order must be True or False");
    }
    std::vector<std::uint64_t> parse_shape() {
        expect('(');
        std::vector<std::uint64_t> shape;
        for (;;) {
            skip_space();
            if (peek() == ')') { ++pos_; break; }
            if (peek() < '0' || peek() > '9') bad("shape must be a tuple of non-negative integers");
            std::uint64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                const unsigned digit = unsigned(peek() - '0');
                if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) bad("shape value too large");
                v = v * 10 + digit;
                ++pos_;
            }
            if (peek() == 'L') ++pos_;  // Python 2 long suffix, written by old NumPy
            shape.push_back(v);
            if (shape.size() > 32) bad("too many dimensions");
            skip_space();
            if (peek() == ',') { ++pos_; continue; }
            if (peek() == ')') { ++pos_; break; }
            bad("expected ',' or ')' in the shape");
        }
        return shape;
    }

    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
};

element_type parse_descr(const std::string& descr, const std::string& name) {
    const auto unsupported = [&]() -> element_type {
        fail(name, "unsupported dtype '" + descr +
                       "' (supported: float32, float64 and integer types, either byte order)");
    };
    if (descr.size() != 3) unsupported();
    element_type t;
    const char order = descr[0];
    t.kind = descr[1];
    if (descr[2] < '1' || descr[2] > '9') unsupported();
    t.size = std::size_t(descr[2] - '0');
    const bool valid_kind = (t.kind == 'f' && (t.size == 4 || t.size == 8)) ||
                            ((t.kind == 'i' || t.kind == 'u') &&
                             (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8));
    if (!valid_kind) unsupported();
    bool little = host_is_little_endian();
    if (order == '<') little = true;
    else if (order == '>') little = false;
    else if (order == '|') { if (t.size != 1) unsupported(); }
    else if (order != '=') unsupported();
    t.swap = t.size > 1 && little != host_is_little_endian();
    return t;
}

template <class T>
T load(const std::uint8_t* p, bool swap) {
    std::uint8_t b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (swap)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

// One stored element as Value (float or double), rounded to nearest when Value cannot hold it.
template <class Value>
Value load_as(const std::uint8_t* p, const element_type& t) {
    switch (t.kind) {
        case 'f':
            return t.size == 4 ? static_cast<Value>(load<float>(p, t.swap))
                               : static_cast<Value>(load<double>(p, t.swap));
        case 'i':
            switch (t.size) {
                case 1: return static_cast<Value>(load<std::int8_t>(p, false));
                case 2: return static_cast<Value>(load<std::int16_t>(p, t.swap));
                case 4: return static_cast<Value>(load<std::int32_t>(p, t.swap));
                default: return static_cast<Value>(load<std::int64_t>(p, t.swap));
            }
        default:
            switch (t.size) {
                case 1: return static_cast<Value>(load<std::uint8_t>(p, false));
                case 2: return static_cast<Value>(load<std::uint16_t>(p, t.swap));
                case 4: return static_cast<Value>(load<std::uint32_t>(p, t.swap));
                default: return static_cast<Value>(load<std::uint64_t>(p, t.swap));
            }
    }
}

std::uint32_t read_le(const std::uint8_t* p, std::size_t n) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint32_t(p[i]) << (8 * i);
    return v;
}

template <class Value>
basic_npy_array<Value> parse(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    if (bytes == nullptr && size != 0) fail(name, "null buffer");
    if (size < 10 || std::memcmp(bytes, npy_magic, sizeof npy_magic) != 0)
        fail(name, "not a .npy file (missing the \\x93NUMPY magic)");
    const unsigned major = bytes[6];
    if (major < 1 || major > 3)
        fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(bytes[7]));
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    const std::size_t prefix = 8 + length_bytes;
    if (size < prefix) fail(name, "truncated .npy header");
    const std::size_t header_len = read_le(bytes + 8, length_bytes);
    if (header_len > size - prefix) fail(name, "truncated .npy header");
    const std::string text(reinterpret_cast<const char*>(bytes + prefix), header_len);
    const header_fields h = header_parser(text, name).parse();
    const element_type type = parse_descr(h.descr, name);

    if (h.shape.size() != 1 && h.shape.size() != 2)
        fail(name, "expected a 1-D or 2-D array, the file has " + std::to_string(h.shape.size()) + " dimensions");
    for (const std::uint64_t extent : h.shape)  // a 32-bit size_t cannot even index such an array
        if (extent > std::numeric_limits<std::size_t>::max()) fail(name, "shape too large");
    basic_npy_array<Value> a;
    a.ndim = static_cast<unsigned>(h.shape.size());
    a.rows = a.ndim == 1 ? 1 : static_cast<std::size_t>(h.shape[0]);
    a.cols = static_cast<std::size_t>(h.shape[a.ndim - 1]);
    const std::size_t data_bytes_available = size - prefix - header_len;
    const std::size_t max_elements = std::numeric_limits<std::size_t>::max() / type.size;
    if (a.cols != 0 && a.rows > max_elements / a.cols) fail(name, "shape too large");
    const std::size_t count = a.rows * a.cols;
    const std::size_t data_bytes = count * type.size;
    if (data_bytes > data_bytes_available)
        fail(name, "truncated data: the shape needs " + std::to_string(data_bytes) + " bytes, the file has " +
                       std::to_string(data_bytes_available));
    if (data_bytes < data_bytes_available)
        fail(name, std::to_string(data_bytes_available - data_bytes) + " unexpected bytes after the data");

    const std::uint8_t* data = bytes + prefix + header_len;
    // Element (i, j) at `offset`. A float64 beyond float32's range is refused by position and value when
    // reading as float (the cast would be Inf, later reported as an infinite input the file does not hold).
    auto element = [&](std::size_t offset, std::size_t i, std::size_t j) {
        if constexpr (std::is_same_v<Value, float>) {
            if (type.kind == 'f' && type.size == 8) {
                const double v = load<double>(data + offset, type.swap);
                if (std::isfinite(v) && std::fabs(v) > double(std::numeric_limits<float>::max())) {
                    char shown[32];
                    std::snprintf(shown, sizeof shown, "%.9g", v);
                    fail(name, "row " + std::to_string(i) + ", column " + std::to_string(j) + " holds " + shown +
                                   ", beyond float32's range (about +-3.4e38), in which kfm computes; rescale the data");
                }
                return static_cast<float>(v);
            }
        }
        return load_as<Value>(data + offset, type);
    };
    a.data.resize(count);
    if (h.fortran_order && a.ndim == 2) {
        for (std::size_t j = 0; j < a.cols; ++j)
            for (std::size_t i = 0; i < a.rows; ++i) a.data[i * a.cols + j] = element((j * a.rows + i) * type.size, i, j);
    } else {
        for (std::size_t k = 0; k < count; ++k) a.data[k] = element(k * type.size, k / (a.cols ? a.cols : 1), k % (a.cols ? a.cols : 1));
    }
    return a;
}

}  // namespace

npy_array parse_npy(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    return parse<float>(bytes, size, name);
}

npy_array_f64 parse_npy_f64(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    return parse<double>(bytes, size, name);
}

npy_array read_npy(const std::string& path) {
    const std::vector<std::uint8_t> bytes = read_regular_file(path);
    return parse_npy(bytes.data(), bytes.size(), path);
}

npy_array_f64 read_npy_f64(const std::string& path) {
    const std::vector<std::uint8_t> bytes = read_regular_file(path);
    return parse_npy_f64(bytes.data(), bytes.size(), path);
}

namespace {

// A version 1.0 file: header for `descr` and `shape` ("(3, 4)" or "(5,)"), then `count` little-endian
// elements of `width` bytes each read from `data` as native integers of that width.
template <class Bits>
std::vector<std::uint8_t> encode_npy(const std::string& descr, const std::string& shape, const void* data,
                                     std::size_t count) {
    if (data == nullptr && count != 0) throw std::invalid_argument("encode_npy: null data");
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // NumPy pads with spaces so that the data starts on a 64-byte boundary, and ends the header with '\n'.
    const std::size_t prefix = 10;
    const std::size_t unpadded = prefix + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');

    std::vector<std::uint8_t> out(npy_magic, npy_magic + sizeof npy_magic);
    out.reserve(prefix + header.size() + count * sizeof(Bits));
    out.push_back(1);
    out.push_back(0);
    out.push_back(std::uint8_t(header.size() & 0xff));
    out.push_back(std::uint8_t(header.size() >> 8));
    out.insert(out.end(), header.begin(), header.end());
    for (std::size_t k = 0; k < count; ++k) {
        Bits bits;
        std::memcpy(&bits, static_cast<const std::uint8_t*>(data) + k * sizeof(Bits), sizeof(Bits));
        for (std::size_t b = 0; b < sizeof(Bits); ++b) out.push_back(std::uint8_t(bits >> (8 * b)));  // little-endian on any host
    }
    return out;
}

// The header's shape tuple, "(n,)" or "(rows, cols)". Appended piece by piece: GCC 12 warns (-Wrestrict, a
// false positive) on the inlined `"(" + std::to_string(n) + ...` chain.
std::string shape_tuple(std::size_t first, const std::size_t* second) {
    std::string shape = "(";
    shape += std::to_string(first);
    if (second != nullptr) {
        shape += ", ";
        shape += std::to_string(*second);
        shape += ")";
    } else {
        shape += ",)";
    }
    return shape;
}

}  // namespace

std::vector<std::uint8_t> encode_npy_f32(std::size_t rows, std::size_t cols, const float* data) {
    return encode_npy<std::uint32_t>("<f4", shape_tuple(rows, &cols), data, rows * cols);
}

std::vector<std::uint8_t> encode_npy_f32_vector(std::size_t n, const float* data) {
    return encode_npy<std::uint32_t>("<f4", shape_tuple(n, nullptr), data, n);
}

std::vector<std::uint8_t> encode_npy_i64_vector(std::size_t n, const std::int64_t* data) {
    return encode_npy<std::uint64_t>("<i8", shape_tuple(n, nullptr), data, n);
}

void write_npy_f32_vector(const std::string& path, std::size_t n, const float* data) {
    write_file_atomic(path, encode_npy_f32_vector(n, data));
}

void write_npy_i64_vector(const std::string& path, std::size_t n, const std::int64_t* data) {
    write_file_atomic(path, encode_npy_i64_vector(n, data));
}

void write_npy_f32(const std::string& path, std::size_t rows, std::size_t cols, const float* data) {
    write_file_atomic(path, encode_npy_f32(rows, cols, data));
}

}  // namespace kfm::offline
