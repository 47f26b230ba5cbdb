// provenance: blind round field
// SGD with momentum; velocity buffers created on dt_inner_device(dev) beside the gradients.
#include <dt/dt.h>
#include <stdio.h>

#define NPARAM 2

typedef struct { dt_tensor *p[NPARAM]; dt_tensor *vel[NPARAM]; dt_device dev; } trainer;

static void trainer_init(trainer *t, dt_device dev) {
  t->dev = dev;
  t->p[0] = dt_require_grad(dt_full(dev, 0.1f, 2, (const int64_t[]){2, 1}));
  t->p[1] = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){1}));
  for (int i = 0; i < NPARAM; i++)
    t->vel[i] = dt_zeros(dt_inner_device(dev), DT_FLOAT, dt_rank(t->p[i]), (const int64_t[]){dt_dim(t->p[i], 0), i == 0 ? 1 : 0});
}

static void trainer_step(trainer *t, float lr, float mu) {
  for (int i = 0; i < NPARAM; i++) {
    dt_tensor *g = dt_grad(t->p[i]);
    if (!g) continue;
    dt_tensor *v1 = dt_mul_scalar(t->vel[i], mu);
    dt_tensor *v = dt_add(v1, g);
    dt_tensor *st = dt_mul_scalar(v, lr);
    dt_tensor *in = dt_inner(t->p[i]);
    dt_tensor *nw = dt_sub(in, st);
    dt_free(t->p[i]); dt_free(t->vel[i]);
    t->vel[i] = v;
    t->p[i] = dt_require_grad(dt_from_inner(t->dev, nw));
    dt_free(g); dt_free(v1); dt_free(st); dt_free(in); dt_free(nw);
  }
}

int main(void) {
  trainer t;
  trainer_init(&t, dt_autodiff(dt_sim(0)));
  dt_tensor *x = dt_from_floats(t.dev, (const float[]){1, 0, 0, 1, 1, 1}, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_from_floats(t.dev, (const float[]){2, -1, 1}, 2, (const int64_t[]){3, 1});
  float l0 = 0, l = 0;
  for (int it = 0; it < 80; it++) {
    dt_tensor *h = dt_matmul(x, t.p[0]);
    dt_tensor *o = dt_add(h, t.p[1]);
    dt_tensor *loss = dt_mse_loss(o, y);
    dt_backward(loss);
    dt_read_floats(loss, &l, 1);
    if (it == 0) l0 = l;
    trainer_step(&t, 0.05f, 0.9f);
    dt_free(h); dt_free(o); dt_free(loss);
  }
  printf("momentum: %.4f -> %.4f\n", l0, l);
  for (int i = 0; i < NPARAM; i++) { dt_free(t.p[i]); dt_free(t.vel[i]); }
  dt_free(x); dt_free(y);
  return l < l0 ? 0 : 1;
}
