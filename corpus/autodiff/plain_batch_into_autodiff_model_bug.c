// provenance: blind round field
// The batch is created on the plain inner device while the weights are autodiff.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w1, *w2; dt_device dev; } mlp;

static void mlp_init(mlp *m, dt_device ad) {
  m->dev = ad;
  m->w1 = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 5}));
  m->w2 = dt_require_grad(dt_randn(ad, 2, 2, (const int64_t[]){5, 1}));
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->w1); // expect-error: autodiff-expected
  dt_tensor *a = dt_relu(h);
  dt_tensor *y = dt_matmul(a, m->w2);
  dt_free(h); dt_free(a);
  return y;
}

int main(void) {
  mlp m;
  mlp_init(&m, dt_autodiff(dt_sim(1)));
  dt_tensor *x = dt_ones(dt_inner_device(m.dev), DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = mlp_forward(&m, x);
  dt_tensor *l = dt_sum(y);
  dt_backward(l);
  printf("done\n");
  return 0;
}
