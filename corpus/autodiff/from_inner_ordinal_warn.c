// provenance: blind round field4
// Data-parallel replicas: every replica re-wraps the averaged weights on its own autodiff
// Replica 0 passes and replica 1 fails: the failure depends on the loop iteration (warning).
// device, but the average is always computed on sim:0, so replica 1 (autodiff<sim:1>) fails.
#include <dt/dt.h>
#include <stdio.h>

#define NREP 2
typedef struct { dt_device ad; dt_tensor *w; } replica;

static dt_tensor *average(replica *r, int n) {
  dt_tensor *acc = dt_zeros(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  for (int i = 0; i < n; i++) {
    dt_tensor *wi = dt_inner(r[i].w);
    dt_tensor *h = dt_to_device(wi, dt_sim(0));
    dt_tensor *s = dt_add(acc, h);
    dt_free(acc); dt_free(wi); dt_free(h);
    acc = s;
  }
  dt_tensor *avg = dt_mul_scalar(acc, 1.0f / (float)n);
  dt_free(acc);
  return avg;
}

static void broadcast(replica *r, int n, dt_tensor *avg) {
  for (int i = 0; i < n; i++) {
    dt_free(r[i].w);
    r[i].w = dt_require_grad(dt_from_inner(r[i].ad, avg)); // expect-warning: device-mismatch
  }
}

int main(void) {
  replica r[NREP];
  for (int i = 0; i < NREP; i++) {
    r[i].ad = dt_autodiff(dt_sim(i));
    r[i].w = dt_require_grad(dt_randn(r[i].ad, (uint64_t)i, 1, (const int64_t[]){4}));
  }
  dt_tensor *avg = average(r, NREP);
  broadcast(r, NREP, avg);
  puts("synced");
  return 0;
}
