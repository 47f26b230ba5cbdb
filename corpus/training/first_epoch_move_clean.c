// provenance: blind round field3
// The dataset is moved to the device lazily, on the first epoch only; later epochs reuse the
// moved copy. No run of this loop ever meets the host copy.
#include <dt/dt.h>
#include <stdio.h>
int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *data = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){4, 3});
  int on_device = 0;
  float last = 0;
  for (int epoch = 0; epoch < 3; epoch++) {
    if (!on_device) {
      dt_tensor *moved = dt_to_device(data, dev);
      dt_free(data);
      data = moved;
      on_device = 1;
    }
    dt_tensor *p = dt_matmul(data, w);
    dt_tensor *m = dt_mean(p);
    dt_read_floats(m, &last, 1);
    dt_free(p); dt_free(m);
  }
  printf("%f\n", last);
  return 0;
}
