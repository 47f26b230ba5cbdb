// provenance: blind round field3
// Layers as objects with a vtable (struct of function pointers); each layer owns its device.
// The analyzer cannot know which forward runs: it must stay silent.
#include <dt/dt.h>
#include <stdio.h>
typedef struct layer layer;
typedef struct { dt_tensor *(*forward)(layer *, const dt_tensor *); void (*destroy)(layer *); } layer_ops;
struct layer { const layer_ops *ops; dt_device dev; dt_tensor *w; };
static dt_tensor *dense_fwd(layer *l, const dt_tensor *x) {
  dt_tensor *in = dt_to_device(x, l->dev);
  dt_tensor *y = dt_matmul(in, l->w);
  dt_free(in);
  return y;
}
static dt_tensor *act_fwd(layer *l, const dt_tensor *x) { (void)l; return dt_tanh(x); }
static void destroy(layer *l) { dt_free(l->w); }
static const layer_ops dense_ops = {dense_fwd, destroy}, act_ops = {act_fwd, destroy};
int main(void) {
  layer net[4] = {
    {&dense_ops, {DT_BACKEND_SIM, 0, 0}, NULL}, {&act_ops, {DT_BACKEND_CPU, 0, 0}, NULL},
    {&dense_ops, {DT_BACKEND_SIM, 1, 0}, NULL}, {&act_ops, {DT_BACKEND_CPU, 0, 0}, NULL}};
  net[0].w = dt_randn(net[0].dev, 1, 2, (const int64_t[]){4, 4});
  net[2].w = dt_randn(net[2].dev, 2, 2, (const int64_t[]){4, 2});
  dt_tensor *h = dt_randn(dt_cpu(), 3, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < 4; i++) {
    dt_tensor *n = net[i].ops->forward(&net[i], h);
    dt_free(h);
    h = n;
  }
  for (int i = 0; i < 4; i++) net[i].ops->destroy(&net[i]);
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
