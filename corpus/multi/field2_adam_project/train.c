// Trainer: epochs from argv, synthetic batches, loss, backward, optimizer step.
#include "nn.h"
#include <stdio.h>
#include <stdlib.h>
static float train_epoch(trainer *t, int e) {
  dt_tensor *x = dt_randn(t->net->dev, (uint64_t)e, 2, (const int64_t[]){8, 4});
  dt_tensor *y = dt_zeros(t->net->dev, DT_FLOAT, 2, (const int64_t[]){8, 1});
  dt_tensor *p = model_forward(t->net, x);
  dt_tensor *l = dt_mse_loss(p, y);
  dt_backward(l);
  adam_step(t->opt, t->net);
  float v = 0; dt_read_floats(l, &v, 1);
  dt_free(x); dt_free(y); dt_free(p); dt_free(l);
  return v;
}
int main(int argc, char **argv) {
  static const int widths[3] = {4, 8, 1};
  model net; adam opt;
  trainer t = { &net, &opt, argc > 1 ? atoi(argv[1]) : 2 };
  if (model_create(&net, argc > 2 ? dt_sim(1) : dt_cpu(), widths, 2)) return 1;
  adam_create(&opt, &net, 1e-3f);
  for (int e = 0; e < t.epochs; e++) printf("%d %f\n", e, train_epoch(&t, e));
  return 0;
}
