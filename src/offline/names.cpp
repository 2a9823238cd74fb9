// Names of methods and kernels as the CLI and reports spell them, and the reverse lookups.
#include <string>

#include "kfm/offline.hpp"

namespace kfm::offline {
namespace {

struct method_entry {
    format::method id;
    const char* name;
};
constexpr method_entry method_names[] = {
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
};

struct kernel_entry {
    format::kernel id;
    const char* name;
};
constexpr kernel_entry kernel_names[] = {
    {format::kernel::gaussian, "gaussian"},
    {format::kernel::arccos, "arccos"},
    {format::kernel::polynomial_sphere, "polynomial-sphere"},
    {format::kernel::delta_gaussian, "delta-gaussian"},
};

}  // namespace

const char* method_name(format::method m) {
    for (const auto& e : method_names)
        if (e.id == m) return e.name;
    return "unknown";
}

const char* kernel_name(format::kernel k) {
    for (const auto& e : kernel_names)
        if (e.id == k) return e.name;
    return "unknown";
}

bool method_from_name(const std::string& name, format::method* out) {
    for (const auto& e : method_names) {
        if (name == e.name) {
            if (out != nullptr) *out = e.id;
            return true;
        }
    }
    return false;
}

bool kernel_from_name(const std::string& name, format::kernel* out) {
    for (const auto& e : kernel_names) {
        if (name == e.name) {
            if (out != nullptr) *out = e.id;
            return true;
        }
    }
    return false;
}

}  // namespace kfm::offline
