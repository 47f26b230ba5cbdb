// provenance: blind round field
// A model built on the cpu is moved layer by layer to sim:1 before inference there.
#include <dt/dt.h>
#include <stdio.h>

#define DEPTH 3

typedef struct { dt_tensor *w[DEPTH]; dt_tensor *b[DEPTH]; dt_device dev; } net;

static void net_init(net *n) {
  n->dev = dt_cpu();
  for (int i = 0; i < DEPTH; i++) {
    n->w[i] = dt_full(n->dev, 0.5f, 2, (const int64_t[]){2, 2});
    n->b[i] = dt_ones(n->dev, DT_FLOAT, 1, (const int64_t[]){2});
  }
}

static void net_to(net *n, dt_device dev) {
  for (int i = 0; i < DEPTH; i++) {
    dt_tensor *w = dt_to_device(n->w[i], dev), *b = dt_to_device(n->b[i], dev);
    dt_free(n->w[i]); dt_free(n->b[i]);
    n->w[i] = w; n->b[i] = b;
  }
  n->dev = dev;
}

static dt_tensor *net_forward(const net *n, dt_tensor *x) {
  dt_tensor *h = dt_to_device(x, n->dev);
  for (int i = 0; i < DEPTH; i++) {
    dt_tensor *m = dt_matmul(h, n->w[i]);
    dt_tensor *a = dt_add(m, n->b[i]);
    dt_free(h); dt_free(m);
    h = a;
  }
  return h;
}

int main(void) {
  net n;
  net_init(&n);
  net_to(&n, dt_sim(1));
  dt_tensor *x = dt_from_floats(dt_cpu(), (const float[]){1, 1}, 2, (const int64_t[]){1, 2});
  dt_tensor *y = net_forward(&n, x);
  float v[2];
  dt_read_floats(y, v, 2);
  printf("y = %.2f %.2f (expect 4 4)\n", v[0], v[1]);
  for (int i = 0; i < DEPTH; i++) { dt_free(n.w[i]); dt_free(n.b[i]); }
  dt_free(x); dt_free(y);
  return v[0] == 4.0f && v[1] == 4.0f ? 0 : 1;
}
