// corpus/autodiff/from_inner_plain_device_bug.c — the trainer passes the plain data device to
// dt_from_inner where the autodiff device is needed (the two config fields look alike).
// Bug: dt_from_inner with a plain device (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

typedef struct devices {
  dt_device data;  /* plain */
  dt_device train; /* autodiff */
} devices;

int main(void) {
  devices d;
  d.data = dt_sim(0);
  d.train = dt_autodiff(d.data);
  dt_tensor *init = dt_randn(d.data, 3, 2, (const int64_t[]){4, 4});
  dt_tensor *w = dt_from_inner(d.data, init); // expect-error: autodiff-expected
  dt_require_grad(w);
  printf("%lld\n", (long long)dt_numel(w));
  return 0;
}
