// corpus/interproc/helper_one_bad_context_bug.c — a shared `affine()` helper is correct for
// the training call (both operands on sim:0) and wrong for the evaluation call, where the
// weights were copied to the host but the batch was not. The helper fails for one of its
// calling contexts, so its dt_matmul is an error (reported inside the helper, with the
// evaluate() -> affine chain in the notes).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *affine(const dt_tensor *x, const dt_tensor *w, const dt_tensor *b) {
  dt_tensor *xw = dt_matmul(x, w); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(xw, b);
  dt_free(xw);
  return y;
}

static float train_step(dt_tensor *x, dt_tensor *w, dt_tensor *b) {
  dt_tensor *y = affine(x, w, b);
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m);
  dt_free(y);
  return v;
}

static float evaluate(dt_tensor *x, dt_tensor *w, dt_tensor *b) {
  dt_tensor *hw = dt_to_device(w, dt_cpu());
  dt_tensor *hb = dt_to_device(b, dt_cpu());
  dt_tensor *y = affine(x, hw, hb);
  dt_tensor *m = dt_mean(y);
  float v = 0;
  dt_read_floats(m, &v, 1);
  dt_free(m);
  dt_free(y);
  dt_free(hb);
  dt_free(hw);
  return v;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 2});
  dt_tensor *b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){4, 3});
  printf("train %f\n", (double)train_step(x, w, b));
  printf("eval %f\n", (double)evaluate(x, w, b));
  dt_free(x);
  dt_free(b);
  dt_free(w);
  return 0;
}
