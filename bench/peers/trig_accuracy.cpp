// kfm_trig_accuracy: the accuracy of the cos_sin feature stage (kernels/trig.hpp through each kernel
// table this CPU runs) beside SLEEF's vector sincosf u10 and u35 (where built), against sin and cos
// evaluated in double precision of the same float argument a.
//
//   kfm_trig_accuracy [--stride N]
//
// Argument ranges. A map's trigonometric argument is a = s t, with t = w.x a projection of the input and
// s a scale: for a Gaussian kernel of bandwidth sigma, a is normal with standard deviation |x| / sigma,
// about 1 for the bandwidths kfm's builder and the usual heuristics pick. So:
//   [0, pi]      where almost every argument falls (beyond 3 standard deviations, 0.3 %);
//   [pi, 128]    every argument a sane map produces (beyond 128 standard deviations never happens);
//   [128, 1e5]   stress only: kfm's documented range (trig.hpp), where float a itself is 0.008 coarse.
// Each range is swept over float bit patterns with a stride (every binade, denormals excepted, and both
// signs), plus the floats nearest k pi / 2 and their two neighbours (where sin or cos vanishes).
// Reported per range and implementation: max |error| in ulp (of the double result rounded to float; ulp
// near a zero of sin or cos is tiny, so ulp errors there measure the argument reduction) and max absolute
// error. Exit status 1 when kfm breaks trig.hpp's documented bounds, so the run doubles as a test (ctest
// trig-accuracy): absolute error 2.5e-7 everywhere, and at most SLEEF u35's 3.5 ulp for |a| <= 128 (on
// every ISA; beyond 128 only the ISAs with FMA keep the ulp bound, see trig.hpp).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels/kernel_table.hpp"
#include "runtime/isa_registry.hpp"
#if KFM_HAVE_SLEEF
#include "peers/sleef_features.hpp"
#endif

