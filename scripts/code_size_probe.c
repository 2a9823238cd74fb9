/* The program scripts/code-size.sh measures: reads a .kfm file, opens it and transforms one vector
 * (prints the status, or the ISA and phi[0]). Built with KFM_CALLS=0 it does the same file reading and
 * printing without the runtime, so the difference of the two programs' .text is what open + transform
 * add to an application. */
#include <stdio.h>
#include <stdlib.h>

#if KFM_CALLS
#include "kfm/kfm.h"
#endif

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.kfm\n", argv[0]);
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
#if KFM_CALLS
    kfm_map map = {{0}};
    kfm_status s = kfm_open(bytes, (size_t)size, NULL, &map);
    if (s != KFM_OK) {
        printf("open: %s\n", kfm_status_string(s));
        return 1;
    }
    const size_t d = kfm_input_dim(&map), D = kfm_output_dim(&map), ws = kfm_workspace_bytes(&map, 1);
    float* x = malloc(d * sizeof(float));
    float* out = malloc(D * sizeof(float));
    void* workspace = aligned_alloc(64, (ws + 63) / 64 * 64 + 64);
    if (x == NULL || out == NULL || workspace == NULL) return 2;
    for (size_t i = 0; i < d; ++i) x[i] = 0.01f * (float)(i % 7);
    s = kfm_transform(&map, x, d, out, D, workspace, ws);
    if (s != KFM_OK) {
        printf("transform: %s\n", kfm_status_string(s));
        return 1;
    }
    printf("ok isa %s phi[0] %g\n", kfm_isa(&map), (double)out[0]);
#else
    printf("read %ld bytes\n", size);
#endif
    return 0;
}
