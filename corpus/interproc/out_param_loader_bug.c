// corpus/interproc/out_param_loader_bug.c — a checkpoint loader fills weights through out
// parameters (`dt_tensor **`); it honours the device for the weight matrix but builds the bias
// from the host buffer and never uploads it. Bug: backend-mismatch at the bias add in main.
#include <stdio.h>

#include <dt/dt.h>

static int load_checkpoint(dt_device dev, dt_tensor **w_out, dt_tensor **b_out) {
  static const float w[6] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
  static const float b[2] = {0.01f, 0.02f};
  dt_tensor *hw = dt_from_floats(dt_cpu(), w, 2, (const int64_t[]){3, 2});
  *w_out = dt_to_device(hw, dev);
  dt_free(hw);
  *b_out = dt_from_floats(dt_cpu(), b, 1, (const int64_t[]){2});
  return 0;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w, *b;
  if (load_checkpoint(dev, &w, &b) != 0) return 1;
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *xw = dt_matmul(x, w);
  dt_tensor *y = dt_add(xw, b); // expect-error: backend-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(xw);
  dt_free(x);
  dt_free(b);
  dt_free(w);
  return 0;
}
