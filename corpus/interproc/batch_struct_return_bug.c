// corpus/interproc/batch_struct_return_bug.c — the loader returns a batch struct by value
// holding inputs and targets; it builds the inputs on the requested device but the targets on
// the host. The caller's loss sees the struct's fields. Bug: backend-mismatch at dt_mse_loss.
#include <stdio.h>

#include <dt/dt.h>

typedef struct batch {
  dt_tensor *x, *y;
  int size;
} batch;

static batch next_batch(dt_device dev, int step) {
  batch b;
  b.size = 4;
  b.x = dt_randn(dev, (uint64_t)step, 2, (const int64_t[]){b.size, 2});
  b.y = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){b.size, 1});
  return b;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 9, 2, (const int64_t[]){2, 1});
  batch b = next_batch(dev, 0);
  dt_tensor *pred = dt_matmul(b.x, w);
  dt_tensor *loss = dt_mse_loss(pred, b.y); // expect-error: backend-mismatch
  printf("%lld\n", (long long)dt_numel(loss));
  return 0;
}
