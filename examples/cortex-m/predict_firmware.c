/* The kfm model of kfm_model.h ('kfm export --name kfm_model') applied on the device to the rows compiled
 * in from kfm_rows.h (KFM_ROWS rows of KFM_MODEL_INPUT_DIM floats, stored as their IEEE-754 bit patterns
 * so that the device reads exactly the host's inputs). One line per row through semihosting: the label
 * and the scores. The workspace is a static buffer of the size the header gives; nothing is allocated.
 * Then kfm_predict_batch over all the rows in that same workspace (the firmware profile runs a batch row by
 * row): "batch identical" when every label and score has the bits kfm_predict gave. */
#include <stdint.h>
#include <string.h>

#include "kfm/kfm.h"
#include "kfm_model.h"
#include "kfm_rows.h"
#include "semihosting.h"

static uint64_t workspace[(KFM_MODEL_WORKSPACE_BYTES + 7) / 8];
static float scores[KFM_MODEL_OUTPUT_COUNT];
static float row_scores[KFM_ROWS][KFM_MODEL_OUTPUT_COUNT], batch_scores[KFM_ROWS][KFM_MODEL_OUTPUT_COUNT];
static int32_t row_labels[KFM_ROWS], batch_labels[KFM_ROWS];
static float rows[KFM_ROWS][KFM_MODEL_INPUT_DIM];

static int fail(const char* what, unsigned long row, kfm_status s) {
    sh_puts("kfm_predict_firmware: ");
    sh_puts(what);
    sh_puts(" (row ");
    sh_put_int((long)row);
    sh_puts("): ");
    sh_puts(kfm_status_string(s));
    sh_puts("\n");
    return 1;
}

int main(void) {
    kfm_map map;
    float row[KFM_MODEL_INPUT_DIM];
    unsigned long r;
    uint32_t j;
    kfm_status s;
    memset(&map, 0, sizeof map);
    s = kfm_open(kfm_model, KFM_MODEL_SIZE, NULL, &map);
    if (s != KFM_OK) return fail("kfm_open", 0, s);
    /* The header's figure is what the runtime asks for: exact, not just enough. */
    if (kfm_workspace_bytes(&map, 1) != KFM_MODEL_WORKSPACE_BYTES) {
        sh_puts("kfm_predict_firmware: kfm_workspace_bytes differs from KFM_MODEL_WORKSPACE_BYTES\n");
        return 1;
    }
    for (r = 0; r < KFM_ROWS; ++r) {
        int32_t label = 0;
        memcpy(row, &kfm_rows_bits[r * KFM_MODEL_INPUT_DIM], sizeof row);
        s = kfm_predict(&map, row, KFM_MODEL_INPUT_DIM, scores, KFM_MODEL_OUTPUT_COUNT, &label, workspace,
                        sizeof workspace);
        if (s != KFM_OK) return fail("kfm_predict", r, s);
        row_labels[r] = label;
        memcpy(row_scores[r], scores, sizeof scores);
        sh_put_int((long)label);
        for (j = 0; j < KFM_MODEL_OUTPUT_COUNT; ++j) {
            sh_puts(" ");
            sh_put_float(scores[j]);
        }
        sh_puts("\n");
    }
    memcpy(rows, kfm_rows_bits, sizeof rows);
    s = kfm_predict_batch(&map, &rows[0][0], KFM_ROWS, KFM_MODEL_INPUT_DIM, KFM_MODEL_INPUT_DIM,
                          &batch_scores[0][0], KFM_MODEL_OUTPUT_COUNT, batch_labels, workspace, sizeof workspace);
    if (s != KFM_OK) return fail("kfm_predict_batch", 0, s);
    if (memcmp(batch_scores, row_scores, sizeof row_scores) != 0 ||
        memcmp(batch_labels, row_labels, sizeof row_labels) != 0) {
        sh_puts("kfm_predict_batch: results differ from kfm_predict\n");
        return 1;
    }
    sh_puts("batch identical\n");
    sh_puts("isa ");
    sh_puts(kfm_isa(&map));
    sh_puts("\n");
    return 0;
}
