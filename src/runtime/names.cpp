// Names of methods, kernels and projections as the CLI and reports spell them, their reverse lookups,
// the status descriptions (generated from kfm/status_list.h) and the library version.
#include <cstring>

#include "kfm/kfm.hpp"

#ifndef KFM_VERSION_STRING
#error "KFM_VERSION_STRING is set by CMake from the project version"
#endif

namespace kfm {
namespace {

template <class E>
struct name_entry {
    E id;
    const char* name;
};

constexpr name_entry<format::method> method_names[] = {
    {format::method::rff, "rff"},
    {format::method::rff_phase, "rff-phase"},
    {format::method::orf, "orf"},
    {format::method::ssf, "ssf"},
    {format::method::quadrature, "quadrature"},
    {format::method::sorf, "sorf"},
    {format::method::qmc, "qmc"},
    {format::method::srf, "srf"},
    {format::method::gorf, "gorf"},
    {format::method::grff, "grff"},
    {format::method::maclaurin, "maclaurin"},
    {format::method::tensorsketch, "tensorsketch"},
    {format::method::fastfood, "fastfood"},
    {format::method::gq, "gq"},
    {format::method::nystroem, "nystroem"},
    {format::method::maclaurin_opt, "maclaurin-opt"},
    {format::method::tensor_srht, "tensor-srht"},
    {format::method::ctr_srht, "ctr-srht"},
};

constexpr name_entry<format::kernel> kernel_names[] = {
    {format::kernel::gaussian, "gaussian"},
    {format::kernel::arccos, "arccos"},
    {format::kernel::polynomial_sphere, "polynomial-sphere"},
    {format::kernel::delta_gaussian, "delta-gaussian"},
    {format::kernel::matern, "matern"},
    {format::kernel::rational_quadratic, "rational-quadratic"},
    {format::kernel::laplacian, "laplacian"},
};

// The projections' names are their rows' in the one list of projections.
constexpr name_entry<format::projection> projection_names[] = {
#define KFM_PROJECTION(kind, KIND, name, file, kernels) {format::projection::kind, name},
#include "runtime/projection_list.def"
#undef KFM_PROJECTION
};

template <class E, std::size_t N>
const char* name_of(const name_entry<E> (&table)[N], E id) {
    for (const auto& e : table)
        if (e.id == id) return e.name;
    return "unknown";
}

template <class E, std::size_t N>
bool id_of(const name_entry<E> (&table)[N], const char* name, E* out) {
    if (name == nullptr || out == nullptr) return false;
    for (const auto& e : table) {
        if (std::strcmp(e.name, name) == 0) {
            *out = e.id;
            return true;
        }
    }
    return false;
}

}  // namespace

const char* version() noexcept { return KFM_VERSION_STRING; }

const char* method_name(format::method m) noexcept { return name_of(method_names, m); }
const char* kernel_name(format::kernel k) noexcept { return name_of(kernel_names, k); }
const char* projection_name(format::projection p) noexcept { return name_of(projection_names, p); }

status method_from_name(const char* name, format::method* out) noexcept {
    return id_of(method_names, name, out) ? status::ok : status::unknown_method;
}

status kernel_from_name(const char* name, format::kernel* out) noexcept {
    return id_of(kernel_names, name, out) ? status::ok : status::unknown_kernel;
}

const char* status_string(status s) noexcept {
    switch (s) {
#define KFM_STATUS_TEXT(name, c_name, text) \
    case status::name: return text;
        KFM_STATUS_LIST(KFM_STATUS_TEXT)
#undef KFM_STATUS_TEXT
    }
    return "unknown status";
}

}  // namespace kfm
