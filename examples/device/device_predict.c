/* An on-device kfm model: the model file is compiled in (a header from 'kfm export --name kfm_model'),
 * the workspace is a static buffer sized at compile time, and nothing is allocated. It reads raw
 * little-endian float32 input rows (KFM_MODEL_INPUT_DIM values each) from the file named on the command
 * line (or stdin) and prints one line per row: the label (classifiers; 0 for regression) and the scores. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kfm/kfm.h"
#include "kfm_model.h"

static uint64_t workspace[(KFM_MODEL_WORKSPACE_BYTES + 7) / 8];
static float row[KFM_MODEL_INPUT_DIM];
static float scores[KFM_MODEL_OUTPUT_COUNT];

int main(int argc, char** argv) {
    kfm_map map;
    FILE* in = stdin;
    kfm_status s;
    unsigned long n = 0;
    memset(&map, 0, sizeof map);
    s = kfm_open(kfm_model, KFM_MODEL_SIZE, NULL, &map);
    if (s != KFM_OK) {
        fprintf(stderr, "device_predict: kfm_open: %s\n", kfm_status_string(s));
        return 1;
    }
    if (kfm_task(&map) == 0) {
        fprintf(stderr, "device_predict: the compiled-in file has no linear head\n");
        return 1;
    }
    if (argc > 1 && (in = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "device_predict: cannot open %s\n", argv[1]);
        return 1;
    }
    while (fread(row, sizeof(float), KFM_MODEL_INPUT_DIM, in) == KFM_MODEL_INPUT_DIM) {
        int32_t label = 0;
        uint32_t j;
        s = kfm_predict(&map, row, KFM_MODEL_INPUT_DIM, scores, KFM_MODEL_OUTPUT_COUNT, &label, workspace,
                        sizeof workspace);
        if (s != KFM_OK) {
            fprintf(stderr, "device_predict: row %lu: %s\n", n, kfm_status_string(s));
            return 1;
        }
        printf("%ld", (long)label);
        for (j = 0; j < KFM_MODEL_OUTPUT_COUNT; ++j) printf(" %.9g", scores[j]);
        printf("\n");
        ++n;
    }
    fprintf(stderr, "device_predict: %lu rows on %s\n", n, kfm_isa(&map));
    return 0;
}
