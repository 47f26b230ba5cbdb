// corpus/interproc/static_cache_clean.c — a function-local `static` caches a constant tensor
// (a causal mask) built on first call on the device of the input it was first called with;
// every caller uses sim:0. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define T 4

static dt_tensor *apply_causal_mask(const dt_tensor *scores) {
  static dt_tensor *mask;
  static dt_tensor *neg;
  if (!mask) {
    float tri[T * T];
    for (int i = 0; i < T; i++)
      for (int j = 0; j < T; j++) tri[i * T + j] = j <= i ? 1.0f : 0.0f;
    dt_device dev = dt_sim(0);
    dt_tensor *f = dt_from_floats(dev, tri, 2, (const int64_t[]){T, T});
    dt_tensor *half = dt_full(dev, 0.5f, 2, (const int64_t[]){T, T});
    mask = dt_greater(f, half);
    neg = dt_full(dev, -1e9f, 2, (const int64_t[]){T, T});
    dt_free(half);
    dt_free(f);
  }
  return dt_where(mask, scores, neg);
}

int main(void) {
  dt_device dev = dt_sim(0);
  for (int layer = 0; layer < 2; layer++) {
    dt_tensor *s = dt_randn(dev, (uint64_t)layer, 2, (const int64_t[]){T, T});
    dt_tensor *m = apply_causal_mask(s);
    dt_tensor *p = dt_sigmoid(m);
    dt_tensor *tot = dt_sum(p);
    float v = 0;
    dt_read_floats(tot, &v, 1);
    printf("layer %d: %f\n", layer, (double)v);
    dt_free(tot);
    dt_free(p);
    dt_free(m);
    dt_free(s);
  }
  return 0;
}
