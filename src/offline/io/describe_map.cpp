// What a verified .kfm file holds, as text or one JSON object (kfm/offline/describe.hpp).
#include "kfm/offline/describe.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <span>

#include "kfm/build_registry.hpp"
#include "kfm/offline.hpp"
#include "offline/io/json.hpp"
#include "offline/io/open_map_reader.hpp"

namespace kfm::offline {
namespace {

// Names of the format enums ("?" for unknown values; the projections' are the runtime's,
// kfm::projection_name, "unknown" for an unknown one).
const char* projection_name(std::uint32_t p) { return kfm::projection_name(static_cast<format::projection>(p)); }

const char* output_convention_name(std::uint32_t c) {
    switch (static_cast<format::output_convention>(c)) {
        case format::output_convention::paired_cos_sin: return "paired-cos-sin";
        case format::output_convention::cos_phase: return "cos-phase";
        case format::output_convention::real: return "real";
    }
    return "?";
}

const char* nonlinearity_name(std::uint32_t n) {
    switch (static_cast<format::nonlinearity>(n)) {
        case format::nonlinearity::cos_sin: return "cos-sin";
        case format::nonlinearity::cos_phase: return "cos-phase";
        case format::nonlinearity::relu: return "relu";
        case format::nonlinearity::step: return "step";
        case format::nonlinearity::relu2: return "relu2";
        case format::nonlinearity::identity: return "identity";
        case format::nonlinearity::product: return "product";
    }
    return "?";
}

const char* dtype_name(std::uint32_t t) {
    switch (static_cast<format::dtype>(t)) {
        case format::dtype::u8: return "u8";
        case format::dtype::u16: return "u16";
        case format::dtype::u32: return "u32";
        case format::dtype::i32: return "i32";
        case format::dtype::f32: return "f32";
        case format::dtype::f64: return "f64";
        case format::dtype::bits: return "bits";
        case format::dtype::record: return "record";
        case format::dtype::i8: return "i8";
    }
    return "?";
}

std::string tag_name(std::uint32_t tag) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const char c = static_cast<char>((tag >> (8 * i)) & 0xff);
        s.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return s;
}

// printf-style formatting appended to `out`.
[[gnu::format(printf, 2, 3)]] void append_formatted(std::string& out, const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    if (length > 0) {
        std::string piece(static_cast<std::size_t>(length) + 1, '\0');
        std::vsnprintf(piece.data(), piece.size(), format, again);
        piece.pop_back();
        out += piece;
    }
    va_end(again);
}

struct kernel_parameters {
    std::string text;  // "sigma 4"
    std::string json;  // {"sigma": 4}
};

kernel_parameters describe_kernel(const kfm::map& v) {
    const format::map_meta& m = map_meta_of(v);
    switch (static_cast<format::kernel>(m.kernel)) {
        case format::kernel::gaussian:
            return {"sigma " + json_number(m.kernel_sigma), "{\"sigma\": " + json_number(m.kernel_sigma) + "}"};
        case format::kernel::arccos:
            return {"order " + std::to_string(m.kernel_order), "{\"order\": " + std::to_string(m.kernel_order) + "}"};
        case format::kernel::polynomial_sphere:
            return {"degree " + std::to_string(m.kernel_order) + ", scale " + json_number(m.kernel_scale),
                    "{\"degree\": " + std::to_string(m.kernel_order) + ", \"scale\": " + json_number(m.kernel_scale) +
                        "}"};
        case format::kernel::matern:
            return {"length " + json_number(m.kernel_sigma) + ", nu " + json_number(m.kernel_scale),
                    "{\"length\": " + json_number(m.kernel_sigma) + ", \"nu\": " + json_number(m.kernel_scale) + "}"};
        case format::kernel::rational_quadratic:
            return {"length " + json_number(m.kernel_sigma) + ", alpha " + json_number(m.kernel_scale),
                    "{\"length\": " + json_number(m.kernel_sigma) + ", \"alpha\": " + json_number(m.kernel_scale) +
                        "}"};
        case format::kernel::laplacian:
            return {"sigma " + json_number(m.kernel_sigma), "{\"sigma\": " + json_number(m.kernel_sigma) + "}"};
        case format::kernel::delta_gaussian: {
            const std::span<const double> params = kernel_params_of(v);
            const std::vector<double> w(params.begin(), params.begin() + m.mixture_count);
            const std::vector<double> s(params.begin() + m.mixture_count, params.begin() + 2 * m.mixture_count);
            const auto list = [](const std::vector<double>& values) {
                std::string out;
                for (std::size_t i = 0; i < values.size(); ++i) {
                    if (i) out.push_back(',');
                    out.append(json_number(values[i]));
                }
                return out;
            };
            return {"weights " + list(w) + ", sigmas " + list(s), "{\"weights\": " + json_array(w) + ", \"sigmas\": " + json_array(s) + "}"};
        }
    }
    return {"", "{}"};
}

const char* task_name(format::task_kind t) {
    switch (t) {
        case format::task_kind::regression: return "regression";
        case format::task_kind::binary: return "binary";
        case format::task_kind::multiclass: return "multiclass";
        default: return "none";
    }
}

// The model sections: preprocessing and the linear head (task, k, labels and their type), as text lines and JSON members.
kernel_parameters describe_model(const kfm::map& v) {
    const bool has_prep = v.has_preprocessing();
    const char* prep = has_prep ? "shift/scale per input (PREP)" : "none";
    std::string text = "preprocessing     " + std::string(prep) + "\n";
    std::string json = ", \"preprocessing\": " + std::string(has_prep ? "\"shift-scale\"" : "null");
    if (v.task() == format::task_kind::none) {
        text += "head              none (a map: 'kfm fit' adds one)\n";
        return {text, json + ", \"head\": null"};
    }
    const bool int8 = has_int8_head(v);
    const std::string type = label_type_name(label_type_of(v));  // the labels' type where they were trained
    std::string labels_text, labels_json = "[";
    for (std::uint32_t i = 0; i < v.class_count(); ++i) {
        if (i != 0) {
            labels_text += ",";
            labels_json += ", ";
        }
        labels_text += std::to_string(v.class_label(i));
        labels_json += std::to_string(v.class_label(i));
    }
    labels_json += "]";
    text += "head              " + std::string(task_name(v.task())) + ", " + std::to_string(v.head_outputs()) +
            " output(s) over " + std::to_string(v.output_dim()) + " features" +
            (int8 ? ", int8 weights with a scale per output (HDI8, HSCL)" : "") +
            (v.class_count() != 0 ? ", labels " + labels_text + " (" + type + ")" : "") + "\n";
    json += ", \"head\": {\"task\": " + json_string(task_name(v.task())) + ", \"outputs\": " +
            std::to_string(v.head_outputs()) + ", \"weights\": " + json_string(int8 ? "int8" : "f32") +
            ", \"labels\": " + labels_json +
            (v.class_count() != 0 ? ", \"label_type\": " + json_string(type) : "") + "}";
    return {text, json};
}

// The format version and section table of a file kfm::open verified (so they can be read directly).
struct container {
    std::string version;
    std::vector<format::section_entry> sections;
};
container read_container(const void* bytes) {
    format::file_header header;
    std::memcpy(&header, bytes, sizeof header);
    container c;
    c.version = std::to_string(header.version_major) + "." + std::to_string(header.version_minor);
    c.sections.resize(header.section_count);
    std::memcpy(c.sections.data(), static_cast<const std::uint8_t*>(bytes) + header.section_table_offset,
                c.sections.size() * sizeof(format::section_entry));
    return c;
}

// The method registry's row of the map's method when it records an option's value in radial_points
// (gq: its Gauss-Hermite nodes per coordinate); nullptr otherwise.
const offline::method_row* recording_method(const format::map_meta& m) {
    const offline::method_row* row = offline::find_method(static_cast<format::method>(m.method));
    return row != nullptr && row->recorded_option_label != nullptr ? row : nullptr;
}

std::string recorded_option_text(const format::map_meta& m) {
    const offline::method_row* row = recording_method(m);
    if (row == nullptr) return "";
    return " (" + std::to_string(m.radial_points) + " " + row->recorded_option_label + ")";
}

// maclaurin-opt's allocation fitted to the data, as (degree, features) pairs: the constant (degree 0), the
// identity segment's linear terms (degree 1), the product segments of each degree (a block product's
// proj_count / block_size, or an indexed product's group length; one entry per degree, its passes summed).
// Empty for other methods.
std::vector<std::pair<std::uint32_t, std::uint32_t>> maclaurin_degrees(const kfm::map& v, const format::map_meta& m) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    if (m.method != static_cast<std::uint32_t>(format::method::maclaurin_opt)) return out;
    out.push_back({0, 1});
    const std::span<const std::uint32_t> groups = groups_of(v);
    for (const format::feature_segment& s : segments_of(v)) {
        std::uint32_t degree = 1;
        if ((s.flags & format::segment_flag_block_product) != 0)
            degree = s.proj_count / m.block_size;
        else if (s.nonlinearity == static_cast<std::uint32_t>(format::nonlinearity::product))
            degree = groups[s.group_index + 1] - groups[s.group_index];
        if (out.back().first == degree)
            out.back().second += s.arg_count;
        else
            out.push_back({degree, s.arg_count});
    }
    return out;
}

}  // namespace

