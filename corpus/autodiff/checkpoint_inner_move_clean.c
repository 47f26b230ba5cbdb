// provenance: blind round field2
// Checkpoint done right: inner primitive moved to host, restored with from_inner after a move back.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *w; } layer;
static dt_tensor *host_snapshot(const layer *l) {
  dt_tensor *in = dt_inner(l->w);
  dt_tensor *h = dt_to_device(in, dt_cpu());
  dt_free(in);
  return h;
}
static void restore(layer *l, const dt_tensor *host) {
  dt_tensor *back = dt_to_device(host, dt_inner_device(l->ad));
  dt_free(l->w);
  l->w = dt_require_grad(dt_from_inner(l->ad, back));
  dt_free(back);
}
int main(int argc, char **argv) {
  (void)argv;
  layer l;
  l.ad = dt_autodiff(argc > 1 ? dt_sim(1) : dt_sim(0));
  l.w = dt_require_grad(dt_randn(l.ad, 3, 2, (const int64_t[]){2, 2}));
  dt_tensor *snap = host_snapshot(&l);
  dt_tensor *scaled = dt_mul_scalar(snap, 0.5f);
  restore(&l, scaled);
  dt_tensor *x = dt_ones(l.ad, DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *loss = dt_sum(dt_matmul(x, l.w));
  dt_backward(loss);
  dt_tensor *g = dt_grad(l.w);
  float v[4]; dt_read_floats(g, v, 4);
  printf("%f\n", v[0]);
  return 0;
}
