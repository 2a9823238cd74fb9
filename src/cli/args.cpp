// Command-line parsing for the kfm sub-commands: options, positional arguments and strict numbers
// (the whole text must be a number in range; "12abc", "", "1e999", "nan" and "0x10" are errors).
#include <limits>

#include "cli/cli.hpp"
#include "kfm/build_registry.hpp"

namespace kfm::cli {

void usage_error(const std::string& message) { throw cli_error(message, 2); }

arguments::arguments(const std::string& command, const std::vector<std::string>& argv,
                     const std::vector<option_spec>& specs, std::size_t max_positional)
    : command_(command) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& token = argv[i];
        const bool is_option = token.size() > 1 && token[0] == '-';
        if (!is_option) {
            if (positional_.size() == max_positional)
                usage_error("unexpected argument '" + token + "' for 'kfm " + command + "' (see 'kfm help " +
                            command + "')");
            positional_.push_back(token);
            continue;
        }
        std::string name = token;
        std::string inline_value;
        bool has_inline_value = false;
        if (const auto eq = token.find('='); eq != std::string::npos && token.rfind("--", 0) == 0) {
            name = token.substr(0, eq);
            inline_value = token.substr(eq + 1);
            has_inline_value = true;
        }
        const option_spec* spec = nullptr;
        for (const auto& s : specs)
            if (name == s.name) spec = &s;
        if (spec == nullptr)
            usage_error("unknown option '" + name + "' for 'kfm " + command + "' (see 'kfm help " + command + "')");
        if (values_.count(name) != 0) usage_error("option " + name + " given more than once");
        if (!spec->takes_value) {
            if (has_inline_value) usage_error("option " + name + " takes no value");
            values_[name] = "";
            continue;
        }
        if (has_inline_value) {
            values_[name] = inline_value;
        } else {
            if (i + 1 == argv.size()) usage_error("option " + name + " needs a value");
            values_[name] = argv[++i];
        }
    }
}

const std::string& arguments::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) usage_error("'kfm " + command_ + "' needs " + name + " (see 'kfm help " + command_ + "')");
    return it->second;
}

std::string arguments::value_or(const std::string& name, const std::string& fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

// The offline option table's strict parsers, their errors as usage errors.
std::uint64_t parse_u64(const std::string& option, const std::string& text) {
    try {
        return offline::parse_unsigned(option, text);
    } catch (const offline::option_error& e) {
        usage_error(e.what());
    }
}

double parse_real(const std::string& option, const std::string& text) {
    try {
        return offline::parse_finite(option, text);
    } catch (const offline::option_error& e) {
        usage_error(e.what());
    }
}

std::uint64_t arguments::u64(const std::string& name, std::uint64_t fallback) const {
    return has(name) ? parse_u64(name, value(name)) : fallback;
}

unsigned arguments::u32(const std::string& name, unsigned fallback, unsigned min_value) const {
    if (!has(name)) return fallback;
    const std::uint64_t v = parse_u64(name, value(name));
    if (v > std::numeric_limits<std::uint32_t>::max()) usage_error(name + " value '" + value(name) + "' is too large");
    if (v < min_value) usage_error(name + " must be at least " + std::to_string(min_value) + ", got " + value(name));
    return unsigned(v);
}

double arguments::real(const std::string& name, double fallback) const {
    return has(name) ? parse_real(name, value(name)) : fallback;
}

std::vector<double> arguments::reals(const std::string& name) const {
    std::vector<double> out;
    if (!has(name)) return out;
    const std::string& text = value(name);
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = text.find(',', begin);
        out.push_back(parse_real(name, text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)));
        if (comma == std::string::npos) break;
        begin = comma + 1;
    }
    return out;
}

}  // namespace kfm::cli
