// provenance: blind round field4
// Five-level chain main -> run_training -> train_epoch -> train_step -> dense_forward -> add_bias.
// The bias is always created on the host; the chain started with sim:0 fails in add_bias.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *w; dt_tensor *b; } dense;

static void dense_init(dense *l, dt_device dev, uint64_t seed) {
  l->dev = dev;
  l->w = dt_randn(dev, seed, 2, (const int64_t[]){4, 3});
  l->b = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){3});
}

static dt_tensor *add_bias(const dt_tensor *h, const dt_tensor *b) {
  return dt_add(h, b); // expect-error: backend-mismatch
}

static dt_tensor *dense_forward(const dense *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *y = add_bias(h, l->b);
  dt_free(h);
  return y;
}

static float train_step(dense *l, const dt_tensor *x, const dt_tensor *t) {
  dt_tensor *y = dense_forward(l, x);
  dt_tensor *loss = dt_mse_loss(y, t);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  dt_free(y);
  dt_free(loss);
  return v;
}

static float train_epoch(dense *l, dt_device dev, int nbatch) {
  float total = 0.0f;
  for (int i = 0; i < nbatch; i++) {
    dt_tensor *x = dt_randn(dev, 100 + (uint64_t)i, 2, (const int64_t[]){2, 4});
    dt_tensor *t = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
    total += train_step(l, x, t);
    dt_free(x);
    dt_free(t);
  }
  return total / (float)nbatch;
}

static float run_training(dt_device dev, int epochs) {
  dense l;
  dense_init(&l, dev, 7);
  float last = 0.0f;
  for (int e = 0; e < epochs; e++) last = train_epoch(&l, dev, 2);
  dt_free(l.w);
  dt_free(l.b);
  return last;
}

int main(void) {
  printf("host %.3f\n", (double)run_training(dt_cpu(), 2));
  printf("sim  %.3f\n", (double)run_training(dt_sim(0), 2));
  return 0;
}
