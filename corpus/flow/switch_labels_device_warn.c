// provenance: blind round field
// run-env: DATA_BACKEND=sim
// Switch over a configured backend; the label tensor's case for sim was copied from the cpu one.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { DEV_CPU, DEV_SIM } dev_kind;

static dev_kind configured(void) {
  const char *b = getenv("DATA_BACKEND");
  return (b && strcmp(b, "sim") == 0) ? DEV_SIM : DEV_CPU;
}

int main(void) {
  dev_kind k = configured();
  dt_tensor *pred = NULL, *labels = NULL;
  switch (k) {
  case DEV_CPU:
    pred = dt_full(dt_cpu(), 0.5f, 1, (const int64_t[]){4});
    labels = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
    break;
  case DEV_SIM:
    pred = dt_full(dt_sim(0), 0.5f, 1, (const int64_t[]){4});
    labels = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
    break;
  }
  dt_tensor *loss = dt_mse_loss(pred, labels); // expect-warning: backend-mismatch
  float v;
  dt_read_floats(loss, &v, 1);
  printf("%.3f\n", v);
  return 0;
}
