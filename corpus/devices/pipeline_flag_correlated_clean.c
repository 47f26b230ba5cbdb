// provenance: blind round field3
// Pipeline mode is a config field: when set, the second layer lives on sim:1 and activations
// are moved there; otherwise everything stays on sim:0. Both uses test the same field.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { int pipeline; } opts;
typedef struct { dt_tensor *w1, *w2; } net;
static void build(net *n, const opts *o) {
  n->w1 = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 3});
  n->w2 = dt_randn(o->pipeline ? dt_sim(1) : dt_sim(0), 2, 2, (const int64_t[]){3, 2});
}
static dt_tensor *forward(const net *n, const opts *o, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, n->w1);
  if (o->pipeline) {
    dt_tensor *m = dt_to_device(h, dt_sim(1));
    dt_free(h);
    h = m;
  }
  dt_tensor *y = dt_matmul(h, n->w2);
  dt_free(h);
  return y;
}
int main(int argc, char **argv) {
  (void)argv;
  opts o = {argc > 1};
  net n;
  build(&n, &o);
  dt_tensor *x = dt_randn(dt_sim(0), 3, 2, (const int64_t[]){2, 3});
  dt_tensor *y = forward(&n, &o, x);
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
