// The program scripts/firmware/arm-peers.sh runs under qemu: one kernel of kfm's NEON table or of a peer
// library, called CALLS times on the same data after every setup (plans, twiddles, inputs). The script
// counts the instructions of two runs that differ only in CALLS, so start-up and setup cancel out.
//
//   arm_peers_probe fft kfm|fftw|ne10 N CALLS [WISDOM]
//       split-complex FFT of length N: kfm's table fft, FFTW3f's split guru plan (out of place; WISDOM: a
//       file of FFTW wisdom, written by "fft fftw-plan N 0 WISDOM" with FFTW_MEASURE, then imported, so the
//       counted runs use the measured plan deterministically), Ne10's ne10_fft_c2c_1d_float32_neon
//       (interleaved complex, its own layout; AArch64 builds only)
//   arm_peers_probe features kfm|sleef-u10|sleef-u35 N CALLS
//       the cos_sin feature stage (per-argument scale and weight): kfm's table features against
//       bench/peers/sleef_features.hpp's AdvSIMD instance (AArch64 builds only)
//   arm_peers_probe ssf MAP.kfm total|fft|features CALLS
//       SSF's physical limit: the whole transform (kfm::transform) of the map opened on the NEON table,
//       or only its FFTs (block_count calls of the kernel a single row runs: the batch FFT's single-row
//       form where rows interleave, n <= 32, else fft), or only its feature stage (cos_sin on the
//       projections this map gives for the input)
#include <fftw3.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "format/fft_twiddles.hpp"
#include "runtime/isa_registry.hpp"
#include "runtime/map_state.hpp"
#include "runtime/projection.hpp"
#if defined(__aarch64__)
#include <ne10/NE10.h>

#include "peers/sleef_features.hpp"
#endif

