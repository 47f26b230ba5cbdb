// provenance: blind round field4
// Classification accuracy inside the autodiff training loop: predictions come from dt_greater on
// tracked logits (an untracked bool that still reports autodiff<cpu>), labels were loaded on the
// plain host device. The where/sub mixes autodiff-ness even though nothing is float.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *x; dt_tensor *y; } batch;

static batch load(dt_device ad, int i) {
  const int64_t lab[4] = {1, 0, i & 1, 1};
  batch b;
  b.x = dt_randn(ad, (uint64_t)i, 2, (const int64_t[]){4, 3});
  b.y = dt_from_ints(dt_inner_device(ad), lab, 1, (const int64_t[]){4});
  return b;
}

static int64_t hits(const dt_tensor *logits, const dt_tensor *labels) {
  dt_device d = dt_device_of(logits);
  dt_tensor *z = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *pos = dt_greater(logits, z);
  dt_tensor *one = dt_ones(d, DT_INT, 1, (const int64_t[]){4});
  dt_tensor *nil = dt_zeros(d, DT_INT, 1, (const int64_t[]){4});
  dt_tensor *pred = dt_where(pos, one, nil);
  dt_tensor *diff = dt_sub(pred, labels); // expect-error: autodiff-expected
  dt_tensor *sq = dt_mul(diff, diff);
  dt_tensor *s = dt_sum(sq);
  int64_t wrong = 0;
  dt_read_ints(s, &wrong, 1);
  return 4 - wrong;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 7, 1, (const int64_t[]){3}));
  for (int i = 0; i < 2; i++) {
    batch b = load(ad, i);
    dt_tensor *logits = dt_sum_dim(dt_mul(b.x, w), 1);
    printf("hits %lld\n", (long long)hits(logits, b.y));
  }
  return 0;
}
