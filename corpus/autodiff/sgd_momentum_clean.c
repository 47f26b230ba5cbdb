// provenance: blind round field4
// SGD with momentum written by hand: velocity buffers on the inner device, updates on dt_inner
// views, weights rewrapped with dt_from_inner each step. Looks like it mixes worlds; it does not.
#include <dt/dt.h>
#include <stdio.h>

#define NP 2
typedef struct { dt_device ad; dt_tensor *p[NP]; dt_tensor *vel[NP]; float lr, mu; } sgd;

static void sgd_init(sgd *o, dt_device ad, float lr, float mu) {
  o->ad = ad; o->lr = lr; o->mu = mu;
  o->p[0] = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 4}));
  o->p[1] = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){4}));
  for (int i = 0; i < NP; i++)
    o->vel[i] = dt_zeros(dt_inner_device(ad), DT_FLOAT, dt_rank(o->p[i]),
                         i == 0 ? (const int64_t[]){3, 4} : (const int64_t[]){4});
}

static void sgd_step(sgd *o) {
  for (int i = 0; i < NP; i++) {
    dt_tensor *g = dt_grad(o->p[i]);
    if (!g) continue;
    dt_tensor *vm = dt_mul_scalar(o->vel[i], o->mu);
    dt_tensor *v = dt_add(vm, g);
    dt_tensor *step = dt_mul_scalar(v, -o->lr);
    dt_tensor *w = dt_inner(o->p[i]);
    dt_tensor *nw = dt_add(w, step);
    dt_free(o->p[i]);
    o->p[i] = dt_require_grad(dt_from_inner(o->ad, nw));
    dt_free(o->vel[i]);
    o->vel[i] = v;
    dt_free(g); dt_free(vm); dt_free(step); dt_free(w); dt_free(nw);
  }
}

int main(void) {
  sgd o;
  sgd_init(&o, dt_autodiff(dt_sim(1)), 0.1f, 0.9f);
  dt_tensor *x = dt_randn(o.ad, 5, 2, (const int64_t[]){2, 3});
  dt_tensor *t = dt_zeros(o.ad, DT_FLOAT, 2, (const int64_t[]){2, 4});
  float l = 0;
  for (int it = 0; it < 4; it++) {
    dt_tensor *h = dt_matmul(x, o.p[0]);
    dt_tensor *y = dt_add(h, o.p[1]);
    dt_tensor *loss = dt_mse_loss(y, t);
    dt_backward(loss);
    dt_read_floats(loss, &l, 1);
    sgd_step(&o);
    dt_free(h); dt_free(y); dt_free(loss);
  }
  printf("loss %.4f\n", (double)l);
  return 0;
}
