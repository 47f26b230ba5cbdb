// provenance: blind round field4
// Trainer with hooks taking an opaque void* context. The eval hook casts the context to the
// model and runs it on a batch from the host-side validation set.
#include <dt/dt.h>
#include <stdio.h>

typedef void (*hook_fn)(void *ctx, int step);
typedef struct { hook_fn fn; void *ctx; } hook;
typedef struct { dt_device dev; dt_tensor *w; dt_tensor *val_x; } model;

static void eval_hook(void *ctx, int step) {
  model *m = (model *)ctx;
  dt_tensor *y = dt_matmul(m->val_x, m->w); // expect-error: backend-mismatch
  printf("eval %d %lld\n", step, (long long)dt_numel(y));
  dt_free(y);
}

static void log_hook(void *ctx, int step) {
  (void)ctx;
  printf("step %d\n", step);
}

static void fit(model *m, hook *hooks, int nh, int steps) {
  for (int s = 0; s < steps; s++) {
    dt_tensor *x = dt_randn(m->dev, (uint64_t)s, 2, (const int64_t[]){2, 3});
    dt_tensor *y = dt_matmul(x, m->w);
    dt_free(x); dt_free(y);
    for (int h = 0; h < nh; h++) hooks[h].fn(hooks[h].ctx, s);
  }
}

int main(void) {
  model m;
  m.dev = dt_sim(1);
  m.w = dt_randn(m.dev, 1, 2, (const int64_t[]){3, 2});
  m.val_x = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){5, 3});
  hook hooks[2] = { { log_hook, NULL }, { eval_hook, &m } };
  fit(&m, hooks, 2, 2);
  return 0;
}