std::string describe_map_json(const map_file& file, const std::string& name) {
    const kfm::map& v = file.view;
    const format::map_meta& m = map_meta_of(v);
    const container c = read_container(file.bytes());
    const std::vector<format::section_entry>& sections = c.sections;
    const std::string& version = c.version;
    const bool normalizes = (m.flags & format::meta_flag_normalize_input) != 0;

    std::string j = "{";
    j += "\"file\": " + json_string(name);
    j += ", \"file_bytes\": " + std::to_string(file.size());
    j += ", \"workspace_bytes\": " + std::to_string(kfm::workspace_bytes(v));  // per vector, docs/embedding.md
    j += ", \"format_version\": " + json_string(version);
    j += ", \"method\": " + json_string(offline::method_name(static_cast<format::method>(m.method)));
    if (const offline::method_row* row = recording_method(m))
        j += ", " + json_string(offline::option_text(row->recorded_option, offline::spelling::python)) + ": " +
             std::to_string(m.radial_points);
    if (const auto degrees = maclaurin_degrees(v, m); !degrees.empty()) {
        j += ", \"degree_features\": {";
        for (std::size_t i = 0; i < degrees.size(); ++i)
            j += std::string(i ? ", " : "") + json_string(std::to_string(degrees[i].first)) + ": " + std::to_string(degrees[i].second);
        j += "}";
    }
    j += ", \"kernel\": " + json_string(offline::kernel_name(static_cast<format::kernel>(m.kernel)));
    j += ", \"kernel_params\": " + describe_kernel(v).json;
    j += ", \"input_dim\": " + std::to_string(m.input_dim);
    j += ", \"output_dim\": " + std::to_string(m.output_dim);
    j += ", \"negative_dim\": " + std::to_string(m.negative_dim);
    j += ", \"work_dim\": " + std::to_string(m.work_dim);
    j += ", \"projection_dim\": " + std::to_string(m.projection_dim);
    j += ", \"projection\": " + json_string(projection_name(m.projection));
    j += ", \"output_convention\": " + json_string(output_convention_name(m.output_convention));
    j += ", \"normalize_input\": " + std::string(normalizes ? "true" : "false");
    // maclaurin-opt's gaussian: its PREP centres the input for the prefactor, part of the map (not a model's scaler).
    j += ", \"gaussian_prefactor\": " + std::string((m.flags & format::meta_flag_gaussian_prefactor) != 0 ? "true" : "false");
    // Whether rows can get all-zero features where the kernel's k(x, x) > 0 (kfm/offline/vanishing_features.hpp).
    j += ", \"features_can_vanish\": " + std::string(features_can_vanish(v) ? "true" : "false");
    j += ", \"seed\": " + std::to_string(m.seed);
    j += ", \"isa\": " + json_string(kfm::isa_name(v.active_isa()));
    j += describe_model(v).json;
    j += ", \"segments\": [";
    const std::span<const format::feature_segment> segments = segments_of(v);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const format::feature_segment& s = segments[i];
        j += std::string(i ? ", " : "") + "{\"nonlinearity\": " + json_string(nonlinearity_name(s.nonlinearity)) +
             ", \"proj_begin\": " + std::to_string(s.proj_begin) + ", \"proj_count\": " +
             std::to_string(s.proj_count) + ", \"arg_count\": " + std::to_string(s.arg_count) +
             ", \"out_begin\": " + std::to_string(s.out_begin) + ", \"reflect\": " +
             ((s.flags & format::segment_flag_reflect) ? "true" : "false") + "}";
    }
    j += "], \"sections\": [";
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const auto& s = sections[i];
        j += std::string(i ? ", " : "") + "{\"tag\": " + json_string(tag_name(s.tag)) +
             ", \"dtype\": " + json_string(dtype_name(s.dtype)) + ", \"count\": " + std::to_string(s.count) +
             ", \"bytes\": " + std::to_string(s.bytes) + ", \"offset\": " + std::to_string(s.offset) + "}";
    }
    j += "]}";
    return j;
}

