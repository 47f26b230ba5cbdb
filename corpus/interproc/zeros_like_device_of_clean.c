// corpus/interproc/zeros_like_device_of_clean.c — "like" helpers that read the device and kind
// of an existing tensor (dt_device_of, dt_kind_of): optimizer state created like each
// parameter, a gradient buffer on dt_inner_device(dt_device_of(w)). The tags come from the
// queries, not from any device variable. Clean.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *zeros_like(const dt_tensor *t) {
  int64_t shape[DT_MAX_RANK];
  int rank = dt_rank(t);
  for (int i = 0; i < rank; i++) shape[i] = dt_dim(t, i);
  return dt_zeros(dt_device_of(t), dt_kind_of(t), rank, shape);
}

static dt_tensor *grad_buffer_like(const dt_tensor *param) {
  int64_t shape[DT_MAX_RANK];
  int rank = dt_rank(param);
  for (int i = 0; i < rank; i++) shape[i] = dt_dim(param, i);
  return dt_zeros(dt_inner_device(dt_device_of(param)), DT_FLOAT, rank, shape);
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 2}));
  dt_tensor *moment = zeros_like(w);            /* autodiff<sim:1>, like w */
  dt_tensor *acc = grad_buffer_like(w);         /* plain sim:1 */

  dt_tensor *x = dt_randn(dt_device_of(w), 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  dt_tensor *acc2 = dt_add(acc, g);             /* plain + plain */
  dt_tensor *m2 = dt_add(moment, w);            /* autodiff + autodiff */

  static const int64_t ids[2] = {1, 0};
  dt_tensor *labels = dt_from_ints(dt_sim(1), ids, 1, (const int64_t[]){2});
  dt_tensor *lz = zeros_like(labels);           /* int on sim:1 */
  dt_tensor *lsum = dt_add(labels, lz);
  printf("acc %lld, m2 %lld, lsum %lld\n", (long long)dt_numel(acc2), (long long)dt_numel(m2),
         (long long)dt_numel(lsum));

  dt_tensor *all[] = {lsum, lz, labels, m2, acc2, g, loss, y, x, acc, moment, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
