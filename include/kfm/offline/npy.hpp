// Reading and writing NumPy .npy files: the data sets, kfm map inputs and outputs.
// Reads format versions 1.0, 2.0 and 3.0; dtypes f4/f8 in either byte order and the integer dtypes
// i1/i2/i4/i8/u1/u2/u4/u8; C or Fortran order; 1-D and 2-D shapes. Everything else is rejected with a
// std::runtime_error whose message names the file and the reason. Writes float32 (and int64 vectors), C order, version 1.0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kfm::offline {

// A 2-D array in C (row-major) order. A 1-D file of shape (n,) is read as one row of n values
// (ndim = 1, rows = 1, cols = n): a single vector, which is what `kfm map` expects for one input.
template <class Value>
struct basic_npy_array {
    std::size_t rows = 0;
    std::size_t cols = 0;
    unsigned ndim = 2;  // as stored in the file: 1 or 2
    std::vector<Value> data;  // rows * cols values, row-major

    const Value* row(std::size_t i) const { return data.data() + i * cols; }
};

// Inputs X: values stored as float64 or integers are converted to the nearest float (what the runtime takes).
using npy_array = basic_npy_array<float>;
// Targets y: every float32, float64 and integer up to 2^53 in magnitude exactly; larger 64-bit integers
// to the nearest double (so a label beyond int32 still reads as beyond int32).
using npy_array_f64 = basic_npy_array<double>;

// Reads and validates a whole .npy file. Throws std::runtime_error ("<path>: <reason>") on any problem.
// Only a regular file is read (read_regular_file): a directory, device or FIFO is refused by name.
npy_array read_npy(const std::string& path);
npy_array_f64 read_npy_f64(const std::string& path);

// Parses .npy bytes already in memory; `name` prefixes error messages. Never reads outside [bytes, size).
npy_array parse_npy(const std::uint8_t* bytes, std::size_t size, const std::string& name);
npy_array_f64 parse_npy_f64(const std::uint8_t* bytes, std::size_t size, const std::string& name);

// The exact bytes of a version 1.0 float32 C-order file of shape (rows, cols). The encoders throw
// std::invalid_argument only for null data with a nonzero count.
std::vector<std::uint8_t> encode_npy_f32(std::size_t rows, std::size_t cols, const float* data);

// The exact bytes of 1-D files of shape (n,): float32 and int64 (what `kfm predict` writes).
std::vector<std::uint8_t> encode_npy_f32_vector(std::size_t n, const float* data);
std::vector<std::uint8_t> encode_npy_i64_vector(std::size_t n, const std::int64_t* data);

// 1-D files of shape (n,): float32 and int64 (what `kfm predict` writes), atomically (write_file_atomic:
// std::runtime_error naming the path on failure, and no file is left behind).
void write_npy_f32_vector(const std::string& path, std::size_t n, const float* data);
void write_npy_i64_vector(const std::string& path, std::size_t n, const std::int64_t* data);

// Writes encode_npy_f32(...) atomically (temporary file, then rename): a failure leaves no file behind.
void write_npy_f32(const std::string& path, std::size_t rows, std::size_t cols, const float* data);

}  // namespace kfm::offline
