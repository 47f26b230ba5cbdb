// provenance: blind round field4
// Masked update: the keep-mask is computed on the evaluation device (sim:1) from validation
// scores and applied to weights on sim:0.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *keep_mask(const dt_tensor *scores, float thr) {
  dt_tensor *t = dt_full(dt_device_of(scores), thr, 1, (const int64_t[]){1});
  dt_tensor *m = dt_greater(scores, t);
  dt_free(t);
  return m;
}

static dt_tensor *prune(const dt_tensor *w, const dt_tensor *mask) {
  dt_tensor *z = dt_zeros(dt_device_of(w), DT_FLOAT, 1, (const int64_t[]){dt_dim(w, 0)});
  dt_tensor *r = dt_where(mask, w, z); // expect-error: device-mismatch
  dt_free(z);
  return r;
}

int main(void) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 1, (const int64_t[]){6});
  dt_tensor *scores = dt_randn(dt_sim(1), 2, 1, (const int64_t[]){6});
  dt_tensor *m = keep_mask(scores, 0.0f);
  dt_tensor *pw = prune(w, m);
  printf("%p\n", (void *)pw);
  return 0;
}
