// corpus/autodiff/upload_batch_from_inner_clean.c — the correct upload of host batches to an
// autodiff training device: move the plain batch to the inner device, then wrap it with
// dt_from_inner (an untracked-by-choice leaf: no dt_require_grad). Also checks that an int
// label tensor moved with dt_to_device between plain devices keeps its kind. Clean.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *to_train_device(const dt_tensor *host_batch, dt_device train) {
  dt_tensor *inner = dt_to_device(host_batch, dt_inner_device(train));
  dt_tensor *wrapped = dt_from_inner(train, inner);
  dt_free(inner);
  return wrapped;
}

int main(void) {
  dt_device train = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){3, 1}));
  static const float rows[6] = {1, 2, 3, 4, 5, 6};
  static const int64_t ids[2] = {0, 1};
  dt_tensor *host = dt_from_floats(dt_cpu(), rows, 2, (const int64_t[]){2, 3});
  dt_tensor *host_ids = dt_from_ints(dt_cpu(), ids, 1, (const int64_t[]){2});
  dt_tensor *x = to_train_device(host, train);
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  dt_tensor *dev_ids = dt_to_device(host_ids, dt_inner_device(train));
  dt_tensor *shifted = dt_add_scalar(dev_ids, 1.0f);
  int64_t out[2];
  dt_read_ints(shifted, out, 2);
  printf("loss computed; ids %lld %lld\n", (long long)out[0], (long long)out[1]);
  dt_tensor *all[] = {shifted, dev_ids, loss, y, x, host_ids, host, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
