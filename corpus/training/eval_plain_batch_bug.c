// corpus/training/eval_plain_batch_bug.c — training works (batches on the autodiff device);
// the evaluation loop builds its batches on the plain inner device but reuses the tracked model
// unchanged. forward() is fine for the training context and fails for the evaluation one:
// an error at its matmul (autodiff-expected), with evaluate() -> forward in the notes.
#include <stdio.h>

#include <dt/dt.h>

typedef struct model {
  dt_device dev;
  dt_tensor *w;
} model;

static dt_tensor *forward(const model *m, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, m->w); // expect-error: autodiff-expected
  dt_tensor *p = dt_sigmoid(z);
  dt_free(z);
  return p;
}

static void train_step(model *m, int step) {
  dt_tensor *x = dt_randn(m->dev, (uint64_t)step, 2, (const int64_t[]){4, 2});
  dt_tensor *y = dt_ones(m->dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *p = forward(m, x);
  dt_tensor *loss = dt_mse_loss(p, y);
  dt_backward(loss);
  dt_free(loss);
  dt_free(p);
  dt_free(y);
  dt_free(x);
}

static float evaluate(const model *m) {
  dt_device plain = dt_inner_device(m->dev);
  dt_tensor *x = dt_randn(plain, 100, 2, (const int64_t[]){4, 2});
  dt_tensor *p = forward(m, x);
  dt_tensor *s = dt_mean(p);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(s);
  dt_free(p);
  dt_free(x);
  return v;
}

int main(void) {
  model m;
  m.dev = dt_autodiff(dt_sim(1));
  m.w = dt_require_grad(dt_randn(m.dev, 1, 2, (const int64_t[]){2, 1}));
  for (int s = 0; s < 3; s++) train_step(&m, s);
  printf("eval %f\n", (double)evaluate(&m));
  dt_free(m.w);
  return 0;
}
