/* The runtime's status codes, listed once: the C++ enum kfm::status (kfm.hpp), the C constants KFM_*
 * (kfm.h) and the status strings are all generated from this list, so they cannot disagree.
 * X(c++ name, C name suffix, description). The order is the numeric value (ok = 0); new codes go at the
 * end so that existing values never change. C89-compatible, no include guard needed beyond this one. */
#ifndef KFM_STATUS_LIST_H
#define KFM_STATUS_LIST_H

#define KFM_STATUS_LIST(X)                                                                                   \
    X(ok, OK, "ok")                                                                                          \
    X(null_argument, NULL_ARGUMENT, "a required pointer is null")                                            \
    X(file_too_small, FILE_TOO_SMALL, "file is smaller than a header")                                       \
    X(misaligned_buffer, MISALIGNED_BUFFER, "file buffer is not 8-byte aligned")                             \
    X(bad_magic, BAD_MAGIC, "not a .kfm file (bad magic)")                                                   \
    X(unsupported_version, UNSUPPORTED_VERSION, "unsupported .kfm major version")                            \
    X(wrong_endianness, WRONG_ENDIANNESS, "file endianness does not match this machine")                    \
    X(bad_header, BAD_HEADER, "inconsistent header fields")                                                  \
    X(file_size_mismatch, FILE_SIZE_MISMATCH, "buffer size differs from the recorded file size (truncated?)") \
    X(header_checksum, HEADER_CHECKSUM, "header or section table checksum mismatch")                         \
    X(bad_section_table, BAD_SECTION_TABLE, "bad section table (overlap, alignment, range, dtype or size)")  \
    X(section_checksum, SECTION_CHECKSUM, "section checksum mismatch")                                       \
    X(nonzero_padding, NONZERO_PADDING, "padding between sections is not zero")                             \
    X(missing_section, MISSING_SECTION, "a required section is missing or duplicated")                       \
    X(bad_meta, BAD_META, "map metadata invalid or inconsistent")                                            \
    X(bad_section_size, BAD_SECTION_SIZE, "a section's size does not match the map's dimensions")            \
    X(index_out_of_range, INDEX_OUT_OF_RANGE, "an index stored in the file is out of range")                 \
    X(bad_parameter_value, BAD_PARAMETER_VALUE, "a stored value is not finite or outside its domain")        \
    X(unknown_method, UNKNOWN_METHOD, "unknown method")                                                      \
    X(unknown_kernel, UNKNOWN_KERNEL, "unknown kernel")                                                      \
    X(unknown_projection, UNKNOWN_PROJECTION, "unknown projection kind, or one this build leaves out")        \
    X(unknown_nonlinearity, UNKNOWN_NONLINEARITY, "unknown nonlinearity, or one this build leaves out")      \
    X(isa_unavailable, ISA_UNAVAILABLE, "requested ISA is not available in this build or on this CPU")       \
    X(unknown_isa, UNKNOWN_ISA, "unknown ISA name")                                                          \
    X(wrong_dimension, WRONG_DIMENSION, "input dimension does not match the map")                            \
    X(workspace_too_small, WORKSPACE_TOO_SMALL, "workspace is too small")                                    \
    X(output_too_small, OUTPUT_TOO_SMALL, "output buffer is too small")                                      \
    X(non_finite_input, NON_FINITE_INPUT, "input contains NaN or Inf")                                       \
    X(not_open, NOT_OPEN, "the map was never opened (default-constructed, or its open failed)")              \
    X(unexpected_section, UNEXPECTED_SECTION, "a section this map's projection does not use is present")   \
    X(bad_model, BAD_MODEL, "model sections (TASK, HEAD, BIAS, LABL) invalid or inconsistent")               \
    X(no_head, NO_HEAD, "the map has no linear head (TASK/HEAD/BIAS): predict needs a model file")   \
    X(value_too_large, VALUE_TOO_LARGE, "stored values so large that an input with |x_i| <= 2^20 could give Inf or NaN")

#endif /* KFM_STATUS_LIST_H */
