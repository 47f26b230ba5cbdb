// corpus/interproc/device_pointer_param_clean.c — helpers that take the device by pointer
// (`const dt_device *`), a helper that fills a device through an out parameter, and a helper
// that aligns one tensor with another through dt_device_of. Clean.
#include <stdio.h>

#include <dt/dt.h>

static void choose_device(int prefer_second, dt_device *out) {
  *out = prefer_second ? dt_sim(1) : dt_sim(0);
}

static dt_tensor *make_input(const dt_device *dev, int rows) {
  return dt_randn(*dev, (uint64_t)rows, 2, (const int64_t[]){rows, 3});
}

static dt_tensor *align_to(const dt_tensor *t, const dt_tensor *like) {
  return dt_to_device(t, dt_device_of(like));
}

int main(int argc, char **argv) {
  (void)argv;
  dt_device dev;
  choose_device(argc > 2, &dev);
  dt_tensor *x = make_input(&dev, 4);
  dt_tensor *w_host = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *w = align_to(w_host, x);
  dt_tensor *y = dt_matmul(x, w);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(w);
  dt_free(w_host);
  dt_free(x);
  return 0;
}
