// Models allocated on the heap by a constructor, two of them on different devices, each used
// with its own inputs; layers kept in an array filled by a loop.
#include <stdlib.h>
#include <dt/dt.h>
typedef struct layer { dt_tensor *w; } layer;
typedef struct net { dt_device dev; int n; layer layers[3]; } net;
static net *net_new(dt_device dev) {
  net *m = malloc(sizeof *m);
  if (!m) return NULL;
  m->dev = dev;
  m->n = 3;
  for (int i = 0; i < m->n; i++) m->layers[i].w = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){4, 4});
  return m;
}
static dt_tensor *net_forward(const net *m, dt_tensor *x) {
  dt_tensor *h = dt_to_device(x, m->dev);
  for (int i = 0; i < m->n; i++) {
    dt_tensor *y = dt_matmul(h, m->layers[i].w);
    dt_free(h);
    h = dt_tanh(y);
    dt_free(y);
  }
  return h;
}
int main(void) {
  net *a = net_new(dt_cpu());
  net *b = net_new(dt_sim(1));
  if (!a || !b) return 1;
  dt_tensor *x = dt_randn(dt_cpu(), 9, 2, (const int64_t[]){2, 4});
  dt_tensor *ya = net_forward(a, x);
  dt_tensor *yb = net_forward(b, x);
  dt_tensor *yb_host = dt_to_device(yb, dt_cpu());
  dt_tensor *s = dt_add(ya, yb_host);
  dt_free(s);
  free(a);
  free(b);
  return 0;
}
