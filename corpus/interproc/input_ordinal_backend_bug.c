// corpus/interproc/input_ordinal_backend_bug.c — the accelerator ordinal comes from the
// environment, so the exact device is unknown, but it is a sim device whatever the value; the
// evaluation targets were created on the host. Every case mismatches (backend-mismatch), so
// this one is an error despite the unknown ordinal.
// run-env: SIM_DEVICE=1
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

int main(void) {
  const char *env = getenv("SIM_DEVICE");
  dt_device dev = dt_sim(env ? atoi(env) : 0);
  dt_tensor *pred = dt_randn(dev, 1, 2, (const int64_t[]){4, 1});
  dt_tensor *target = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *loss = dt_mse_loss(pred, target); // expect-error: backend-mismatch
  float v = 0;
  dt_read_floats(loss, &v, 1);
  printf("loss %f\n", (double)v);
  dt_free(loss);
  dt_free(target);
  dt_free(pred);
  return 0;
}
