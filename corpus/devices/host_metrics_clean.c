// provenance: blind round field5
// Metrics on the host: the prediction of an autodiff model is unwrapped with dt_inner
// before it is moved to the cpu; int labels vs int classes, bool mask from dt_greater.
#include <dt/dt.h>
#include <stdio.h>

static float accuracy(const dt_tensor *pred, const dt_tensor *labels) {
  dt_tensor *pi = dt_inner(pred);
  dt_tensor *hp = dt_to_device(pi, dt_cpu());
  dt_free(pi);
  dt_tensor *half = dt_full(dt_cpu(), 0.5f, 2, (const int64_t[]){4, 1});
  dt_tensor *pos = dt_greater(hp, half);
  dt_tensor *one = dt_ones(dt_cpu(), DT_INT, 2, (const int64_t[]){4, 1});
  dt_tensor *zero = dt_zeros(dt_cpu(), DT_INT, 2, (const int64_t[]){4, 1});
  dt_tensor *cls = dt_where(pos, one, zero);
  dt_tensor *diff = dt_sub(cls, labels);
  int64_t d[4];
  dt_read_ints(diff, d, 4);
  int ok = 0;
  for (int i = 0; i < 4; i++) ok += d[i] == 0;
  dt_free(diff); dt_free(cls); dt_free(zero); dt_free(one); dt_free(pos); dt_free(half); dt_free(hp);
  return (float)ok / 4.0f;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_full(ad, 0.2f, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *z = dt_matmul(x, w);
  dt_tensor *p = dt_sigmoid(z);
  int64_t lab[4] = {1, 0, 1, 1};
  dt_tensor *labels = dt_from_ints(dt_cpu(), lab, 2, (const int64_t[]){4, 1});
  printf("acc %.2f\n", (double)accuracy(p, labels));
  dt_free(labels); dt_free(p); dt_free(z); dt_free(x); dt_free(w);
  return 0;
}
