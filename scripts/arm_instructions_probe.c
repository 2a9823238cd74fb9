/* The program scripts/arm-instructions.sh runs under qemu: reads a .kfm file, opens it with the named ISA
 * and transforms the same vector REPEATS times. The script counts the instructions of two runs that differ
 * only in REPEATS, so start-up, file reading and open cancel out of the per-transform figure. */
#include <stdio.h>
#include <stdlib.h>

#include "kfm/kfm.h"

int main(int argc, char** argv) {
    if (argc != 4 || atoi(argv[3]) < 0) {
        fprintf(stderr, "usage: %s FILE.kfm ISA REPEATS\n", argv[0]);
        return 2;
    }
    FILE* f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    rewind(f);
    void* bytes = malloc(size > 0 ? (size_t)size : 1); /* malloc's alignment covers open's 8 bytes */
    if (bytes == NULL || size <= 0 || fread(bytes, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 2;
    }
    fclose(f);
    kfm_map map = {{0}};
    kfm_status s = kfm_open(bytes, (size_t)size, argv[2], &map);
    if (s != KFM_OK) {
        fprintf(stderr, "open: %s\n", kfm_status_string(s));
        return 1;
    }
    const size_t d = kfm_input_dim(&map), D = kfm_output_dim(&map), ws = kfm_workspace_bytes(&map, 1);
    float* x = malloc(d * sizeof(float));
    float* out = malloc(D * sizeof(float));
    void* workspace = aligned_alloc(64, (ws + 63) / 64 * 64 + 64);
    if (x == NULL || out == NULL || workspace == NULL) return 2;
    for (size_t i = 0; i < d; ++i) x[i] = 0.01f * (float)(i % 7);
    for (int r = 0; r < atoi(argv[3]); ++r) {
        s = kfm_transform(&map, x, d, out, D, workspace, ws);
        if (s != KFM_OK) {
            fprintf(stderr, "transform: %s\n", kfm_status_string(s));
            return 1;
        }
    }
    printf("%s %zu %zu\n", kfm_isa(&map), d, D);
    return 0;
}
