// corpus/autodiff/cross_backend_students_bug.c — an ensemble with two members trained together:
// member A on autodiff<cpu>, member B on autodiff<sim:1>. Their outputs are averaged before the
// loss without moving them to one device. Bug: autodiff-inner-backend at the dt_add.
#include <stdio.h>

#include <dt/dt.h>

typedef struct member {
  dt_device dev;
  dt_tensor *w;
} member;

static void member_init(member *m, dt_device dev, uint64_t seed) {
  m->dev = dev;
  m->w = dt_require_grad(dt_randn(dev, seed, 2, (const int64_t[]){3, 1}));
}

static dt_tensor *member_forward(const member *m, const float *rows) {
  dt_tensor *x = dt_from_floats(m->dev, rows, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, m->w);
  dt_free(x);
  return y;
}

int main(void) {
  static const float rows[6] = {1, 0, 0, 0, 1, 0};
  member a, b;
  member_init(&a, dt_autodiff(dt_cpu()), 1);
  member_init(&b, dt_autodiff(dt_sim(1)), 2);
  dt_tensor *ya = member_forward(&a, rows);
  dt_tensor *yb = member_forward(&b, rows);
  dt_tensor *sum = dt_add(ya, yb); // expect-error: autodiff-inner-backend
  dt_tensor *avg = dt_mul_scalar(sum, 0.5f);
  dt_tensor *loss = dt_mean(avg);
  dt_backward(loss);
  return 0;
}
