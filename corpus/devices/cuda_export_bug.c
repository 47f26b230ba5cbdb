// corpus/devices/cuda_export_bug.c — a model trained on the simulated accelerator is exported
// "for serving" by moving it to cuda:0. Checked with `--unavailable cuda`: the transfer is the
// first allocation on cuda (backend-unavailable at dt_to_device).
// tagcheck-args: --unavailable cuda
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *train(dt_device dev) {
  dt_tensor *w = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){3, 1});
  for (int step = 0; step < 3; step++) {
    dt_tensor *delta = dt_full(dev, 0.1f, 2, (const int64_t[]){3, 1});
    dt_tensor *next = dt_add(w, delta);
    dt_free(w);
    dt_free(delta);
    w = next;
  }
  return w;
}

int main(void) {
  dt_tensor *w = train(dt_sim(0));
  dt_tensor *serving = dt_to_device(w, dt_cuda(0)); // expect-error: backend-unavailable
  printf("exported %lld\n", (long long)dt_numel(serving));
  dt_free(serving);
  dt_free(w);
  return 0;
}
