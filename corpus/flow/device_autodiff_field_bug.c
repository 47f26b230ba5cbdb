// corpus/flow/device_autodiff_field_bug.c — a trainer flips `autodiff` on in its device struct
// to start training, but the frozen feature extractor's output was made on the plain device.
// The two operands differ in autodiff-ness (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_cpu();
  dt_tensor *frozen_features = dt_randn(dev, 1, 2, (const int64_t[]){4, 3});

  dev.autodiff = 1; /* train the head */
  dt_tensor *head = dt_require_grad(dt_randn(dev, 2, 2, (const int64_t[]){3, 1}));
  dt_tensor *out = dt_matmul(frozen_features, head); // expect-error: autodiff-expected
  dt_tensor *loss = dt_mean(out);
  dt_backward(loss);
  dt_free(loss);
  dt_free(out);
  dt_free(head);
  dt_free(frozen_features);
  return 0;
}