namespace {

#if defined(__aarch64__)
constexpr kfm::isa neon = kfm::isa::neon64;
#else
constexpr kfm::isa neon = kfm::isa::neon32;
#endif

float test_value(std::size_t i) {  // the benchmarks' deterministic values in [-1, 1)
    std::uint32_t z = std::uint32_t(i) * 2654435761u + 12345u;
    z ^= z >> 15;
    z *= 2246822519u;
    z ^= z >> 13;
    return float(z) * (2.0f / 4294967296.0f) - 1.0f;
}

int fft(const std::string& impl, unsigned log2_n, long calls, const char* wisdom) {
    const std::size_t n = std::size_t(1) << log2_n;
    std::vector<float> ir(n), ii(n), orr(n), oi(n);
    for (std::size_t i = 0; i < n; ++i) {
        ir[i] = test_value(i);
        ii[i] = test_value(i + n);
    }
    if (impl == "kfm") {
        std::vector<float> tw(kfm::detail::fft_twiddle_floats(log2_n));
        kfm::detail::fft_make_twiddles(log2_n, tw.data());
        const auto* table = kfm::detail::kernels_for(neon);
        if (!table) return 1;
        for (long c = 0; c < calls; ++c) table->fft(ir.data(), ii.data(), orr.data(), oi.data(), log2_n, tw.data(), false);
    } else if (impl == "fftw" || impl == "fftw-plan") {
        const bool plan_only = impl == "fftw-plan";
        if (!wisdom || (!plan_only && !fftwf_import_wisdom_from_filename(wisdom))) return 2;
        fftw_iodim dim{int(n), 1, 1};
        fftwf_plan plan = fftwf_plan_guru_split_dft(1, &dim, 0, nullptr, ir.data(), ii.data(), orr.data(), oi.data(),
                                                    plan_only ? FFTW_MEASURE : FFTW_MEASURE | FFTW_WISDOM_ONLY);
        if (!plan) return 1;
        if (plan_only) return fftwf_export_wisdom_to_filename(wisdom) ? 0 : 1;
        for (long c = 0; c < calls; ++c) fftwf_execute_split_dft(plan, ir.data(), ii.data(), orr.data(), oi.data());
        fftwf_destroy_plan(plan);
#if defined(__aarch64__)
    } else if (impl == "ne10") {
        if (ne10_init() != NE10_OK) return 1;
        std::vector<ne10_fft_cpx_float32_t> in(n), out(n);
        for (std::size_t i = 0; i < n; ++i) in[i] = {ir[i], ii[i]};
        ne10_fft_cfg_float32_t cfg = ne10_fft_alloc_c2c_float32_neon(ne10_int32_t(n));
        if (!cfg) return 1;
        for (long c = 0; c < calls; ++c) ne10_fft_c2c_1d_float32_neon(out.data(), in.data(), cfg, 0);
        orr[0] = out[0].r;
        ne10_fft_destroy_c2c_float32(cfg);
#endif
    } else {
        return 2;
    }
    std::printf("fft %s %zu %.6g\n", impl.c_str(), n, double(orr[0]));
    return 0;
}

int features(const std::string& impl, std::size_t n, long calls) {
    std::vector<float> t(n), scale(n), weight(n), out0(n), out1(n);
    for (std::size_t i = 0; i < n; ++i) {  // features_bench.cpp's values
        t[i] = 3.0f * test_value(i);
        scale[i] = 1.0f + 0.5f * test_value(i + n);
        weight[i] = test_value(i + 2 * n);
    }
    if (impl == "kfm") {
        const auto* table = kfm::detail::kernels_for(neon);
        if (!table) return 1;
        kfm::detail::feature_args f{};
        f.kind = kfm::format::nonlinearity::cos_sin;
        f.t = t.data();
        f.n = n;
        f.scale = scale.data();
        f.weight = weight.data();
        f.weight_scalar = 1.0f;
        f.out0 = out0.data();
        f.out1 = out1.data();
        for (long c = 0; c < calls; ++c) table->features(f);
#if defined(__aarch64__)
    } else if (impl == "sleef-u10" || impl == "sleef-u35") {
        const auto u = impl == "sleef-u10" ? kfm_bench::sleef_ulp::u10 : kfm_bench::sleef_ulp::u35;
        const kfm_bench::sleef_feature_args f{scale.data(), t.data(), weight.data(), 1.0f, n, out0.data(), out1.data()};
        for (long c = 0; c < calls; ++c) kfm_bench::sleef_cos_sin_advsimd(u, f);
#endif
    } else {
        return 2;
    }
    std::printf("features %s %zu %.6g\n", impl.c_str(), n, double(out0[0]));
    return 0;
}

int ssf(const char* path, const std::string& part, long calls) {
    std::FILE* file = std::fopen(path, "rb");
    if (!file) return 2;
    std::fseek(file, 0, SEEK_END);
    const long bytes = std::ftell(file);
    std::fseek(file, 0, SEEK_SET);
    std::vector<std::uint64_t> words(bytes > 0 ? std::size_t(bytes) / 8 + 1 : 1);  // 8-byte aligned
    const std::size_t size = bytes > 0 ? std::fread(words.data(), 1, std::size_t(bytes), file) : 0;
    std::fclose(file);
    kfm::map map;
    if (kfm::open(words.data(), size, &map, neon) != kfm::status::ok) return 1;
    const kfm::detail::map_state& state = *kfm::detail::state_of(map);
    const kfm::format::map_meta& meta = *state.meta;
    const std::size_t d = map.input_dim(), out_dim = map.output_dim();
    std::vector<float> x(d), out(out_dim), ws(kfm::workspace_bytes(map, 1) / sizeof(float) + 16);
    for (std::size_t i = 0; i < d; ++i) x[i] = test_value(i);
    if (part == "total") {
        for (long c = 0; c < calls; ++c)
            if (kfm::transform(map, x.data(), d, out.data(), out_dim, ws.data(), ws.size() * sizeof(float)) != kfm::status::ok)
                return 1;
    } else if (part == "fft") {
        const std::uint32_t n = meta.block_size;
        unsigned log2_n = 0;
        while ((1u << log2_n) < n) ++log2_n;
        const auto* k = state.kernels;
        const auto fft = k->fft_batch != nullptr && k->fft_batch_lanes > 1 && n <= 32 ? k->fft_batch_row : k->fft;
        const float* twiddles = state.view<kfm::detail::section::twiddles>().data;
        std::vector<float> in(2 * std::size_t(n)), o(2 * std::size_t(n));
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = test_value(i);
        for (long c = 0; c < calls; ++c)
            for (std::uint32_t b = 0; b < meta.block_count; ++b)
                fft(in.data(), in.data() + n, o.data(), o.data() + n, log2_n, twiddles, false);
        out[0] = o[0];
    } else if (part == "features") {
        const std::size_t p = meta.projection_dim;
        std::vector<float> xw(meta.work_dim + 16), t(p + 16), scratch(state.ops->scratch_floats(meta) + 16);
        for (std::size_t i = 0; i < d && i < meta.work_dim; ++i) xw[i] = x[i];
        state.ops->apply(state, xw.data(), t.data(), scratch.data());
        const kfm::format::feature_segment& seg = state.view<kfm::detail::section::segments>()[0];
        const kfm::detail::feature_args f{kfm::format::nonlinearity::cos_sin, t.data(), p, nullptr, seg.scale, nullptr,
                                          seg.weight, nullptr, out.data(), out.data() + p};
        for (long c = 0; c < calls; ++c) state.kernels->features(f);
    } else {
        return 2;
    }
    std::printf("ssf %s %zu %zu %.6g\n", part.c_str(), d, out_dim, double(out[0]));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const long n = argc >= 5 ? std::atol(argv[3]) : 0, calls = argc >= 5 ? std::atol(argv[4]) : -1;
    int status = 2;
    if (n >= 1 && (n & (n - 1)) == 0 && calls >= 0) {
        if (std::strcmp(argv[1], "fft") == 0 && n >= 4)
            status = fft(argv[2], unsigned(std::log2(double(n)) + 0.5), calls, argc >= 6 ? argv[5] : nullptr);
        else if (std::strcmp(argv[1], "features") == 0 && argc == 5)
            status = features(argv[2], std::size_t(n), calls);
    }
    if (argc == 5 && std::strcmp(argv[1], "ssf") == 0 && std::atol(argv[4]) >= 0)
        status = ssf(argv[2], argv[3], std::atol(argv[4]));
    if (status == 2)
        std::fprintf(stderr, "usage: %s fft kfm|fftw|ne10 N CALLS [WISDOM] | fft fftw-plan N 0 WISDOM | "
                             "features kfm|sleef-u10|sleef-u35 N CALLS (N a power of two) | ssf MAP total|fft|features CALLS\n", argv[0]);
    return status;
}
