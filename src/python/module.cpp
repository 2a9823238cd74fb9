// The `kfm._kfm` extension module: the runtime (open, transform, predict, kernel_estimate) and the offline
// tooling of the public offline API (kfm/offline.hpp: build, model files, bandwidths, exact kernels, C
// headers, the description inspect_json reports) for the Python package in python/kfm, which adds the
// user-facing classes. Arrays cross the boundary as float32 C-contiguous buffers read and written in
// place; the Python layer converts other dtypes and orders. Long calls release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kfm/build_registry.hpp"
#include "kfm/kfm.hpp"
#include "kfm/offline.hpp"

namespace py = pybind11;

namespace {

using f32_array = py::array_t<float>;

// A 2-D float32 C-contiguous array with `cols` columns (any when cols == 0): TypeError or ValueError
// otherwise, so the caller's buffer is used as it is, never silently copied.
void require_rows(const py::array& a, const char* name, std::size_t cols, bool writable) {
    if (!py::isinstance<f32_array>(a) || !(a.flags() & py::array::c_style))
        throw py::type_error(std::string(name) + " must be a float32 C-contiguous array");
    if (a.ndim() != 2) throw py::value_error(std::string(name) + " must be 2-D, got " + std::to_string(a.ndim()) + "-D");
    if (cols != 0 && std::size_t(a.shape(1)) != cols)
        throw py::value_error(std::string(name) + " has " + std::to_string(a.shape(1)) + " columns, expected " +
                              std::to_string(cols));
    if (writable && !a.writeable()) throw py::value_error(std::string(name) + " is read-only");
}

const char* task_name(kfm::format::task_kind t) {
    switch (t) {
        case kfm::format::task_kind::regression: return "regression";
        case kfm::format::task_kind::binary: return "binary";
        case kfm::format::task_kind::multiclass: return "multiclass";
        default: return nullptr;
    }
}

// The bytes of a Python bytes object opened as a verified .kfm file; ValueError naming open's status.
kfm::offline::map_file opened(const py::bytes& data, kfm::isa requested = kfm::isa::automatic) {
    const std::string_view view = data;
    try {
        return kfm::offline::open_map_bytes(reinterpret_cast<const std::uint8_t*>(view.data()), view.size(), "bytes",
                                            requested);
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
}

kfm::isa isa_named(const std::string& isa_name) {
    kfm::isa requested = kfm::isa::automatic;
    if (kfm::isa_from_name(isa_name.c_str(), &requested) != kfm::status::ok)
        throw py::value_error("unknown isa '" + isa_name + "'");
    return requested;
}

// A verified .kfm file: its bytes (owned) and the opened map.
class py_map {
public:
    py_map(const py::bytes& data, const std::string& isa_name) : file_(opened(data, isa_named(isa_name))) {}

    py_map(const py_map&) = delete;
    py_map& operator=(const py_map&) = delete;

    const kfm::map& map() const { return map_; }
    py::bytes data() const { return py::bytes(static_cast<const char*>(file_.bytes()), file_.size()); }
    // kfm inspect --json's report.
    std::string inspect_json(const std::string& path) const { return kfm::offline::describe_map_json(file_, path); }

    void transform(const py::array& x, py::array& out, unsigned threads) const {
        require_rows(x, "X", map_.input_dim(), false);
        require_rows(out, "out", map_.output_dim(), true);
        if (out.shape(0) != x.shape(0)) throw py::value_error("out must have as many rows as X");
        const float* xp = static_cast<const float*>(x.data());
        float* op = static_cast<float*>(out.mutable_data());
        const std::size_t n = std::size_t(x.shape(0));
        std::string error;
        {
            py::gil_scoped_release release;
            try {
                kfm::offline::map_rows_parallel(map_, xp, n, map_.input_dim(), op, threads);
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        if (!error.empty()) throw py::value_error(error);
    }

    void predict(const py::array& x, py::array& scores, py::array& labels) const {
        require_rows(x, "X", map_.input_dim(), false);
        require_rows(scores, "scores", map_.head_outputs(), true);
        if (!py::isinstance<py::array_t<std::int32_t>>(labels) || labels.ndim() != 1 || !labels.writeable() ||
            !(labels.flags() & py::array::c_style))
            throw py::type_error("labels must be a writable 1-D int32 array");
        const std::size_t n = std::size_t(x.shape(0));
        if (std::size_t(scores.shape(0)) != n || std::size_t(labels.shape(0)) != n)
            throw py::value_error("scores and labels must have as many rows as X");
        if (n == 0) return;
        const float* xp = static_cast<const float*>(x.data());
        float* sp = static_cast<float*>(scores.mutable_data());
        auto* lp = static_cast<std::int32_t*>(labels.mutable_data());
        kfm::status s;
        {
            py::gil_scoped_release release;
            const std::size_t batch = 64;
            std::vector<unsigned char> workspace(kfm::workspace_bytes(map_, batch));
            s = kfm::predict_batch(map_, xp, n, map_.input_dim(), map_.input_dim(), sp, map_.head_outputs(),
                                   map_.class_count() != 0 ? lp : nullptr, workspace.data(), workspace.size());
        }
        if (s != kfm::status::ok) throw py::value_error(std::string("predict refused X: ") + kfm::status_string(s));
    }

    // offline::vanished_rows: how many rows of phi (transform's output for x) are all 0 where k(x, x) > 0.
    std::size_t vanished_rows(const py::array& x, const py::array& phi) const {
        require_rows(x, "X", map_.input_dim(), false);
        require_rows(phi, "phi", map_.output_dim(), false);
        if (phi.shape(0) != x.shape(0)) throw py::value_error("phi must have as many rows as X");
        return kfm::offline::vanished_rows(map_, static_cast<const float*>(x.data()),
                                           static_cast<const float*>(phi.data()), std::size_t(x.shape(0)));
    }

    // offline::vanished_predictions: the same for the rows of x predict gave `scores`, mapping only the
    // rows that score the head's bias exactly.
    std::size_t vanished_predictions(const py::array& x, const py::array& scores) const {
        require_rows(x, "X", map_.input_dim(), false);
        require_rows(scores, "scores", map_.head_outputs(), false);
        if (scores.shape(0) != x.shape(0)) throw py::value_error("scores must have as many rows as X");
        const float* xp = static_cast<const float*>(x.data());
        const float* sp = static_cast<const float*>(scores.data());
        const std::size_t n = std::size_t(x.shape(0));
        std::size_t count = 0;
        std::string error;
        {
            py::gil_scoped_release release;
            try {
                count = kfm::offline::vanished_predictions(map_, xp, sp, n);
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        if (!error.empty()) throw py::value_error(error);
        return count;
    }

    double kernel_estimate(const py::array& phi_x, const py::array& phi_y) const {
        for (const py::array* a : {&phi_x, &phi_y})
            if (!py::isinstance<f32_array>(*a) || a->ndim() != 1 || !(a->flags() & py::array::c_style) ||
                std::size_t(a->shape(0)) != map_.output_dim())
                throw py::value_error("kernel_estimate needs two float32 vectors of output_dim = " +
                                      std::to_string(map_.output_dim()) + " values");
        return kfm::kernel_estimate(map_, static_cast<const float*>(phi_x.data()),
                                    static_cast<const float*>(phi_y.data()));
    }

    // The exact kernel the map approximates, k(x_i, y_j), on the inputs as given.
    py::array_t<double> exact_gram(const py::array& x, const py::array& y) const {
        require_rows(x, "X", map_.input_dim(), false);
        require_rows(y, "Y", map_.input_dim(), false);
        const std::size_t nx = std::size_t(x.shape(0)), ny = std::size_t(y.shape(0));
        std::vector<double> k;
        {
            py::gil_scoped_release release;
            k = kfm::offline::exact_gram(kfm::offline::kernel_spec_from_map(map_), static_cast<const float*>(x.data()),
                                         nx, static_cast<const float*>(y.data()), ny, map_.input_dim(),
                                         kfm::offline::map_normalizes_input(map_));
        }
        py::array_t<double> out({nx, ny});
        if (!k.empty()) std::memcpy(out.mutable_data(), k.data(), k.size() * sizeof(double));
        return out;
    }

    py::object task() const {
        const char* t = task_name(map_.task());
        return t != nullptr ? py::object(py::str(t)) : py::object(py::none());
    }
    // NumPy's name of the type the labels were trained in (LTYP; "int32" when the file does not say).
    std::string label_type() const { return kfm::offline::label_type_name(kfm::offline::label_type_of(map_)); }
    std::vector<std::int32_t> class_labels() const {
        std::vector<std::int32_t> labels;
        for (std::uint32_t i = 0; i < map_.class_count(); ++i) labels.push_back(map_.class_label(i));
        return labels;
    }

private:
    kfm::offline::map_file file_;
    const kfm::map& map_ = file_.view;  // the opened map (the class is neither copied nor moved)
};

// A keyword value as the option table's text: a flag True (given; False and None are left out by the
// caller), a sequence of numbers comma-joined, a float in its shortest round-trip form, anything else as
// str() gives it (the table's parser then names the option and the value it refuses).
std::string number_text(double v) {
    char text[32];
    const auto r = std::to_chars(text, text + sizeof text, v);
    return std::string(text, r.ptr);
}

std::string option_text(const kfm::offline::option_row& row, const std::string& name, const py::handle& value) {
    using kfm::offline::option_type;
    if (row.type == option_type::flag) {
        if (!py::isinstance<py::bool_>(value))
            throw py::value_error(name + " takes True or False, got " + std::string(py::repr(value)));
        return "";
    }
    if (py::isinstance<py::bool_>(value)) return std::string(py::str(value));
    if (row.type == option_type::reals && !py::isinstance<py::str>(value) && py::isinstance<py::iterable>(value)) {
        std::string out;
        for (const py::handle item : value) out += (out.empty() ? "" : ",") + number_text(item.cast<double>());
        return out;
    }
    const bool is_float = py::isinstance<py::float_>(value) ||
                          py::isinstance(value, py::module_::import("numpy").attr("floating"));
    if (is_float && (row.type == option_type::real || row.type == option_type::reals))
        return number_text(value.cast<double>());
    return std::string(py::str(value));
}

// FeatureMap's options by their Python names (method, kernel, input_dim, features or landmarks,
// radial_points=2, resample_radii=True, ...; None and False left out) and, for a method that chooses
// landmarks from data, its rows (float32 C-contiguous) -> the verified file's bytes. The offline option
// table checks them as kfm build does, naming options as Python spells them.
py::bytes build_map(const py::dict& options, const py::object& data) {
    namespace off = kfm::offline;
    std::vector<std::uint8_t> bytes;
    try {
        std::vector<std::pair<std::string, off::option_value>> given;
        for (const auto& [key, value] : options) {
            const std::string name = py::str(key);
            if (value.is_none() || (py::isinstance<py::bool_>(value) && !value.cast<bool>())) continue;
            const off::option_row* row = off::find_option(name, off::spelling::python);
            given.push_back({name, {row != nullptr ? option_text(*row, name, value) : std::string()}});
        }
        py::array_t<float, py::array::c_style | py::array::forcecast> rows;
        if (!data.is_none()) {
            const py::array array = data.cast<py::array>();
            require_rows(array, "data", 0, false);
            if (array.shape(0) == 0) throw py::value_error("data must have at least one row");
            rows = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(array);
        }
        const off::build_options built = off::build_options_from(
            given, off::spelling::python, data.is_none() ? nullptr : rows.data(),
            data.is_none() ? 0 : std::size_t(rows.shape(0)), data.is_none() ? 0 : std::size_t(rows.shape(1)));
        py::gil_scoped_release release;
        bytes = off::serialize_verified(off::build_map(built));
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
    return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::vector<std::string> kernel_names(std::uint32_t bits) {
    std::vector<std::string> names;
    for (kfm::format::kernel k : kfm::offline::kernels_in(bits)) names.emplace_back(kfm::kernel_name(k));
    return names;
}

// The option table and the method registry as Python values, for the kfm package's option lists
// (kfm.sklearn) and its method special cases.
py::list option_table() {
    py::list out;
    for (const kfm::offline::option_row& r : kfm::offline::option_table()) {
        py::dict row;
        row["name"] = kfm::offline::option_text(r.id, kfm::offline::spelling::python);
        row["command_line"] = kfm::offline::option_text(r.id, kfm::offline::spelling::command_line);
        static const char* const types[] = {"flag", "count", "seed", "real", "reals", "choice", "path"};
        row["type"] = types[static_cast<int>(r.type)];
        row["choices"] = std::vector<std::string>(r.choices.begin(), r.choices.end());
        row["default"] = r.default_text;
        static const char* const groups[] = {"general", "kernel", "method"};
        row["group"] = groups[static_cast<int>(r.group)];
        row["kernels"] = kernel_names(r.kernels);
        row["help"] = r.help;
        out.append(row);
    }
    return out;
}

py::list method_table() {
    py::list out;
    for (const kfm::offline::method_row& m : kfm::offline::method_table()) {
        py::dict row;
        row["name"] = kfm::method_name(m.id);
        row["summary"] = m.summary;
        std::vector<std::string> options;
        for (kfm::offline::option o : m.options)
            options.push_back(kfm::offline::option_text(o, kfm::offline::spelling::python));
        row["kernels"] = kernel_names(m.kernels);
        row["options"] = options;
        row["landmarks_from_data"] = m.landmarks_from_data;
        row["fitted_to_data"] = m.fitted_to_data;
        out.append(row);
    }
    return out;
}

std::vector<float> to_floats(const py::array& a, const char* name, std::size_t expected) {
    const auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!f || std::size_t(f.size()) != expected)
        throw py::value_error(std::string(name) + " must have " + std::to_string(expected) + " values");
    return std::vector<float>(f.data(), f.data() + f.size());
}

// A model file: the map part of `map_bytes` with PREP (when shift/scale are given) and a linear head.
py::bytes model_bytes(const py::bytes& map_bytes, const py::object& shift, const py::object& scale,
                      const std::string& task, const py::array& weights, const py::array& bias,
                      const std::vector<std::int32_t>& labels, const std::string& head_dtype,
                      const std::string& label_type) {
    const kfm::offline::map_file file = opened(map_bytes);
    const kfm::map& map = file.view;
    try {
        kfm::offline::map_contents contents = kfm::offline::map_part(file.storage.data(), file.storage.size());
        if (!shift.is_none() || !scale.is_none()) {
            if (shift.is_none() || scale.is_none()) throw py::value_error("shift and scale go together");
            kfm::offline::input_scaling scaling;
            scaling.shift = to_floats(shift.cast<py::array>(), "shift", map.input_dim());
            scaling.scale = to_floats(scale.cast<py::array>(), "scale", map.input_dim());
            kfm::offline::add_preprocessing(contents, scaling);
        }
        kfm::offline::linear_head head;
        if (task == "regression") head.kind = kfm::format::task_kind::regression;
        else if (task == "binary") head.kind = kfm::format::task_kind::binary;
        else if (task == "multiclass") head.kind = kfm::format::task_kind::multiclass;
        else throw py::value_error("task must be regression, binary or multiclass, not '" + task + "'");
        if (weights.ndim() != 2) throw py::value_error("weights must be 2-D (outputs x output_dim)");
        head.outputs = std::uint32_t(weights.shape(0));
        head.weights = to_floats(weights, "weights", std::size_t(head.outputs) * map.output_dim());
        head.bias = to_floats(bias, "bias", head.outputs);
        head.labels = labels;
        if (!kfm::offline::label_type_from_name(label_type, &head.label_type))
            throw py::value_error("label_type must be a NumPy integer type name (int8 ... uint64), not '" + label_type + "'");
        if (head_dtype == "int8") head.stored_as = kfm::offline::head_dtype::int8;
        else if (head_dtype != "f32") throw py::value_error("head_dtype must be 'f32' or 'int8', not '" + head_dtype + "'");
        kfm::offline::add_head(contents, head);
        const std::vector<std::uint8_t> bytes = kfm::offline::serialize_verified(contents);
        return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
}

// A file name for the C library: one containing NUL would be cut at it by open() (a\0b.kfm naming 'a').
void checked_path(const std::string& path) {
    if (path.find('\0') != std::string::npos)
        throw py::value_error("file name '" + path.substr(0, path.find('\0')) +
                              "\\0...' contains a NUL character, which no file name can hold");
}

py::bytes read_file(const std::string& path) {
    checked_path(path);
    std::vector<std::uint8_t> bytes;
    try {
        bytes = kfm::offline::read_regular_file(path);
    } catch (const std::runtime_error& e) {
        struct stat st;
        if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
            PyErr_SetObject(PyExc_FileNotFoundError, py::make_tuple(ENOENT, std::strerror(ENOENT), path).ptr());
            throw py::error_already_set();
        }
        throw py::value_error(e.what());
    }
    return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// A model file and its C header (kfm export's, same code) written together: both or neither. The name is
// checked before anything is written.
void write_with_c_header(const std::string& path, const py::bytes& data, const std::string& header,
                         const std::string& name) {
    checked_path(path);
    checked_path(header);
    const kfm::offline::map_file file = opened(data);
    try {
        if (const std::string why = kfm::offline::c_header_name_refusal(name); !why.empty())
            throw py::value_error("name '" + name + "' cannot name the header's array: " + why);
        if (kfm::offline::same_destination(path, header))
            throw py::value_error("c_header '" + header + "' is the model file's own path");
        if (header.empty()) throw py::value_error("c_header needs a file name");
        kfm::offline::output_files output;
        output.add(path, file.storage);
        kfm::offline::add_c_header(output, header, file, name);
        output.commit();
    } catch (const std::exception& e) {  // a refused name or path, or a failed write: nothing was written
        throw py::value_error(e.what());
    }
}

double bandwidth(const py::array& x, bool median) {
    require_rows(x, "X", 0, false);
    const auto* p = static_cast<const float*>(x.data());
    try {
        return median ? kfm::offline::median_heuristic_sigma(p, std::size_t(x.shape(0)), std::size_t(x.shape(1)))
                      : kfm::offline::variance_scale_sigma(p, std::size_t(x.shape(0)), std::size_t(x.shape(1)));
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
}

}  // namespace

PYBIND11_MODULE(_kfm, m) {
    m.doc() = "kfm runtime and offline tooling (use the kfm package, not this module)";
    m.def("version", &kfm::version);
    m.def("isa_names", [] {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < kfm::isa_count(); ++i)
            if (kfm::isa_available(kfm::isa_at(i))) names.emplace_back(kfm::isa_name(kfm::isa_at(i)));
        return names;
    });
    m.def("build_map", &build_map, py::arg("options"), py::arg("data") = py::none());
    m.def("option_table", &option_table);
    m.def("method_table", &method_table);
    m.def("model_bytes", &model_bytes, py::arg("map_bytes"), py::arg("shift"), py::arg("scale"), py::arg("task"),
          py::arg("weights"), py::arg("bias"), py::arg("labels"), py::arg("head_dtype") = "f32",
          py::arg("label_type") = "int32");
    m.def("read_file", &read_file);
    m.def("write_file", [](const std::string& path, const py::bytes& data) {
        checked_path(path);
        const std::string_view view = data;
        try {
            kfm::offline::write_file_atomic(path, std::vector<std::uint8_t>(view.begin(), view.end()));
        } catch (const std::exception& e) {
            throw py::value_error(e.what());
        }
    });
    m.def("write_with_c_header", &write_with_c_header, py::arg("path"), py::arg("data"), py::arg("header"),
          py::arg("name"));
    m.def("median_heuristic_sigma", [](const py::array& x) { return bandwidth(x, true); });
    m.def("variance_scale_sigma", [](const py::array& x) { return bandwidth(x, false); });
    m.def("resolve_threads", [](unsigned threads) { return kfm::offline::resolve_thread_count(threads); });

    py::class_<py_map>(m, "Map")
        .def(py::init<const py::bytes&, const std::string&>(), py::arg("data"), py::arg("isa") = "auto")
        .def_property_readonly("input_dim", [](const py_map& p) { return p.map().input_dim(); })
        .def_property_readonly("output_dim", [](const py_map& p) { return p.map().output_dim(); })
        .def_property_readonly("negative_dim", [](const py_map& p) { return p.map().negative_dim(); })
        .def_property_readonly("method", [](const py_map& p) { return kfm::method_name(p.map().method()); })
        .def_property_readonly("kernel", [](const py_map& p) { return kfm::kernel_name(p.map().kernel()); })
        .def_property_readonly("isa", [](const py_map& p) { return kfm::isa_name(p.map().active_isa()); })
        .def_property_readonly("task", &py_map::task)
        .def_property_readonly("head_outputs", [](const py_map& p) { return p.map().head_outputs(); })
        .def_property_readonly("class_labels", &py_map::class_labels)
        .def_property_readonly("label_type", &py_map::label_type)
        .def("workspace_bytes", [](const py_map& p, std::size_t batch) { return kfm::workspace_bytes(p.map(), batch); },
             py::arg("batch") = 1)
        .def("data", &py_map::data)
        .def("inspect_json", &py_map::inspect_json, py::arg("path") = "")
        .def("transform", &py_map::transform, py::arg("x"), py::arg("out"), py::arg("threads"))
        .def("predict", &py_map::predict, py::arg("x"), py::arg("scores"), py::arg("labels"))
        .def("vanished_rows", &py_map::vanished_rows, py::arg("x"), py::arg("phi"))
        .def("vanished_predictions", &py_map::vanished_predictions, py::arg("x"), py::arg("scores"))
        .def("kernel_estimate", &py_map::kernel_estimate)
        .def("exact_gram", &py_map::exact_gram);
}
