// A model struct filled by init(&m, dev) and used by forward(&m, x): the input stays on the
// host while the model is on sim:1. The failure is inside forward, for main's calling context.
#include <dt/dt.h>
typedef struct layer { dt_tensor *w, *b; } layer;
typedef struct model { layer l1, l2; dt_device dev; int hidden; } model;
static void layer_init(layer *l, dt_device dev, int in, int out) {
  l->w = dt_randn(dev, 1, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out});
}
static void model_init(model *m, dt_device dev) {
  m->dev = dev;
  m->hidden = 8;
  layer_init(&m->l1, dev, 4, m->hidden);
  layer_init(&m->l2, dev, m->hidden, 1);
}
static dt_tensor *layer_forward(const layer *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(h, l->b);
  dt_free(h);
  return y;
}
static dt_tensor *forward(const model *m, const dt_tensor *x) {
  dt_tensor *h = layer_forward(&m->l1, x);
  dt_tensor *a = dt_relu(h);
  dt_tensor *y = layer_forward(&m->l2, a);
  dt_free(h);
  dt_free(a);
  return y;
}
int main(void) {
  model m;
  model_init(&m, dt_sim(1));
  dt_tensor *x = dt_randn(dt_cpu(), 3, 2, (const int64_t[]){5, 4});
  dt_tensor *y = forward(&m, x);
  dt_tensor *x2 = dt_to_device(x, m.dev);
  dt_tensor *y2 = forward(&m, x2);
  dt_free(y);
  dt_free(y2);
  return 0;
}
