// Zero heap allocations during transform and transform_batch. This binary has its own main and
// replaces malloc/calloc/realloc/free and the global operator new/delete with counting versions
// (forwarding to glibc's __libc_* functions); counting is switched on only around runtime calls.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <new>
#include <string>

#include "common/builder_configs.hpp"
#include "common/test_maps.hpp"
#include "common/test_models.hpp"
#include "offline/methods/builders.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
bool counting = false;
long allocations = 0;
long releases = 0;
void note_allocation() { if (counting) ++allocations; }
void note_release(void* p) { if (counting && p != nullptr) ++releases; }
}  // namespace

extern "C" {
void* malloc(std::size_t n) { note_allocation(); return __libc_malloc(n); }
void* calloc(std::size_t n, std::size_t size) { note_allocation(); return __libc_calloc(n, size); }
void* realloc(void* p, std::size_t n) { note_allocation(); return __libc_realloc(p, n); }
void free(void* p) { note_release(p); __libc_free(p); }
void* aligned_alloc(std::size_t alignment, std::size_t n) { note_allocation(); return __libc_memalign(alignment, n); }
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
    note_allocation();
    *out = __libc_memalign(alignment, n);
    return *out != nullptr ? 0 : 12;
}
}

void* operator new(std::size_t n) {
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
    void* p = nullptr;
    if (posix_memalign(&p, static_cast<std::size_t>(a), n == 0 ? 1 : n) != 0) throw std::bad_alloc();
    return p;
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace fmt = kfm::format;
using namespace kfm::test;

namespace {

// Runs open, the accessors, transform, transform_batch and kernel_estimate with counting on; returns
// the number of heap calls seen.
long heap_calls_during_transforms(const kfm::offline::map_contents& map) {
    const file_buffer buffer(kfm::offline::serialize(map));
    const std::size_t n = 16;
    std::vector<float> out(n * map.meta.output_dim), xs(n * map.meta.input_dim);
    std::vector<float> ws(1);
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>((i % 7) * 0.1 - 0.3);
    long calls = 0;
    for (kfm::isa i : {kfm::isa::scalar, kfm::isa::automatic}) {
        {  // size the workspace first (outside the counted region: the vector allocates)
            kfm::map sizing = open_or_fail(buffer, i);
            ws.assign(kfm::workspace_bytes(sizing, n) / sizeof(float) + 1, 0.0f);
        }
        allocations = releases = 0;
        counting = true;
        kfm::map v;
        const kfm::status opened = kfm::open(buffer.data(), buffer.size(), &v, i);
        const std::size_t accessors = v.input_dim() + v.output_dim() + v.negative_dim() + v.workspace_bytes(n) +
                                      static_cast<std::size_t>(v.method()) + static_cast<std::size_t>(v.kernel()) +
                                      static_cast<std::size_t>(v.projection()) + static_cast<std::size_t>(v.active_isa()) +
                                      (v.is_open() ? 1u : 0u);
        const kfm::status single = kfm::transform(v, xs.data(), v.input_dim(), out.data(), v.output_dim(), ws.data(), ws.size() * sizeof(float));
        const kfm::status batch = kfm::transform_batch(v, xs.data(), n, v.input_dim(), v.input_dim(), out.data(),
                                                       v.output_dim(), ws.data(), ws.size() * sizeof(float));
        const double k = kfm::kernel_estimate(v, out.data(), out.data() + v.output_dim());
        counting = false;
        calls += allocations + releases;
        REQUIRE(opened == kfm::status::ok);
        REQUIRE(accessors > 0);
        REQUIRE(single == kfm::status::ok);
        REQUIRE(batch == kfm::status::ok);
        (void)k;
    }
    return calls;
}

}  // namespace

TEST_CASE("the counting allocator sees allocations") {
    counting = true;
    allocations = 0;
    auto* p = new std::vector<int>(100);
    delete p;
    counting = false;
    CHECK(allocations >= 2);
}

TEST_CASE("no heap allocation in open, the accessors, transform and transform_batch: hand-built maps") {
    dense_spec rff;
    CHECK(heap_calls_during_transforms(make_dense_map(rff)) == 0);
    dense_spec phase;
    phase.kind = fmt::nonlinearity::cos_phase;
    phase.constants = 2;
    phase.normalize = true;
    CHECK(heap_calls_during_transforms(make_dense_map(phase)) == 0);
    dense_spec relu;
    relu.kind = fmt::nonlinearity::relu;
    relu.reflect = true;
    relu.two_segments = true;
    relu.scale_array = relu.weight_array = true;
    relu.passes = 2;
    relu.pad = 3;
    relu.input_append = 1.0;
    CHECK(heap_calls_during_transforms(make_dense_map(relu)) == 0);
    CHECK(heap_calls_during_transforms(make_product_map(product_spec{})) == 0);
}

TEST_CASE("no heap allocation in open, the accessors, transform and transform_batch: maps from the method builders") {
    // A map of every method and projection kind (tests/common/builder_configs.hpp).
    for (const auto& config : kfm::test::builder_configs(6, 64)) {
        INFO(config.label);
        CHECK(heap_calls_during_transforms(kfm::offline::build_map(config.options)) == 0);
    }
}

TEST_CASE("no heap allocation during predict and predict_batch (model files with PREP and an f32 or int8 head)") {
    for (auto kind : {fmt::task_kind::regression, fmt::task_kind::binary, fmt::task_kind::multiclass})
    for (auto stored_as : {kfm::offline::head_dtype::f32, kfm::offline::head_dtype::int8}) {
        const file_buffer buffer(kfm::offline::serialize(make_test_model(dense_spec{}, kind, 3, true, stored_as)));
        for (kfm::isa i : {kfm::isa::scalar, kfm::isa::automatic}) {
            const kfm::map m = open_or_fail(buffer, i);
            const std::size_t n = 8, d = m.input_dim(), k = m.head_outputs();
            std::vector<float> xs(n * d, 0.3f), scores(n * k);
            std::vector<std::int32_t> labels(n);
            std::vector<float> ws(kfm::workspace_bytes(m, n) / sizeof(float) + 1);
            allocations = releases = 0;
            counting = true;
            const kfm::status single = kfm::predict(m, xs.data(), d, scores.data(), k, labels.data(), ws.data(),
                                                    ws.size() * sizeof(float));
            const kfm::status batch = kfm::predict_batch(m, xs.data(), n, d, d, scores.data(), k, labels.data(),
                                                         ws.data(), ws.size() * sizeof(float));
            counting = false;
            REQUIRE(single == kfm::status::ok);
            REQUIRE(batch == kfm::status::ok);
            CHECK(allocations + releases == 0);
        }
    }
}

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    return context.run();
}
