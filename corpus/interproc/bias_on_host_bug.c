// provenance: blind round field
// Model on sim:0 whose init creates the bias with dt_cpu() by mistake.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w, *b; } linear;
typedef struct { linear fc[2]; dt_device dev; } model;

static void linear_init(linear *l, dt_device dev, int64_t in, int64_t out) {
  l->w = dt_randn(dev, 42, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){out});
}

static dt_tensor *linear_forward(const linear *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *y = dt_add(h, l->b); // expect-error: backend-mismatch
  dt_free(h);
  return y;
}

int main(void) {
  model m;
  m.dev = dt_sim(0);
  linear_init(&m.fc[0], m.dev, 4, 8);
  linear_init(&m.fc[1], m.dev, 8, 2);
  dt_tensor *x = dt_ones(m.dev, DT_FLOAT, 2, (const int64_t[]){3, 4});
  dt_tensor *h = linear_forward(&m.fc[0], x);
  dt_tensor *a = dt_relu(h);
  dt_tensor *y = linear_forward(&m.fc[1], a);
  float out[6];
  dt_read_floats(y, out, 6);
  printf("%f\n", out[0]);
  return 0;
}
