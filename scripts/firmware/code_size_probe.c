/* The program scripts/firmware/code-size.sh measures: reads a .kfm file, opens it and transforms one vector
 * (prints the status, or the ISA and phi[0]). Built with KFM_CALLS=0 it does the same file reading and
 * printing without the runtime, so the difference of the two programs' code is what open + transform
 * add to an application. */
#include <stdio.h>

#if KFM_CALLS
#include "kfm/kfm.h"
#endif
#include "probe_common.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.kfm\n", argv[0]);
        return 2;
    }
    long size = 0;
    void* bytes = probe_read_file(argv[1], &size);
    if (bytes == NULL) return 2;
#if KFM_CALLS
    kfm_map map = {{0}};
    kfm_status s = kfm_open(bytes, (size_t)size, NULL, &map);
    if (s != KFM_OK) {
        printf("open: %s\n", kfm_status_string(s));
        return 1;
    }
    struct probe_buffers b;
    if (!probe_buffers_make(&map, &b)) return 2;
    s = kfm_transform(&map, b.x, b.d, b.out, b.D, b.workspace, b.workspace_bytes);
    if (s != KFM_OK) {
        printf("transform: %s\n", kfm_status_string(s));
        return 1;
    }
    printf("ok isa %s phi[0] %g\n", kfm_isa(&map), (double)b.out[0]);
#else
    printf("read %ld bytes\n", size);
#endif
    return 0;
}
