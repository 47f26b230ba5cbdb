// Loops, break, continue and early returns that keep every tensor on one device.
#include <stdio.h>
#include <dt/dt.h>
static int train(dt_device dev, int steps) {
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *acc = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){3, 3});
  for (int s = 0; s < steps; s++) {
    if (s == 3) continue;
    dt_tensor *x = dt_randn(dev, (uint64_t)s, 2, (const int64_t[]){3, 3});
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *n = dt_add(acc, y);
    dt_free(acc);
    acc = n;
    dt_free(y);
    dt_free(x);
    if (s > 100) break;
  }
  int i = 0;
  while (1) {
    if (++i > 3) goto done;
    dt_tensor *t = dt_relu(acc);
    dt_free(acc);
    acc = t;
  }
done:
  if (!acc) return 1;
  printf("%lld\n", (long long)dt_numel(acc));
  dt_free(acc);
  dt_free(w);
  return 0;
}
int main(void) { return train(dt_sim(1), 10) + train(dt_cpu(), 2); }
