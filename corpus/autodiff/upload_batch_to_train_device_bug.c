// corpus/autodiff/upload_batch_to_train_device_bug.c — host batches are "moved to the training
// device" with dt_to_device, but the training device is autodiff and the batch is plain:
// dt_to_device cannot cross autodiff-ness (wrap it with dt_from_inner, or create it on the
// autodiff device). Bug: autodiff-expected inside the loader helper.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *to_train_device(const dt_tensor *host_batch, dt_device train) {
  return dt_to_device(host_batch, train); // expect-error: autodiff-expected
}

int main(void) {
  dt_device train = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){3, 1}));
  static const float rows[6] = {1, 2, 3, 4, 5, 6};
  dt_tensor *host = dt_from_floats(dt_cpu(), rows, 2, (const int64_t[]){2, 3});
  dt_tensor *x = to_train_device(host, train);
  dt_tensor *y = dt_matmul(x, w);
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
