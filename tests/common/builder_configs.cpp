#include "builder_configs.hpp"

#include "offline/sampling/random.hpp"

namespace kfm::test {
namespace {

namespace fmt = kfm::format;

offline::build_options base(fmt::method m, unsigned d, unsigned features) {
    offline::build_options o;
    o.method = m;
    o.input_dim = d;
    o.features = features;
    o.sweeps = 2;
    o.seed = 11;
    return o;
}

offline::kernel_spec arccos(unsigned order) {
    offline::kernel_spec k;
    k.kind = fmt::kernel::arccos;
    k.order = order;
    return k;
}

offline::kernel_spec polynomial(unsigned degree) {
    offline::kernel_spec k;
    k.kind = fmt::kernel::polynomial_sphere;
    k.degree = degree;
    k.scale = 4.0;
    return k;
}

offline::kernel_spec delta_gaussian() {
    offline::kernel_spec k;
    k.kind = fmt::kernel::delta_gaussian;
    k.weights = {1.0, -0.5};
    k.sigmas = {1.0, 2.0};
    return k;
}

offline::kernel_spec shift_invariant(fmt::kernel kind) {
    offline::kernel_spec k;
    k.kind = kind;
    k.sigma = 1.5;
    k.nu = 1.5;
    k.alpha = 0.75;
    return k;
}

// Nystroem's landmarks come from data: features + 7 rows uniform in [-1, 1) from the offline generator
// (its uniform() is exact bit arithmetic, so the rows are the same on every platform).
void nystroem_data(offline::build_options* o) {
    o->data_rows = o->features + 7;
    o->data.resize(o->data_rows * o->input_dim);
    offline::rng r(5);
    for (float& v : o->data) v = float(2.0 * r.uniform() - 1.0);
}

}  // namespace

std::vector<builder_config> builder_configs(unsigned d, unsigned features) {
    std::vector<builder_config> out;
    auto add = [&](fmt::method m, const offline::kernel_spec& k, const std::string& variant = "",
                   const std::string& directions = "dense") {
        builder_config c;
        c.options = base(m, d, features);
        c.options.kernel = k;
        c.options.directions = kfm::offline::choice_named<kfm::offline::directions_kind>(directions);
        if (variant == "shifted") c.options.radial_rule = kfm::offline::radial_rule_kind::shifted, c.options.radial_points = 2;
        if (variant == "partial") c.options.partial_rule = true, c.options.features = features / 2 * 2 + 2;
        if (variant == "nodes3") c.options.gq_nodes = 3;
        c.label = std::string(offline::method_name(m)) + "/" + offline::kernel_name(k.kind) + "/" +
                  std::to_string(k.kind == fmt::kernel::polynomial_sphere ? k.degree : k.order) +
                  (variant.empty() ? "" : "/" + variant) + (directions == "dense" ? "" : "/" + directions);
        out.push_back(c);
    };
    const offline::kernel_spec gaussian;
    add(fmt::method::rff_phase, gaussian);  // random phases exist for shift-invariant kernels only
    for (auto m : {fmt::method::rff, fmt::method::orf, fmt::method::qmc, fmt::method::sorf, fmt::method::quadrature,
                   fmt::method::ssf}) {
        add(m, gaussian);
        add(m, arccos(1));
    }
    add(fmt::method::ssf, gaussian, "shifted");
    add(fmt::method::quadrature, arccos(0));
    for (const char* directions : {"dense", "butterfly", "hadamard"}) {
        add(fmt::method::srf, polynomial(3), "", directions);
        add(fmt::method::gorf, polynomial(3), "", directions);
        add(fmt::method::gorf, delta_gaussian(), "", directions);
    }
    for (auto m : {fmt::method::rff, fmt::method::rff_phase, fmt::method::orf, fmt::method::qmc, fmt::method::sorf}) {
        add(m, shift_invariant(fmt::kernel::matern), "nu1.5");
        add(m, shift_invariant(fmt::kernel::rational_quadratic), "alpha0.75");
    }
    for (auto m : {fmt::method::rff, fmt::method::rff_phase, fmt::method::qmc})
        add(m, shift_invariant(fmt::kernel::laplacian));
    // ssf takes any nu and alpha; quadrature needs nu > 1 and alpha > 1 (build_quadrature.cpp).
    add(fmt::method::ssf, shift_invariant(fmt::kernel::matern), "nu1.5");
    add(fmt::method::ssf, shift_invariant(fmt::kernel::rational_quadratic), "alpha0.75");
    add(fmt::method::quadrature, shift_invariant(fmt::kernel::matern), "nu1.5");
    offline::kernel_spec rq = shift_invariant(fmt::kernel::rational_quadratic);
    rq.alpha = 1.5;
    add(fmt::method::quadrature, rq, "alpha1.5");
    add(fmt::method::grff, polynomial(3));
    add(fmt::method::maclaurin, polynomial(3));
    add(fmt::method::tensorsketch, polynomial(3));
    add(fmt::method::quadrature, gaussian, "partial");  // D not a multiple of the rule size: the last rule truncated
    add(fmt::method::quadrature, arccos(1), "partial");
    add(fmt::method::gq, gaussian);
    add(fmt::method::gq, gaussian, "nodes3");
    add(fmt::method::fastfood, gaussian);
    add(fmt::method::fastfood, shift_invariant(fmt::kernel::matern), "nu1.5");
    add(fmt::method::fastfood, shift_invariant(fmt::kernel::rational_quadratic), "alpha0.75");
    add(fmt::method::nystroem, gaussian);
    nystroem_data(&out.back().options);
    add(fmt::method::nystroem, shift_invariant(fmt::kernel::matern), "nu1.5");
    nystroem_data(&out.back().options);
    add(fmt::method::nystroem, shift_invariant(fmt::kernel::rational_quadratic), "alpha0.75");
    nystroem_data(&out.back().options);
    add(fmt::method::maclaurin_opt, gaussian);
    nystroem_data(&out.back().options);  // fitted to the rows: their mean and the degrees
    add(fmt::method::maclaurin_opt, polynomial(3));
    nystroem_data(&out.back().options);  // fitted to the rows: the degrees
    add(fmt::method::tensor_srht, polynomial(3));
    add(fmt::method::ctr_srht, polynomial(3));
    return out;
}

}  // namespace kfm::test
