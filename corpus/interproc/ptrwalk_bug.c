// provenance: blind round field6
// An optimizer walk with a parallel state array indexed by `p - base`: the momentum
// buffers are allocated by a walk over the parameters on the optimizer's configured
// "state device".  The parameters were created on sim:0, but the optimizer is configured
// with sim:1 for its state ("offload"), so the first momentum update fails for every
// parameter.  The weight-decay walk creates its factors from each parameter's own device.
#include <dt/dt.h>
#include <stdio.h>

#define NP 5
#define N 3
static const int64_t S[1] = {N};

typedef struct momentum_opt {
  dt_device state_dev;
  dt_tensor *buf[NP];
  float beta;
} momentum_opt;

static void opt_init(momentum_opt *o, dt_tensor *const *params, int n, dt_device state_dev) {
  o->state_dev = state_dev;
  o->beta = 0.9f;
  for (dt_tensor *const *p = params; p < params + n; p++)
    o->buf[p - params] = dt_zeros(o->state_dev, DT_FLOAT, 1, S);
}

static void opt_step(momentum_opt *o, dt_tensor **params, int n) {
  for (dt_tensor **p = params; p < params + n; p++) {
    dt_tensor **m = &o->buf[p - params];
    dt_tensor *mb = dt_mul_scalar(*m, o->beta);
    dt_tensor *nm = dt_add(mb, *p); // expect-error: device-mismatch
    dt_free(*m);
    dt_free(mb);
    *m = nm;
  }
}

static void weight_decay(dt_tensor **params, int n) {
  for (dt_tensor **p = params + n - 1; p >= params; p--) {
    dt_tensor *f = dt_full(dt_device_of(*p), 0.98f, 1, S);
    dt_tensor *np = dt_mul(*p, f);
    dt_free(*p);
    *p = np;
    dt_free(f);
    if (p == params)
      break;
  }
}

int main(void) {
  dt_tensor *params[NP];
  for (int i = 0; i < NP; i++)
    params[i] = dt_full(dt_sim(0), 1.0f + (float)i, 1, S);
  weight_decay(params, NP);
  momentum_opt o;
  opt_init(&o, params, NP, dt_sim(1));
  opt_step(&o, params, NP);
  printf("done\n");
  for (int i = 0; i < NP; i++) {
    dt_free(params[i]);
    dt_free(o.buf[i]);
  }
  return 0;
}
