/* What the two probe programs (code_size_probe.c, arm_instructions_probe.c) share: reading a .kfm file
 * into memory and, with the runtime, the buffers for one transform. Header-only and static so that each
 * probe stays one self-contained compile command. */
#ifndef KFM_PROBE_COMMON_H
#define KFM_PROBE_COMMON_H
#include <stdio.h>
#include <stdlib.h>

/* The whole file at path in a malloc'd buffer (whose alignment covers open's 8 bytes), its length in
 * *size; NULL after printing the reason. */
static void* probe_read_file(const char* path, long* size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    rewind(f);
    void* bytes = malloc(*size > 0 ? (size_t)*size : 1);
    if (bytes == NULL || *size <= 0 || fread(bytes, 1, (size_t)*size, f) != (size_t)*size) {
        fprintf(stderr, "%s: cannot read\n", path);
        fclose(f);
        return NULL;
    }
    fclose(f);
    return bytes;
}

#ifdef KFM_KFM_H
/* An input of the map's dimension with fixed values, the output, and a 64-byte aligned workspace for one
 * vector; 0 when an allocation fails. */
struct probe_buffers {
    float* x;
    float* out;
    void* workspace;
    size_t d, D, workspace_bytes;
};
static int probe_buffers_make(const kfm_map* map, struct probe_buffers* b) {
    b->d = kfm_input_dim(map);
    b->D = kfm_output_dim(map);
    b->workspace_bytes = kfm_workspace_bytes(map, 1);
    b->x = malloc(b->d * sizeof(float));
    b->out = malloc(b->D * sizeof(float));
    b->workspace = aligned_alloc(64, (b->workspace_bytes + 63) / 64 * 64 + 64);
    if (b->x == NULL || b->out == NULL || b->workspace == NULL) return 0;
    for (size_t i = 0; i < b->d; ++i) b->x[i] = 0.01f * (float)(i % 7);
    return 1;
}
#endif
#endif
