// corpus/autodiff/checkpoint_roundtrip_clean.c — the correct checkpoint dance: dt_inner gives
// the plain primitive, dt_to_device brings it to the host for saving; on restore the host copy
// is uploaded to the new plain device and wrapped with dt_from_inner on a new autodiff device.
// Also moves a tracked tensor between autodiff devices directly (gradients flow back). Clean.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad0 = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad0, 1, 2, (const int64_t[]){3, 2}));

  /* save */
  dt_tensor *plain = dt_inner(w);
  dt_tensor *host = dt_to_device(plain, dt_cpu());
  float saved[6];
  dt_read_floats(host, saved, 6);

  /* restore on another accelerator */
  dt_device ad1 = dt_autodiff(dt_sim(1));
  dt_tensor *up = dt_to_device(host, dt_inner_device(ad1));
  dt_tensor *w1 = dt_require_grad(dt_from_inner(ad1, up));

  /* a tracked tensor moved between autodiff devices stays tracked */
  dt_tensor *x = dt_randn(ad0, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *x1 = dt_to_device(x, ad1);
  dt_tensor *out = dt_matmul(x1, w1);
  dt_tensor *loss = dt_mean(out);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w1);
  printf("restored grad has %lld values, saved[0] = %f\n", (long long)(g ? dt_numel(g) : 0),
         (double)saved[0]);

  dt_tensor *all[] = {g, loss, out, x1, x, w1, up, host, plain, w};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
