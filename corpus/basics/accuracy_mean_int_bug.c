// provenance: blind round field4
// Accuracy as dt_mean of the int "correct" vector: dt_mean accepts only float.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *correct(dt_device dev, const dt_tensor *logits, const dt_tensor *labels_b) {
  dt_tensor *zero = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *pred = dt_greater(logits, zero);
  dt_tensor *one = dt_ones(dev, DT_INT, 1, (const int64_t[]){4});
  dt_tensor *nil = dt_zeros(dev, DT_INT, 1, (const int64_t[]){4});
  dt_tensor *p = dt_where(pred, one, nil);
  dt_tensor *l = dt_where(labels_b, one, nil);
  dt_tensor *eq = dt_greater(p, l);
  dt_tensor *c = dt_where(eq, nil, one);
  dt_free(zero); dt_free(pred); dt_free(one); dt_free(nil); dt_free(p); dt_free(l); dt_free(eq);
  return c;
}

static float metric(dt_tensor *c) {
  dt_tensor *m = dt_mean(c); // expect-error: kind-mismatch
  float v = 0;
  dt_read_floats(m, &v, 1);
  return v;
}

int main(void) {
  dt_device dev = dt_cpu();
  dt_tensor *logits = dt_randn(dev, 3, 1, (const int64_t[]){4});
  dt_tensor *lab = dt_greater(dt_randn(dev, 4, 1, (const int64_t[]){4}), dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){4}));
  dt_tensor *c = correct(dev, logits, lab);
  printf("%.2f\n", (double)metric(c));
  return 0;
}
