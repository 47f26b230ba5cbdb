// corpus/training/loader_plain_batches_bug.c — the data loader is handed the plain inner device
// (it "only moves data"), so the training batches are plain while the model is tracked on
// autodiff<cpu>. Bug: autodiff-expected at the first matmul of forward(), whose only caller
// passes the plain batch.
#include <stdio.h>

#include <dt/dt.h>

typedef struct model {
  dt_tensor *w, *b;
} model;

typedef struct loader {
  dt_device dev;
  int next;
} loader;

static dt_tensor *loader_next(loader *l) {
  l->next++;
  return dt_randn(l->dev, (uint64_t)l->next, 2, (const int64_t[]){4, 3});
}

static dt_tensor *forward(const model *m, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, m->w); // expect-error: autodiff-expected
  dt_tensor *y = dt_add(t, m->b);
  dt_free(t);
  return y;
}

int main(void) {
  dt_device train = dt_autodiff(dt_cpu());
  model m;
  m.w = dt_require_grad(dt_randn(train, 1, 2, (const int64_t[]){3, 1}));
  m.b = dt_require_grad(dt_zeros(train, DT_FLOAT, 1, (const int64_t[]){1}));
  loader ld = {dt_inner_device(train), 0};
  for (int step = 0; step < 3; step++) {
    dt_tensor *x = loader_next(&ld);
    dt_tensor *y = forward(&m, x);
    dt_tensor *loss = dt_mean(y);
    dt_backward(loss);
    dt_free(loss);
    dt_free(y);
    dt_free(x);
  }
  return 0;
}
