// corpus/devices/data_parallel_gather_clean.c — data parallelism by hand: each replica computes
// a partial loss on its own accelerator from a copy of the weights, then the partial results
// are gathered on sim:0 with dt_to_device and reduced there. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define REPLICAS 2

int main(void) {
  dt_device home = dt_sim(0);
  dt_tensor *w = dt_randn(home, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *partial[REPLICAS];
  for (int r = 0; r < REPLICAS; r++) {
    dt_device dev = dt_sim(r);
    dt_tensor *w_r = dt_to_device(w, dev);
    dt_tensor *x = dt_randn(dev, 10 + (uint64_t)r, 2, (const int64_t[]){4, 3});
    dt_tensor *y = dt_matmul(x, w_r);
    dt_tensor *l = dt_mean(y);
    partial[r] = dt_to_device(l, home);
    dt_free(l);
    dt_free(y);
    dt_free(x);
    dt_free(w_r);
  }
  dt_tensor *total = dt_zeros(home, DT_FLOAT, 0, NULL);
  for (int r = 0; r < REPLICAS; r++) {
    dt_tensor *next = dt_add(total, partial[r]);
    dt_free(total);
    total = next;
    dt_free(partial[r]);
  }
  float v = 0;
  dt_read_floats(total, &v, 1);
  printf("mean of replica losses %f\n", (double)(v / REPLICAS));
  dt_free(total);
  dt_free(w);
  return 0;
}
