// A C++ program built against the installed kfm package (find_package or pkg-config): the same checks as
// consumer.c through include/kfm/kfm.hpp.
#include <kfm/kfm.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MAP.kfm\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::vector<char> file{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.is_open() || file.empty()) {
        std::fprintf(stderr, "c++ consumer: cannot read %s\n", argv[1]);
        return 1;
    }
    std::vector<std::uint64_t> bytes((file.size() + 7) / 8);  // 8-byte aligned copy of the file
    std::copy(file.begin(), file.end(), reinterpret_cast<char*>(bytes.data()));

    kfm::map map;
    kfm::status s = kfm::open(bytes.data(), file.size(), &map);
    if (s != kfm::status::ok) {
        std::fprintf(stderr, "c++ consumer: open: %s\n", kfm::status_string(s));
        return 1;
    }
    const std::size_t d = map.input_dim(), D = map.output_dim();
    const std::size_t ws_size = kfm::workspace_bytes(map);
    struct alignas(64) line { unsigned char b[64]; };
    std::vector<line> ws((ws_size + 63) / 64);
    std::vector<float> x(d), phi(D);
    for (std::size_t i = 0; i < d; ++i) x[i] = 0.1f * float(i + 1);

    s = kfm::transform(map, x.data(), d, phi.data(), D, ws.data(), ws_size);
    if (s != kfm::status::ok) {
        std::fprintf(stderr, "c++ consumer: transform: %s\n", kfm::status_string(s));
        return 1;
    }
    const double k = kfm::kernel_estimate(map, phi.data(), phi.data());
    if (!(k > 1.0 - 1e-4 && k < 1.0 + 1e-4)) {
        std::fprintf(stderr, "c++ consumer: phi(x).phi(x) = %.7f, expected 1\n", k);
        return 1;
    }

    phi[0] = -7.0f;
    s = kfm::transform(map, x.data(), d + 1, phi.data(), D, ws.data(), ws_size);
    if (s != kfm::status::wrong_dimension || phi[0] != -7.0f) {
        std::fprintf(stderr, "c++ consumer: a wrong dimension gave '%s' and %s the output\n", kfm::status_string(s),
                     phi[0] != -7.0f ? "changed" : "kept");
        return 1;
    }
    std::printf("c++ consumer: %s: d = %zu, D = %zu, workspace %zu bytes, phi(x).phi(x) = %.6f\n", argv[1], d, D,
                ws_size, k);
    return 0;
}
