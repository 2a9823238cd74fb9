// Human-readable text for every status value (static strings; the CLI and the C API print them).
#include "kfm/kfm.hpp"

namespace kfm {

const char* status_string(status s) noexcept {
    switch (s) {
        case status::ok: return "ok";
        case status::null_argument: return "a required pointer is null";
        case status::file_too_small: return "file is smaller than a header";
        case status::misaligned_buffer: return "file buffer is not 8-byte aligned";
        case status::bad_magic: return "not a .kfm file (bad magic)";
        case status::unsupported_version: return "unsupported .kfm major version";
        case status::wrong_endianness: return "file endianness does not match this machine";
        case status::bad_header: return "inconsistent header fields";
        case status::file_size_mismatch: return "buffer size differs from the recorded file size (truncated?)";
        case status::header_checksum: return "header or section table checksum mismatch";
        case status::bad_section_table: return "bad section table (overlap, alignment, range, dtype or size)";
        case status::section_checksum: return "section checksum mismatch";
        case status::nonzero_padding: return "padding between sections is not zero";
        case status::missing_section: return "a required section is missing or duplicated";
        case status::bad_meta: return "map metadata invalid or inconsistent";
        case status::bad_section_size: return "a section's size does not match the map's dimensions";
        case status::index_out_of_range: return "an index stored in the file is out of range";
        case status::bad_parameter_value: return "a stored value is not finite or outside its domain";
        case status::unknown_method: return "unknown method";
        case status::unknown_kernel: return "unknown kernel";
        case status::unknown_projection: return "unknown projection kind";
        case status::unknown_nonlinearity: return "unknown nonlinearity";
        case status::isa_unavailable: return "requested ISA is not available in this build or on this CPU";
        case status::unknown_isa: return "unknown ISA name";
        case status::wrong_dimension: return "input dimension does not match the map";
        case status::workspace_too_small: return "workspace is too small";
        case status::output_too_small: return "output buffer is too small";
        case status::non_finite_input: return "input contains NaN or Inf";
    }
    return "unknown status";
}

}  // namespace kfm
