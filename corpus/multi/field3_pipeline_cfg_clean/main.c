// run-args: --stage sim0 --stage sim1 --stage cpu
#include <stdio.h>
#include "cfg.h"
int main(int argc, char **argv) {
  run_cfg c;
  cfg_parse(&c, argc, argv);
  net n;
  net_init(&n, &c);
  dt_tensor *x = dt_randn(dt_cpu(), 5, 2, (const int64_t[]){2, 4});
  for (int s = 0; s < c.steps; s++) {
    dt_tensor *out = net_forward(&n, &c, x);
    dt_tensor *y = dt_zeros(c.stage[NSTAGE - 1], DT_FLOAT, 2, (const int64_t[]){2, 4});
    dt_tensor *l = dt_mse_loss(out, y);
    dt_tensor *lh = move_to(l, dt_cpu());
    float v; dt_read_floats(lh, &v, 1);
    printf("%f\n", v);
    dt_free(out); dt_free(y); dt_free(lh);
  }
  return 0;
}