std::string describe_map_text(const map_file& file, const std::string& name) {
    const kfm::map& v = file.view;
    const format::map_meta& m = map_meta_of(v);
    const container c = read_container(file.bytes());
    const std::vector<format::section_entry>& sections = c.sections;
    const std::string& version = c.version;
    const std::string method = offline::method_name(static_cast<format::method>(m.method));
    const std::string kernel = offline::kernel_name(static_cast<format::kernel>(m.kernel));
    const kernel_parameters params = describe_kernel(v);
    const bool normalizes = (m.flags & format::meta_flag_normalize_input) != 0;
    const kernel_parameters model = describe_model(v);

    std::string t;
    append_formatted(t, "file              %s (%zu bytes, format %s)\n", name.c_str(), file.size(), version.c_str());
    append_formatted(t, "workspace         %zu bytes per vector%s\n", kfm::workspace_bytes(v),
                     v.task() != format::task_kind::none ? " (transform or predict; phi and the scores included)" : "");
    append_formatted(t, "method            %s%s\n", method.c_str(), recorded_option_text(m).c_str());
    if (const auto degrees = maclaurin_degrees(v, m); !degrees.empty()) {
        std::string list;
        for (const auto& [degree, count] : degrees) list += (list.empty() ? "" : ", ") + std::to_string(degree) + ": " + std::to_string(count);
        append_formatted(t, "degrees           %s (features per Maclaurin degree, fitted to the data)\n", list.c_str());
    }
    append_formatted(t, "kernel            %s (%s)\n", kernel.c_str(), params.text.c_str());
    append_formatted(t, "input_dim         %u%s\n", m.input_dim, normalizes ? " (inputs scaled to unit norm)" : "");
    append_formatted(t, "output_dim        %u\n", m.output_dim);
    append_formatted(t, "negative_dim      %u (the last %u features have signature -1)\n", m.negative_dim,
                     m.negative_dim);
    append_formatted(t, "projection        %s (work_dim %u, projection_dim %u)\n", projection_name(m.projection),
                     m.work_dim, m.projection_dim);
    append_formatted(t, "output convention %s\n", output_convention_name(m.output_convention));
    if (features_can_vanish(v))
        t += "all-zero features possible for rows where k(x, x) > 0 (docs/reliability.md): kfm map, predict and "
             "score count them\n";
    append_formatted(t, "seed              %llu\n", static_cast<unsigned long long>(m.seed));
    append_formatted(t, "isa               %s\n", kfm::isa_name(v.active_isa()));
    t += model.text;
    const std::span<const format::feature_segment> segments = segments_of(v);
    append_formatted(t, "segments          %llu\n", static_cast<unsigned long long>(segments.size()));
    for (const format::feature_segment& s : segments)
        append_formatted(t, "  %-9s projections [%u, %u), %u arguments, outputs from %u%s\n",
                         nonlinearity_name(s.nonlinearity), s.proj_begin, s.proj_begin + s.proj_count, s.arg_count,
                         s.out_begin, (s.flags & format::segment_flag_reflect) ? ", reflected" : "");
    append_formatted(t, "sections          %zu\n", sections.size());
    for (const auto& s : sections)
        append_formatted(t, "  %s %-6s count %-10llu bytes %-10llu offset %llu\n", tag_name(s.tag).c_str(),
                         dtype_name(s.dtype), static_cast<unsigned long long>(s.count),
                         static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.offset));
    return t;
}

}  // namespace kfm::offline
