// provenance: blind round field4
// A "loss" that is the count of misclassified samples: the int sum lives on the autodiff device
// (int tensors report it) but is never float, so dt_backward rejects its kind.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *errors_count(dt_device ad, const dt_tensor *logits, const int64_t *labels, int n) {
  dt_tensor *zero = dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *pos = dt_greater(logits, zero);
  dt_tensor *one = dt_ones(ad, DT_INT, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *nil = dt_zeros(ad, DT_INT, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *pred = dt_where(pos, one, nil);
  dt_tensor *lab = dt_from_ints(ad, labels, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *diff = dt_sub(pred, lab);
  dt_tensor *sq = dt_mul(diff, diff);
  dt_tensor *cnt = dt_sum(sq);
  dt_free(zero); dt_free(pos); dt_free(one); dt_free(nil); dt_free(pred); dt_free(lab);
  dt_free(diff); dt_free(sq);
  return cnt;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  const int64_t labels[4] = {1, 0, 1, 1};
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 1, (const int64_t[]){4}));
  dt_tensor *x = dt_randn(ad, 2, 1, (const int64_t[]){4});
  dt_tensor *logits = dt_mul(x, w);
  dt_tensor *loss = errors_count(ad, logits, labels, 4);
  int64_t c = 0;
  dt_read_ints(loss, &c, 1);
  printf("errors %lld\n", (long long)c);
  dt_backward(loss); // expect-error: kind-mismatch
  return 0;
}
