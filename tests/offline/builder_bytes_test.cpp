// The exact bytes every builder writes, against a checked-in list (builder_hashes.txt): a refactoring of
// the offline builders must leave every file unchanged, and an intended change shows up as a diff of that
// list. Covers every configuration of tests/common/builder_configs at two dimensions (odd and even) plus
// the option variants those configurations leave at their defaults.
//
// One list for every architecture: the builders promise the same bytes for the same seed and options
// everywhere (docs/reliability.md, "Determinism"). Natively this case is part of the offline suite; cross
// builds run the d = 8 subset under the emulator (ctest label determinism, tests/CMakeLists.txt), which
// keeps one SRF surrogate fit and every GORF/GRFF signed-mixture fit, the fits most exposed to
// floating-point differences. Re-record after an intended change with KFM_RECORD_BUILDER_HASHES=1.
// The hash is 64-bit FNV-1a of the serialised file: enough to detect any unintended change, not a
// security property.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/builder_configs.hpp"
#include "kfm/offline.hpp"

namespace fmt = kfm::format;
using kfm::test::builder_config;

namespace {

const std::string hash_list_path = std::string(KFM_SOURCE_DIR) + "/tests/offline/builder_hashes.txt";

std::string fnv1a64(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
    char text[17];
    std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
    return text;
}

// The option variants builder_configs leaves at their defaults.
std::vector<builder_config> option_variants(unsigned d, unsigned features) {
    std::vector<builder_config> out;
    auto add = [&](const std::string& label, fmt::method m, fmt::kernel k, auto&& adjust) {
        builder_config c;
        c.label = label;
        c.options.method = m;
        c.options.kernel.kind = k;
        c.options.input_dim = d;
        c.options.features = features;
        c.options.sweeps = 2;
        c.options.seed = 11;
        adjust(c.options);
        out.push_back(c);
    };
    using o_t = kfm::offline::build_options;
    add("ssf/gaussian/midpoint-3", fmt::method::ssf, fmt::kernel::gaussian, [](o_t& o) { o.radial_points = 3; });
    add("ssf/gaussian/fft-16", fmt::method::ssf, fmt::kernel::gaussian, [](o_t& o) { o.fft_size = 16; });
    add("ssf/arccos/0", fmt::method::ssf, fmt::kernel::arccos, [](o_t& o) { o.kernel.order = 0; });
    add("ssf/arccos/2", fmt::method::ssf, fmt::kernel::arccos, [](o_t& o) { o.kernel.order = 2; });
    add("quadrature/gaussian/resampled", fmt::method::quadrature, fmt::kernel::gaussian,
        [](o_t& o) { o.resample_radii = true; });
    add("quadrature/gaussian/haar", fmt::method::quadrature, fmt::kernel::gaussian,
        [](o_t& o) { o.haar_rotations = true; });
    add("quadrature/gaussian/haar-partial", fmt::method::quadrature, fmt::kernel::gaussian, [](o_t& o) {
        o.haar_rotations = o.partial_rule = true;
        o.features = o.features / 2 * 2 + 2;
    });
    add("quadrature/arccos/2", fmt::method::quadrature, fmt::kernel::arccos, [](o_t& o) { o.kernel.order = 2; });
    if (d % 8 == 0)
        add("quadrature/gaussian/blocked", fmt::method::quadrature, fmt::kernel::gaussian,
            [](o_t& o) { o.permutation = kfm::offline::permutation_kind::blocked; });
    add("orf/gaussian/sigma-2.5", fmt::method::orf, fmt::kernel::gaussian, [](o_t& o) { o.kernel.sigma = 2.5; });
    add("gorf/polynomial/bessel-1d", fmt::method::gorf, fmt::kernel::polynomial_sphere, [](o_t& o) {
        o.kernel.degree = 2;
        o.kernel.scale = 3.0;
        o.spectral = kfm::offline::spectral_kind::bessel_1d;
    });
    add("grff/delta-gaussian", fmt::method::grff, fmt::kernel::delta_gaussian, [](o_t& o) {
        o.kernel.weights = {1.0, -1.0};
        o.kernel.sigmas = {1.0, 10.0};
    });
    add("maclaurin/polynomial/2-a2", fmt::method::maclaurin, fmt::kernel::polynomial_sphere, [](o_t& o) {
        o.kernel.degree = 2;
        o.kernel.scale = 2.0;
    });
    return out;
}

// label -> hash of every configuration at each dimension d (with its feature count), labels prefixed by d.
std::map<std::string, std::string> current_hashes(const std::vector<std::pair<unsigned, unsigned>>& dims) {
    std::map<std::string, std::string> out;
    for (const auto& [d, features] : dims) {
        std::vector<builder_config> configs = kfm::test::builder_configs(d, features);
        for (auto& c : option_variants(d, features)) configs.push_back(c);
        for (const auto& c : configs) {
            const std::string label = std::string(1, 'd').append(std::to_string(d)).append("/").append(c.label);
            REQUIRE_MESSAGE(out.count(label) == 0, "duplicate label " << label);
            out[label] = fnv1a64(kfm::offline::serialize(kfm::offline::build_map(c.options)));
        }
    }
    return out;
}

// label -> hash, every line of the list.
std::map<std::string, std::string> read_list() {
    std::map<std::string, std::string> recorded;
    std::ifstream in(hash_list_path);
    std::string text;
    while (std::getline(in, text)) {
        if (text.empty() || text[0] == '#') continue;
        std::istringstream fields(text);
        std::string label, hash;
        fields >> label >> hash;
        recorded[label] = hash;
    }
    return recorded;
}

void record(const std::map<std::string, std::string>& hashes) {
    std::ofstream out(hash_list_path, std::ios::trunc);
    out << "# label fnv1a64-of-file, the same on every architecture: written by "
           "tests/offline/builder_bytes_test.cpp with KFM_RECORD_BUILDER_HASHES=1\n";
    for (const auto& [label, hash] : hashes) out << label << ' ' << hash << '\n';
}

// Every hash computed here equals the recorded one.
void check_against_list(const std::map<std::string, std::string>& hashes) {
    const std::map<std::string, std::string> recorded = read_list();
    REQUIRE_MESSAGE(!recorded.empty(), "no hashes in " << hash_list_path);
    for (const auto& [label, hash] : hashes) {
        INFO(label);
        const auto it = recorded.find(label);
        REQUIRE_MESSAGE(it != recorded.end(), "no recorded hash (a new configuration: record it)");
        CHECK_MESSAGE(it->second == hash, "the builder's bytes changed");
    }
}

}  // namespace

TEST_CASE("every builder configuration writes the recorded bytes") {
    const std::map<std::string, std::string> hashes = current_hashes({{5u, 41u}, {8u, 64u}});
    if (std::getenv("KFM_RECORD_BUILDER_HASHES") != nullptr) record(hashes);
    check_against_list(hashes);
    CHECK(read_list().size() == hashes.size());  // no recorded configuration went missing
}

// The cross-architecture check (run explicitly, with --no-skip): the subset the emulator can afford.
TEST_CASE("cross-architecture subset: the d = 8 builder configurations write the recorded bytes" *
          doctest::skip()) {
    check_against_list(current_hashes({{8u, 64u}}));
}
