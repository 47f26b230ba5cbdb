// corpus/interproc/init_struct_field_bug.c — init(&m, dev) creates every weight on `dev`
// except the output bias, which is created with dt_cpu(). The mismatch happens inside
// forward(), at the bias add, for the only calling context: an error there, with the chain
// main -> mlp_forward in the notes.
#include <stdio.h>

#include <dt/dt.h>

typedef struct mlp {
  dt_tensor *w1, *b1, *w2, *b2;
} mlp;

static void mlp_init(mlp *m, dt_device dev) {
  m->w1 = dt_randn(dev, 1, 2, (const int64_t[]){4, 8});
  m->b1 = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){8});
  m->w2 = dt_randn(dev, 2, 2, (const int64_t[]){8, 2});
  m->b2 = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *a = dt_matmul(x, m->w1);
  dt_tensor *b = dt_add(a, m->b1);
  dt_tensor *h = dt_relu(b);
  dt_tensor *c = dt_matmul(h, m->w2);
  dt_tensor *y = dt_add(c, m->b2); // expect-error: backend-mismatch
  dt_free(c);
  dt_free(h);
  dt_free(b);
  dt_free(a);
  return y;
}

int main(void) {
  dt_device dev = dt_sim(1);
  mlp m;
  mlp_init(&m, dev);
  dt_tensor *x = dt_randn(dev, 3, 2, (const int64_t[]){5, 4});
  dt_tensor *y = mlp_forward(&m, x);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  return 0;
}
