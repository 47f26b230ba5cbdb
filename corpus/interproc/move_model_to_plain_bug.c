// provenance: blind round field4
// Deploy path: the trained autodiff weights are moved straight to a plain device for
// inference (must go through dt_inner first).
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_device dev; } model;

static model deploy(const model *trained, dt_device target) {
  model out;
  out.dev = target;
  out.w = dt_to_device(trained->w, target); // expect-error: autodiff-expected
  return out;
}

int main(void) {
  model m = { NULL, dt_autodiff(dt_sim(0)) };
  m.w = dt_require_grad(dt_randn(m.dev, 1, 2, (const int64_t[]){2, 2}));
  model inf = deploy(&m, dt_sim(1));
  printf("%d\n", dt_rank(inf.w));
  return 0;
}
