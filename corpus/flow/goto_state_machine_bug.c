// provenance: blind round field4
// Training loop written as a goto state machine (LOAD -> FORWARD -> UPDATE -> LOAD ... DONE).
// The UPDATE state applies the gradient of the autodiff weights to a plain host copy that
// lives on cpu, while the model is on autodiff<sim:0>: the inner device is sim:0.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *master = dt_randn(dt_cpu(), 1, 2, (const int64_t[]){3, 1});
  dt_tensor *x = NULL, *loss = NULL;
  int step = 0;

load:
  if (step == 2) goto done;
  x = dt_randn(ad, 10 + (uint64_t)step, 2, (const int64_t[]){4, 3});
  goto forward;

forward: {
  dt_tensor *y = dt_matmul(x, w);
  loss = dt_mean(y);
  dt_backward(loss);
  dt_free(y);
  goto update;
}

update: {
  dt_tensor *g = dt_grad(w);
  dt_tensor *s = dt_mul_scalar(g, 0.1f);
  dt_tensor *nm = dt_sub(master, s); // expect-error: backend-mismatch
  dt_free(master);
  master = nm;
  dt_free(g); dt_free(s); dt_free(x); dt_free(loss);
  step++;
  goto load;
}

done:
  printf("steps %d\n", step);
  return 0;
}
