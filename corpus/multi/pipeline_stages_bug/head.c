// corpus/multi/pipeline_stages_bug/head.c — the head stage forgot to move its input: the
// encoder's output (sim:0, from encoder.c) meets the head's weights (sim:1).
// Bug: device-mismatch, found across the file boundary.
#include "stages.h"

dt_tensor *head_run(const stage *s, const dt_tensor *h) {
  return dt_matmul(h, s->w); // expect-error: device-mismatch
}
