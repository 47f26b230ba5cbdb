// corpus/flow/pointer_slots_clean.c — parameters are updated through pointers to their
// handles (`dt_tensor **`), the way an optimizer walks a parameter list. Clean: every store
// through a slot keeps the slot's device.
#include <stdio.h>

#include <dt/dt.h>

static void scale_in_place(dt_tensor **slot, float factor) {
  dt_tensor *next = dt_mul_scalar(*slot, factor);
  dt_free(*slot);
  *slot = next;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor **params[2] = {&w, &b};
  for (int i = 0; i < 2; i++) scale_in_place(params[i], 0.5f);

  dt_tensor **wp = &w;
  dt_tensor *x = dt_randn(dev, 2, 2, (const int64_t[]){2, 3});
  dt_tensor *y0 = dt_matmul(x, *wp);
  dt_tensor *y = dt_add(y0, b);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(y0);
  dt_free(x);
  dt_free(b);
  dt_free(w);
  return 0;
}
