#include "model.h"
#include "optim.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  g_state_dev = dt_sim(0);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--host")) g_state_dev = dt_cpu();
  model m;
  model_init(&m, dt_autodiff(dt_sim(1)));
  rms o;
  rms_init(&o, 4, 0.01f);
  dt_tensor *x = dt_randn(m.ad, 3, 1, (const int64_t[]){4});
  for (int s = 0; s < 2; s++) {
    printf("loss %.3f\n", (double)model_step(&m, x));
    dt_tensor *g = dt_grad(m.w);
    dt_tensor *nw = rms_update(&o, m.w, g);
    dt_free(m.w);
    m.w = dt_require_grad(dt_from_inner(m.ad, nw));
    dt_free(g);
    dt_free(nw);
  }
  return 0;
}
