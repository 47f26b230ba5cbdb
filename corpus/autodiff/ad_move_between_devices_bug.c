// provenance: blind round field2
// Pipeline over two autodiff sims; the grad of the stage-0 input is mixed with stage-1 data.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device ad; dt_tensor *w; } stage;
static dt_tensor *run_stage(const stage *s, const dt_tensor *x) {
  dt_tensor *xm = dt_to_device(x, s->ad);
  dt_tensor *y = dt_tanh(dt_matmul(xm, s->w));
  dt_free(xm);
  return y;
}
int main(void) {
  stage st[2];
  for (int i = 0; i < 2; i++) {
    st[i].ad = dt_autodiff(dt_sim(i));
    st[i].w = dt_require_grad(dt_randn(st[i].ad, (uint64_t)i, 2, (const int64_t[]){3, 3}));
  }
  dt_tensor *x = dt_require_grad(dt_ones(st[0].ad, DT_FLOAT, 2, (const int64_t[]){2, 3}));
  dt_tensor *h = run_stage(&st[0], x);
  dt_tensor *y = run_stage(&st[1], h);
  dt_tensor *loss = dt_mean(y);
  dt_backward(loss);
  dt_tensor *gx = dt_grad(x);
  dt_tensor *gw1 = dt_grad(st[1].w);
  dt_tensor *mix = dt_matmul(gx, gw1); // expect-error: device-mismatch
  printf("%p\n", (void *)mix);
  return 0;
}
