// A verified file as a C99 header (kfm/offline/c_header.hpp): the array is streamed to the output, and a
// symbol is refused unless the header compiles beside kfm.h and beside any other exported header.
#include "kfm/offline/c_header.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string_view>

#include "kfm/status_list.h"

namespace kfm::offline {
namespace {

// The macros a header defines are SYMBOL upper-cased followed by these suffixes (none is the end of
// another, so two symbols never share a macro).
constexpr const char* macro_suffixes[] = {"_KFM_H", "_INPUT_DIM", "_OUTPUT_COUNT", "_WORKSPACE_BYTES",
                                          "_FIRMWARE_WORKSPACE_BYTES", "_SIZE", "_ALIGN"};
// C99 guarantees 63 significant characters in an internal identifier or macro name.
constexpr std::size_t max_name_length = 63 - std::string_view("_FIRMWARE_WORKSPACE_BYTES").size();

// Keywords of C (C99, C11 and C23 in their lower-case spellings) and of C++, where firmware also
// includes headers. The _Upper-case keywords are reserved identifiers, refused as such.
constexpr const char* keywords[] = {
    // C99
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    // C23
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local", "true",
    "typeof", "typeof_unqual",
    // C++ (beyond the above)
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class", "compl",
    "concept", "const_cast", "consteval", "constinit", "co_await", "co_return", "co_yield", "decltype", "delete",
    "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
    "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq"};

// What kfm.h declares in lower case (its functions and types; tests/cli/export_cli_test.cpp checks the
// list against the header). Its upper-case names are checked against the macros instead.
constexpr const char* c_api_names[] = {
    "kfm_status", "kfm_map", "kfm_open", "kfm_version", "kfm_is_open", "kfm_input_dim", "kfm_output_dim",
    "kfm_negative_dim", "kfm_isa", "kfm_method_name", "kfm_kernel_name", "kfm_projection_name",
    "kfm_workspace_bytes", "kfm_transform", "kfm_transform_batch", "kfm_task", "kfm_head_outputs",
    "kfm_class_count", "kfm_class_label", "kfm_has_preprocessing", "kfm_predict", "kfm_predict_batch",
    "kfm_kernel_estimate", "kfm_status_string", "kfm_isa_count", "kfm_isa_name_at", "kfm_isa_available"};

// kfm.h's macros and enumerators: its include guards, the status list and its constants KFM_OK, ...
#define KFM_EXPORT_STATUS_NAME(name, c_name, text) "KFM_" #c_name,
constexpr const char* c_api_macros[] = {"KFM_KFM_H", "KFM_STATUS_LIST_H", "KFM_STATUS_LIST", "KFM_C_STATUS",
                                        "KFM_STATUS_COUNT", KFM_STATUS_LIST(KFM_EXPORT_STATUS_NAME)};
#undef KFM_EXPORT_STATUS_NAME

// Names a translation unit that includes kfm.h (so <stddef.h> and <stdint.h>) already has, and main.
// Every other name ending in _t is refused as POSIX reserves them (size_t, uint8_t, ...).
constexpr const char* standard_names[] = {"main", "offsetof"};

template <std::size_t n>
bool listed(const char* const (&names)[n], const std::string& name) {
    return std::find(std::begin(names), std::end(names), std::string_view(name)) != std::end(names);
}

std::string upper_case(const std::string& name) {
    std::string upper;
    for (char c : name) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    return upper;
}

}  // namespace

std::string c_header_name_refusal(const std::string& name) {
    if (name.empty()) return "it is empty";
    if (std::isdigit(static_cast<unsigned char>(name[0]))) return "a C identifier cannot start with a digit";
    for (char c : name)
        if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_')
            return std::isupper(static_cast<unsigned char>(c))
                       ? "it must be lower case: its macros are its upper-case form (kfm_model gives "
                         "KFM_MODEL_SIZE), so names that differ only in case would share them"
                       : "it must be a C identifier of lower-case letters, digits and _";
    if (name.size() > max_name_length)
        return "it is longer than " + std::to_string(max_name_length) + " characters (C99 guarantees 63 "
               "significant characters, and " + upper_case(name) + "_FIRMWARE_WORKSPACE_BYTES must fit)";
    if (name[0] == '_') return "names starting with _ are reserved for the C implementation at file scope";
    if (name.find("__") != std::string::npos) return "names containing __ are reserved for the implementation";
    if (listed(keywords, name)) return "it is a C or C++ keyword";
    if (listed(c_api_names, name)) return "kfm.h declares it";
    if (listed(standard_names, name)) return "the C library or the program already uses it";
    if (name.size() >= 2 && name.compare(name.size() - 2, 2, "_t") == 0)
        return "names ending in _t are reserved for types (POSIX; size_t, uint8_t)";
    for (const char* suffix : macro_suffixes)
        if (listed(c_api_macros, upper_case(name) + suffix))
            return "its macro " + upper_case(name) + suffix + " is one kfm.h defines";
    return "";
}

namespace {

// The header, handed to `write` piece by piece (the array one 16-byte line at a time).
void write_header(const map_file& file, const std::string& name, const std::function<void(std::string_view)>& write) {
    const kfm::map& m = file.view;
    const std::string upper = upper_case(name);
    const std::size_t outputs = m.task() != format::task_kind::none ? m.head_outputs() : m.output_dim();
    std::string t;
    t += "/* Generated by 'kfm export' from a verified .kfm file: pass " + name + " and " + upper +
         "_SIZE to kfm_open.\n";
    t += " * " + std::string(kfm::method_name(m.method())) + " map, input_dim " + std::to_string(m.input_dim()) +
         ", output_dim " + std::to_string(m.output_dim());
    t += m.task() != format::task_kind::none ? ", linear head with " + std::to_string(m.head_outputs()) + " output(s)" : "";
    t += ".\n * " + upper + "_OUTPUT_COUNT is the head's k (a map without a head: output_dim);\n";
    t += " * " + upper + "_WORKSPACE_BYTES is kfm_workspace_bytes(map, 1) (predict / transform of one vector)\n";
    t += " * in a runtime built with the batch path, on any CPU; " + upper + "_FIRMWARE_WORKSPACE_BYTES is\n";
    t += " * kfm_workspace_bytes(map, 1) in the firmware profile (KFM_FIRMWARE, the Cortex-M default). */\n";
    t += "#ifndef " + upper + "_KFM_H\n#define " + upper + "_KFM_H\n\n";
    t += "#define " + upper + "_INPUT_DIM " + std::to_string(m.input_dim()) + "u\n";
    t += "#define " + upper + "_OUTPUT_COUNT " + std::to_string(outputs) + "u\n";
    const single_vector_workspace workspace = single_vector_workspace_bytes(m);
    t += "#define " + upper + "_WORKSPACE_BYTES " + std::to_string(workspace.any_cpu) + "u\n";
    t += "#define " + upper + "_FIRMWARE_WORKSPACE_BYTES " + std::to_string(workspace.firmware) + "u\n";
    t += "#define " + upper + "_SIZE " + std::to_string(file.size()) + "u\n\n";
    t += "#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n#define " + upper +
         "_ALIGN _Alignas(8)\n#else\n#define " + upper + "_ALIGN __attribute__((aligned(8)))\n#endif\n\n";
    t += "static " + upper + "_ALIGN const unsigned char " + name + "[" + upper + "_SIZE] = {";
    write(t);
    const auto* bytes = static_cast<const std::uint8_t*>(file.bytes());
    const char* const hex = "0123456789abcdef";
    std::string line;  // "\n   " then " 0x..," per byte, 16 bytes a line
    for (std::size_t i = 0; i < file.size(); i += 16) {
        line = "\n   ";
        for (std::size_t j = i; j < std::min(i + 16, file.size()); ++j)
            line += {' ', '0', 'x', hex[bytes[j] >> 4], hex[bytes[j] & 15], ','};
        write(line);
    }
    write("\n};\n\n#endif\n");
}

}  // namespace

void add_c_header(output_files& output, const std::string& out, const map_file& file, const std::string& name) {
    if (out.empty()) throw std::invalid_argument("the C header needs a file name");
    if (const std::string why = c_header_name_refusal(name); !why.empty())
        throw std::invalid_argument("'" + name + "' cannot name the header's array: " + why);
    // Streamed when `output` is committed: memory does not grow with the map.
    output.add(out, [&file, name](const output_files::sink& write) {
        write_header(file, name, [&](std::string_view text) { write(text.data(), text.size()); });
    });
}

}  // namespace kfm::offline
