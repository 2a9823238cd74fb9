/* A C program built against the installed kfm package (find_package or pkg-config): opens the .kfm file
 * given (a gaussian `rff` map), transforms one vector and checks the statuses, that phi(x).phi(x) = k(x, x)
 * = 1 (exact for paired cos/sin features), that a wrong dimension and an unopened handle are refused with
 * nothing written. Static handle and workspace as docs/embedding.md shows; the workspace is deliberately
 * misaligned (any alignment is accepted). Uses no maths function itself, so it links with exactly what
 * the package declares. */
#include <kfm/kfm.h>

#include <stdio.h>
#include <stdlib.h>

static void* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void* bytes = malloc(*size); /* malloc's alignment covers the 8 bytes kfm_open needs */
    if (bytes && fread(bytes, 1, *size, f) != *size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    return bytes;
}

static kfm_map map; /* zero-initialised: not opened yet */
static unsigned char workspace[4096];

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s MAP.kfm\n", argv[0]);
        return 2;
    }
    size_t size = 0;
    void* bytes = read_file(argv[1], &size);
    if (!bytes) {
        fprintf(stderr, "c consumer: cannot read %s\n", argv[1]);
        return 1;
    }
    float probe[1] = {1.0f};
    if (kfm_input_dim(&map) != 0 ||
        kfm_transform(&map, probe, 1, probe, 1, workspace, sizeof workspace) != KFM_NOT_OPEN || probe[0] != 1.0f) {
        fprintf(stderr, "c consumer: an unopened handle was not refused\n");
        return 1;
    }
    kfm_status s = kfm_open(bytes, size, NULL, &map);
    if (s != KFM_OK) {
        fprintf(stderr, "c consumer: open: %s\n", kfm_status_string(s));
        return 1;
    }
    const size_t d = kfm_input_dim(&map), D = kfm_output_dim(&map);
    const size_t ws_size = kfm_workspace_bytes(&map, 1);
    unsigned char* ws = workspace + 1;
    float* x = malloc(d * sizeof *x);
    float* phi = malloc(D * sizeof *phi);
    if (ws_size > sizeof workspace - 1 || !x || !phi) return 1;
    for (size_t i = 0; i < d; ++i) x[i] = 0.1f * (float)(i + 1);

    s = kfm_transform(&map, x, d, phi, D, ws, ws_size);
    if (s != KFM_OK) {
        fprintf(stderr, "c consumer: transform: %s\n", kfm_status_string(s));
        return 1;
    }
    const double k = kfm_kernel_estimate(&map, phi, phi);
    if (!(k > 1.0 - 1e-4 && k < 1.0 + 1e-4)) {
        fprintf(stderr, "c consumer: phi(x).phi(x) = %.7f, expected 1\n", k);
        return 1;
    }

    phi[0] = -7.0f;
    s = kfm_transform(&map, x, d + 1, phi, D, ws, ws_size);
    if (s != KFM_WRONG_DIMENSION || phi[0] != -7.0f) {
        fprintf(stderr, "c consumer: a wrong dimension gave '%s' and %s the output\n", kfm_status_string(s),
                phi[0] != -7.0f ? "changed" : "kept");
        return 1;
    }
    printf("c consumer: %s: d = %zu, D = %zu, isa %s, workspace %zu bytes, phi(x).phi(x) = %.6f\n", argv[1], d, D,
           kfm_isa(&map), ws_size, k);
    free(phi);
    free(x);
    free(bytes);
    return 0;
}
