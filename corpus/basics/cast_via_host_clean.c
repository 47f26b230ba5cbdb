// provenance: blind round field3
// Int labels turned into float targets through the host; bool masks from dt_greater read back
// with dt_read_ints; int tensors summed and matmul'd as ints. Every kind use is legal.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *labels_as_floats(const dt_tensor *labels, dt_device d) {
  int64_t n = dt_numel(labels), buf[16];
  float f[16];
  dt_read_ints(labels, buf, n);
  for (int64_t i = 0; i < n; i++) f[i] = (float)buf[i];
  return dt_from_floats(d, f, 2, (const int64_t[]){n, 1});
}
int main(void) {
  dt_device d = dt_sim(1);
  dt_tensor *labels = dt_from_ints(d, (const int64_t[]){0, 1, 1, 0, 1, 0}, 2, (const int64_t[]){6, 1});
  dt_tensor *x = dt_randn(d, 1, 2, (const int64_t[]){6, 3});
  dt_tensor *w = dt_randn(d, 2, 2, (const int64_t[]){3, 1});
  dt_tensor *prob = dt_sigmoid(dt_matmul(x, w));
  dt_tensor *target = labels_as_floats(labels, d);
  dt_tensor *l = dt_mse_loss(prob, target);
  dt_tensor *half = dt_full(d, 0.5f, 2, (const int64_t[]){6, 1});
  dt_tensor *pred = dt_greater(prob, half);
  int64_t p[6]; dt_read_ints(pred, p, 6);
  dt_tensor *pos = dt_sum(labels);
  dt_tensor *gram = dt_matmul(dt_transpose(labels), labels);
  dt_tensor *cnt = dt_add(pos, dt_reshape(gram, 0, NULL));
  dt_tensor *neg = dt_neg(dt_relu(labels));
  dt_tensor *both = dt_cat(2, (dt_tensor *const[]){pred, dt_greater(target, half)}, 0);
  dt_tensor *picked = dt_where(pred, labels, neg);
  int64_t c; dt_read_ints(cnt, &c, 1);
  float lv; dt_read_floats(l, &lv, 1);
  printf("%f %lld %lld %lld %lld\n", lv, (long long)c, (long long)p[0], (long long)dt_numel(both), (long long)dt_numel(picked));
  return 0;
}
