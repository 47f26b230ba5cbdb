// corpus/flow/loop_accumulate_host_bug.c — the loss accumulator was created on the host "to
// read it back cheaply", while the per-batch losses are computed on sim:0. The first
// iteration already fails; an error even though the loop could be entered many times.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *total = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  for (int b = 0; b < 3; b++) {
    dt_tensor *x = dt_randn(dev, (uint64_t)b, 2, (const int64_t[]){4, 3});
    dt_tensor *pred = dt_matmul(x, w);
    dt_tensor *loss = dt_mean(pred);
    dt_tensor *next = dt_add(total, loss); // expect-error: backend-mismatch
    dt_free(total);
    total = next;
    dt_free(loss);
    dt_free(pred);
    dt_free(x);
  }
  float v = 0;
  dt_read_floats(total, &v, 1);
  printf("total %f\n", (double)v);
  dt_free(total);
  dt_free(w);
  return 0;
}
