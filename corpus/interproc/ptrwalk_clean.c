// provenance: blind round field6
// Parameter walks in the style of hand-written optimizers: a pointer p runs over the
// parameter array and a parallel array of devices is indexed by `p - base`.  The parameters
// alternate between sim:0 and sim:1 (interleaved sharding); the first walk records each
// parameter's device, the second creates each gradient on devs[p - base] and updates *p, a
// third walk runs backwards.  Every update meets a gradient on the parameter's own device.
#include <dt/dt.h>
#include <stdio.h>

#define NP 6
#define N 4
static const int64_t S[1] = {N};

typedef struct param_set {
  dt_tensor *p[NP];
  dt_device devs[NP];
  int n;
} param_set;

static void init_params(param_set *ps) {
  ps->n = NP;
  for (int i = 0; i < NP; i++)
    ps->p[i] = dt_full(dt_sim(i % 2), (float)i, 1, S);
  dt_tensor **base = ps->p;
  for (dt_tensor **q = base; q != base + ps->n; ++q)
    ps->devs[q - base] = dt_device_of(*q);
}

static dt_tensor *fake_grad(dt_device d, int k) {
  return dt_full(d, 0.1f * (float)(k + 1), 1, S);
}

static void sgd(param_set *ps, float lr) {
  dt_tensor **base = ps->p;
  for (dt_tensor **q = base; q < base + ps->n; q++) {
    long idx = q - base;
    dt_tensor *g = fake_grad(ps->devs[idx], (int)idx);
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *np = dt_sub(*q, step);
    dt_free(*q);
    *q = np;
    dt_free(g);
    dt_free(step);
  }
}

static void decay_backwards(param_set *ps) {
  dt_tensor **base = ps->p;
  dt_tensor **q = base + ps->n;
  while (q-- != base) {
    dt_tensor *factor = dt_full(ps->devs[q - base], 0.99f, 1, S);
    dt_tensor *np = dt_mul(*q, factor);
    dt_free(*q);
    *q = np;
    dt_free(factor);
  }
}

int main(void) {
  param_set ps;
  init_params(&ps);
  for (int step = 0; step < 3; step++) {
    sgd(&ps, 0.5f);
    decay_backwards(&ps);
  }
  float total = 0.0f;
  for (dt_tensor **q = ps.p; q < ps.p + ps.n; q++) {
    dt_tensor *host = dt_to_device(*q, dt_cpu());
    float v[N];
    dt_read_floats(host, v, N);
    total += v[0];
    dt_free(host);
  }
  printf("total %.4f\n", (double)total);
  for (int i = 0; i < ps.n; i++)
    dt_free(ps.p[i]);
  return 0;
}