namespace {

struct argument_range {
    const char* name;
    float lo, hi;
    bool ulp_bounded;  // whether kfm's ulp bound applies on every ISA
};
const argument_range ranges[] = {{"[0, pi]", 0.0f, 3.14159274f, true},
                                 {"[pi, 128]", 3.14159274f, 128.0f, true},
                                 {"[128, 1e5]", 128.0f, 1e5f, false}};
constexpr double kfm_abs_bound = 2.5e-7;  // trig.hpp, |a| <= 1e5
constexpr double kfm_ulp_bound = 3.5;     // trig.hpp, |a| <= 128: SLEEF u35's bound

float from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
std::uint32_t to_bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// The arguments of one range: a strided sweep of the bit patterns (smallest normal upwards for the first
// range), the floats around k pi / 2, each with both signs.
std::vector<float> arguments(const argument_range& r, std::uint32_t stride) {
    std::vector<float> a;
    const std::uint32_t first = to_bits(r.lo > 0.0f ? r.lo : 1.17549435e-38f), last = to_bits(r.hi);
    for (std::uint32_t b = first; b <= last && b >= first; b += stride) a.push_back(from_bits(b));
    for (double k = std::ceil(r.lo / (M_PI / 2)); k * (M_PI / 2) <= r.hi; ++k) {
        const std::uint32_t b = to_bits(float(k * (M_PI / 2)));
        for (std::uint32_t d : {b - 1, b, b + 1}) a.push_back(from_bits(d));
    }
    const std::size_t n = a.size();
    for (std::size_t i = 0; i < n; ++i) a.push_back(-a[i]);
    return a;
}

// ulp of the float nearest to x (the spacing of floats in x's binade; denormal spacing below 2^-126).
double ulp_of(double x) {
    const double m = std::fabs(x);
    if (m < 0x1p-126) return 0x1p-149;
    int e;
    std::frexp(m, &e);  // m = f 2^e, f in [0.5, 1)
    return std::ldexp(1.0, e - 24);
}

struct error_stats {
    double ulp = 0, abs = 0;
    float worst_a = 0;
    void add(double got, double want, float a) {
        const double d = std::fabs(got - want);
        abs = std::max(abs, d);
        const double u = d / ulp_of(want);
        if (u > ulp) {
            ulp = u;
            worst_a = a;
        }
    }
};

// An implementation: fills cos and sin of n arguments.
using cos_sin_fn = std::function<void(const float* a, std::size_t n, float* c, float* s)>;
struct implementation {
    std::string name;
    cos_sin_fn run;
    bool is_kfm;
};

std::vector<implementation> implementations() {
    std::vector<implementation> out;
    for (std::size_t k = 0; k < kfm::isa_count(); ++k) {
        const kfm::isa id = kfm::isa_at(k);
        const auto* table = kfm::detail::kernels_for(id);
        if (!table) continue;
        out.push_back({std::string("kfm ") + kfm::isa_name(id),
                       [table](const float* a, std::size_t n, float* c, float* s) {
                           kfm::detail::feature_args f{};
                           f.kind = kfm::format::nonlinearity::cos_sin;
                           f.t = a;
                           f.n = n;
                           f.scale_scalar = 1.0f;
                           f.weight_scalar = 1.0f;
                           f.out0 = c;
                           f.out1 = s;
                           table->features(f);
                       },
                       true});
    }
#if KFM_HAVE_SLEEF
    using fn = void (*)(kfm_bench::sleef_ulp, const kfm_bench::sleef_feature_args&) noexcept;
    auto add_sleef = [&](const char* isa, fn f) {
        for (const auto u : {kfm_bench::sleef_ulp::u10, kfm_bench::sleef_ulp::u35})
            out.push_back({std::string("SLEEF ") + (u == kfm_bench::sleef_ulp::u10 ? "u10 " : "u35 ") + isa,
                           [f, u](const float* a, std::size_t n, float* c, float* s) {
                               const std::vector<float> ones(n, 1.0f);
                               f(u, {ones.data(), a, ones.data(), 1.0f, n, c, s});
                           },
                           false});
    };
#if KFM_HAVE_AVX2
    if (kfm::detail::kernels_for(kfm::isa::avx2)) add_sleef("avx2", kfm_bench::sleef_cos_sin_avx2);
#endif
#if KFM_HAVE_AVX512
    if (kfm::detail::kernels_for(kfm::isa::avx512)) add_sleef("avx512", kfm_bench::sleef_cos_sin_avx512);
#endif
#if KFM_HAVE_NEON64
    if (kfm::detail::kernels_for(kfm::isa::neon64)) add_sleef("advsimd", kfm_bench::sleef_cos_sin_advsimd);
#endif
#endif
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint32_t stride = 97;
    for (int i = 1; i < argc; ++i) {
        char* end = nullptr;
        if (std::strcmp(argv[i], "--stride") == 0 && i + 1 < argc &&
            (stride = std::uint32_t(std::strtoul(argv[++i], &end, 10))) > 0 && *end == '\0')
            continue;
        std::fprintf(stderr, "kfm_trig_accuracy: error: usage: kfm_trig_accuracy [--stride N] (N >= 1)\n");
        return 2;
    }
    const auto impls = implementations();
    bool ok = true;
    std::printf("| range | arguments | implementation | sin max ulp | cos max ulp | worst a | sin max abs | cos max abs |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const auto& r : ranges) {
        const std::vector<float> a = arguments(r, stride);
        std::vector<float> c(a.size()), s(a.size());
        for (const auto& impl : impls) {
            impl.run(a.data(), a.size(), c.data(), s.data());
            error_stats es, ec;
            for (std::size_t i = 0; i < a.size(); ++i) {
                es.add(s[i], std::sin(double(a[i])), a[i]);
                ec.add(c[i], std::cos(double(a[i])), a[i]);
            }
            const float worst = es.ulp > ec.ulp ? es.worst_a : ec.worst_a;
            std::printf("| %s | %zu | %s | %.3g | %.3g | %.9g | %.3g | %.3g |\n", r.name, a.size(), impl.name.c_str(),
                        es.ulp, ec.ulp, double(worst), es.abs, ec.abs);
            if (impl.is_kfm && (es.abs > kfm_abs_bound || ec.abs > kfm_abs_bound)) {
                std::fprintf(stderr, "kfm_trig_accuracy: %s on %s: max abs error %.3g above %.3g\n",
                             impl.name.c_str(), r.name, std::max(es.abs, ec.abs), kfm_abs_bound);
                ok = false;
            }
            if (impl.is_kfm && r.ulp_bounded && (es.ulp > kfm_ulp_bound || ec.ulp > kfm_ulp_bound)) {
                std::fprintf(stderr, "kfm_trig_accuracy: %s on %s: max error %.3g ulp above %.3g\n",
                             impl.name.c_str(), r.name, std::max(es.ulp, ec.ulp), kfm_ulp_bound);
                ok = false;
            }
        }
    }
    return ok ? 0 : 1;
}
