// corpus/flow/loop_accumulate_clean.c — an evaluation loop that accumulates the loss over
// batches: the accumulator starts as a zero tensor on the evaluation device and is replaced by
// the running sum each iteration. Clean: the loop's fixed point keeps everything on sim:1.
#include <stdio.h>

#include <dt/dt.h>

#define N_BATCHES 4

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *acc = dt_zeros(dev, DT_FLOAT, 0, NULL);
  for (int b = 0; b < N_BATCHES; b++) {
    dt_tensor *x = dt_randn(dev, 10 + (uint64_t)b, 2, (const int64_t[]){8, 3});
    dt_tensor *y = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){8, 1});
    dt_tensor *pred = dt_matmul(x, w);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_tensor *next = dt_add(acc, loss);
    dt_free(acc);
    acc = next;
    dt_free(loss);
    dt_free(pred);
    dt_free(y);
    dt_free(x);
  }
  dt_tensor *avg = dt_mul_scalar(acc, 1.0f / N_BATCHES);
  float v = 0;
  dt_read_floats(avg, &v, 1);
  printf("eval loss %f\n", (double)v);
  dt_free(avg);
  dt_free(acc);
  dt_free(w);
  return 0;
}
