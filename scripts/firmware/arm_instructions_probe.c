/* The program scripts/firmware/arm-instructions.sh runs under qemu: reads a .kfm file, opens it with the named ISA
 * and transforms the same vector REPEATS times. The script counts the instructions of two runs that differ
 * only in REPEATS, so start-up, file reading and open cancel out of the per-transform figure. */
#include <stdio.h>
#include <stdlib.h>

#include "kfm/kfm.h"
#include "probe_common.h"

int main(int argc, char** argv) {
    if (argc != 4 || atoi(argv[3]) < 0) {
        fprintf(stderr, "usage: %s FILE.kfm ISA REPEATS\n", argv[0]);
        return 2;
    }
    long size = 0;
    void* bytes = probe_read_file(argv[1], &size);
    if (bytes == NULL) return 2;
    kfm_map map = {{0}};
    kfm_status s = kfm_open(bytes, (size_t)size, argv[2], &map);
    if (s != KFM_OK) {
        fprintf(stderr, "open: %s\n", kfm_status_string(s));
        return 1;
    }
    struct probe_buffers b;
    if (!probe_buffers_make(&map, &b)) return 2;
    for (int r = 0; r < atoi(argv[3]); ++r) {
        s = kfm_transform(&map, b.x, b.d, b.out, b.D, b.workspace, b.workspace_bytes);
        if (s != KFM_OK) {
            fprintf(stderr, "transform: %s\n", kfm_status_string(s));
            return 1;
        }
    }
    printf("%s %zu %zu\n", kfm_isa(&map), b.d, b.D);
    return 0;
}
