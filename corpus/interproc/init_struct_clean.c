// corpus/interproc/init_struct_clean.c — the standard model layout: a struct of weight
// tensors filled by init(&m, dev), used by forward(&m, x) and released by model_free(&m).
// Clean: the fields carry the device init() was called with.
#include <stdio.h>

#include <dt/dt.h>

typedef struct mlp {
  dt_tensor *w1, *b1, *w2, *b2;
  dt_device dev;
} mlp;

static void mlp_init(mlp *m, dt_device dev, int in, int hidden, int out) {
  m->dev = dev;
  m->w1 = dt_randn(dev, 1, 2, (const int64_t[]){in, hidden});
  m->b1 = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){hidden});
  m->w2 = dt_randn(dev, 2, 2, (const int64_t[]){hidden, out});
  m->b2 = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out});
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, m->w1);
  dt_tensor *b = dt_add(a, m->b1);
  dt_tensor *h = dt_relu(b);
  dt_tensor *c = dt_matmul(h, m->w2);
  dt_tensor *y = dt_add(c, m->b2);
  dt_free(c);
  dt_free(h);
  dt_free(b);
  dt_free(a);
  return y;
}

static void mlp_free(mlp *m) {
  dt_free(m->w1);
  dt_free(m->b1);
  dt_free(m->w2);
  dt_free(m->b2);
}

int main(void) {
  mlp m;
  mlp_init(&m, dt_sim(0), 6, 16, 3);
  dt_tensor *x = dt_randn(m.dev, 7, 2, (const int64_t[]){10, 6});
  dt_tensor *y = mlp_forward(&m, x);
  dt_tensor *target = dt_zeros(m.dev, DT_FLOAT, 2, (const int64_t[]){10, 3});
  dt_tensor *loss = dt_mse_loss(y, target);
  float l = 0;
  dt_read_floats(loss, &l, 1);
  printf("loss %f\n", (double)l);
  dt_free(loss);
  dt_free(target);
  dt_free(y);
  dt_free(x);
  mlp_free(&m);
  return 0;
}
