// corpus/flow/goto_report_bug.c — a batch validator jumps to a shared `report:` label when it
// finds a non-finite value; the report code (also reached by falling through) adds the host
// statistics to the device loss. Both ways into the label mismatch: an error.
#include <math.h>
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *stats = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  dt_tensor *batch = dt_randn(dev, 5, 1, (const int64_t[]){8});
  dt_tensor *loss = dt_mean(batch);
  float lv = 0;
  dt_read_floats(loss, &lv, 1);
  if (!isfinite(lv)) goto report;
  printf("batch ok\n");
report:;
  dt_tensor *summary = dt_add(stats, loss); // expect-error: backend-mismatch
  dt_free(summary);
  dt_free(loss);
  dt_free(batch);
  dt_free(stats);
  return 0;
}
