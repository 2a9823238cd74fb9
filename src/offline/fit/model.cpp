// The model sections of a .kfm file on the writer's side (docs/format.md, "Model sections").
#include "kfm/offline/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace kfm::offline {

bool is_model_section(std::uint32_t tag) noexcept {
    namespace t = format::tag;
    return tag == t::preprocess || tag == t::task || tag == t::head || tag == t::head_int8 ||
           tag == t::head_scales || tag == t::bias || tag == t::labels || tag == t::label_type;
}

int8_head quantize_head(const std::vector<float>& weights, std::uint32_t outputs) {
    if (outputs == 0 || weights.size() % outputs != 0) throw std::invalid_argument("quantize_head: weights are not k x D");
    const std::size_t d = weights.size() / outputs;
    int8_head q;
    q.weights.resize(weights.size());
    for (std::uint32_t j = 0; j < outputs; ++j) {
        const float* row = weights.data() + j * d;
        float largest = 0.0f;
        for (std::size_t i = 0; i < d; ++i) largest = std::max(largest, std::fabs(row[i]));
        float scale = static_cast<float>(double(largest) / 127.0);
        if (scale == 0.0f) scale = 1.0f;
        q.scales.push_back(scale);
        for (std::size_t i = 0; i < d; ++i) {
            const double level = std::nearbyint(double(row[i]) / double(scale));
            q.weights[j * d + i] = static_cast<std::int8_t>(std::clamp(level, -127.0, 127.0));
        }
    }
    return q;
}

map_contents map_part(const std::uint8_t* bytes, std::size_t size) {
    if (size < sizeof(format::file_header)) throw std::invalid_argument("map_part: not a map file");
    format::file_header h;
    std::memcpy(&h, bytes, sizeof h);
    map_contents map;
    for (std::uint32_t i = 0; i < h.section_count; ++i) {
        format::section_entry e;
        std::memcpy(&e, bytes + h.section_table_offset + i * sizeof(e), sizeof e);
        if (e.offset + e.bytes > size) throw std::invalid_argument("map_part: section outside the file");
        const std::uint8_t* payload = bytes + e.offset;
        if (e.tag == format::tag::meta) {
            std::memcpy(&map.meta, payload, sizeof(map.meta));
            continue;
        }
        if (is_model_section(e.tag) && e.tag != format::tag::preprocess) continue;
        section s;
        s.tag = e.tag;
        s.type = static_cast<format::dtype>(e.dtype);
        s.count = e.count;
        s.bytes.assign(payload, payload + e.bytes);
        map.sections.push_back(std::move(s));
    }
    // PREP stays only where it is part of the map (the gaussian prefactor reads the centred input).
    if ((map.meta.flags & format::meta_flag_gaussian_prefactor) == 0)
        std::erase_if(map.sections, [](const section& s) { return s.tag == format::tag::preprocess; });
    return map;
}

namespace {
constexpr const char* label_type_names[] = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"};
}

const char* label_type_name(format::label_type type) noexcept {
    const unsigned v = static_cast<unsigned>(type);
    return v >= 1 && v <= format::label_type_last ? label_type_names[v - 1] : nullptr;
}

bool label_type_from_name(const std::string& name, format::label_type* type) noexcept {
    for (unsigned v = 1; v <= format::label_type_last; ++v)
        if (name == label_type_names[v - 1]) {
            *type = static_cast<format::label_type>(v);
            return true;
        }
    return false;
}

void add_preprocessing(map_contents& map, const input_scaling& scaling) {
    if (scaling.shift.empty() && scaling.scale.empty()) return;
    const std::size_t d = map.meta.input_dim;
    if (scaling.shift.size() != d || scaling.scale.size() != d)
        throw std::invalid_argument("input scaling: " + std::to_string(d) + " shifts and scales expected");
    for (const section& s : map.sections)
        if (s.tag == format::tag::preprocess)
            throw std::invalid_argument("input scaling: the map carries its own preprocessing (fitted to the data at build), "
                                        "so a scaler does not apply");
    std::vector<float> values(scaling.shift);
    values.insert(values.end(), scaling.scale.begin(), scaling.scale.end());
    map.sections.push_back(make_f32_section(format::tag::preprocess, values));
}

void add_head(map_contents& map, const linear_head& head) {
    format::model_task task{};
    task.kind = static_cast<std::uint32_t>(head.kind);
    task.output_count = head.outputs;
    task.class_count = static_cast<std::uint32_t>(head.labels.size());
    section t{format::tag::task, format::dtype::record, 1, {}};
    t.bytes.resize(sizeof task);
    std::memcpy(t.bytes.data(), &task, sizeof task);
    map.sections.push_back(std::move(t));
    if (head.stored_as == head_dtype::int8) {
        const int8_head q = quantize_head(head.weights, head.outputs);
        section w{format::tag::head_int8, format::dtype::i8, q.weights.size(), {}};
        w.bytes.resize(q.weights.size());
        std::memcpy(w.bytes.data(), q.weights.data(), w.bytes.size());
        map.sections.push_back(std::move(w));
        map.sections.push_back(make_f32_section(format::tag::head_scales, q.scales));
    } else {
        map.sections.push_back(make_f32_section(format::tag::head, head.weights));
    }
    map.sections.push_back(make_f32_section(format::tag::bias, head.bias));
    if (!head.labels.empty()) {
        section l{format::tag::labels, format::dtype::i32, head.labels.size(), {}};
        l.bytes.resize(head.labels.size() * sizeof(std::int32_t));
        std::memcpy(l.bytes.data(), head.labels.data(), l.bytes.size());
        map.sections.push_back(std::move(l));
        // int32 is what a file without LTYP means: such models stay byte-identical to format 1.3's.
        if (head.label_type != format::label_type::i32)
            map.sections.push_back(section{format::tag::label_type, format::dtype::u8, 1,
                                           {static_cast<std::uint8_t>(head.label_type)}});
    }
}

}  // namespace kfm::offline
