// Implementation of the model-file test helpers (test_models.hpp).
#include "common/test_models.hpp"

#include "offline/sampling/random.hpp"

namespace kfm::test {

offline::linear_head make_test_head(const offline::map_contents& map, format::task_kind kind, std::uint32_t k,
                                    std::uint64_t seed) {
    offline::linear_head h;
    h.kind = kind;
    h.outputs = kind == format::task_kind::binary ? 1 : k;
    if (kind == format::task_kind::binary) h.labels = {-3, 7};
    if (kind == format::task_kind::multiclass)
        for (std::uint32_t j = 0; j < k; ++j) h.labels.push_back(10 * std::int32_t(j + 1));
    offline::rng r(seed);
    h.weights.resize(std::size_t(h.outputs) * map.meta.output_dim);
    for (auto& w : h.weights) w = static_cast<float>(2.0 * r.uniform() - 1.0);
    h.bias.resize(h.outputs);
    for (auto& b : h.bias) b = static_cast<float>(2.0 * r.uniform() - 1.0);
    return h;
}

offline::input_scaling make_test_scaling(std::uint32_t d, std::uint64_t seed) {
    offline::rng r(seed);
    offline::input_scaling s;
    for (std::uint32_t i = 0; i < d; ++i) {
        s.shift.push_back(static_cast<float>(r.uniform() - 0.5));
        const double magnitude = 0.5 + 1.5 * r.uniform();
        s.scale.push_back(static_cast<float>(i % 2 == 0 ? magnitude : -magnitude));
    }
    return s;
}

offline::map_contents make_test_model(const dense_spec& spec, format::task_kind kind, std::uint32_t k,
                                      bool with_scaling, offline::head_dtype stored_as) {
    offline::map_contents map = make_dense_map(spec);
    if (with_scaling) offline::add_preprocessing(map, make_test_scaling(spec.input_dim));
    offline::linear_head head = make_test_head(map, kind, k);
    head.stored_as = stored_as;
    offline::add_head(map, head);
    return map;
}

std::vector<double> applied_weights(const offline::linear_head& head) {
    if (head.stored_as == offline::head_dtype::f32) return std::vector<double>(head.weights.begin(), head.weights.end());
    const offline::int8_head q = offline::quantize_head(head.weights, head.outputs);
    const std::size_t d = head.weights.size() / head.outputs;
    std::vector<double> w(q.weights.size());
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = double(q.weights[i]) * double(q.scales[i / d]);
    return w;
}

}  // namespace kfm::test
