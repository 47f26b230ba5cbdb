// corpus/interproc/move_if_needed_clean.c — the common "move only when needed" helper: if the
// tensor is already on the target device (dt_device_equal) it returns a new handle to it,
// otherwise a copy on the target device. Whichever branch runs, the result is on `dev`.
// Clean: a precise analysis uses the dt_device_equal test; it must not warn.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *to_if_needed(const dt_tensor *t, dt_device dev) {
  if (dt_device_equal(dt_device_of(t), dev)) return dt_detach(t);
  return dt_to_device(t, dev);
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *host_x = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){2, 3});
  dt_tensor *dev_x = dt_randn(dev, 3, 2, (const int64_t[]){2, 3});
  dt_tensor *inputs[2] = {host_x, dev_x};
  for (int i = 0; i < 2; i++) {
    dt_tensor *x = to_if_needed(inputs[i], dev);
    dt_tensor *y = dt_matmul(x, w);
    printf("input %d -> %lld outputs\n", i, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(dev_x);
  dt_free(host_x);
  dt_free(w);
  return 0;
}
