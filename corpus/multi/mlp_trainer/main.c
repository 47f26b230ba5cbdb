// corpus/multi/mlp_trainer/main.c — a multi-file training program: config (with an inline
// device helper in a header), data loader, model and optimizer in separate translation units.
// Every tag crosses a file boundary and stays consistent. Clean.
#include <stdio.h>

#include "config.h"
#include "data.h"
#include "model.h"
#include "optim.h"

int main(int argc, char **argv) {
  trainer_config cfg = config_from_args(argc, argv);
  dt_device dev = config_train_device(&cfg);
  model m;
  model_init(&m, dev);
  dt_tensor **slots[4];
  int n = model_params(&m, slots, 4);
  for (int e = 0; e < cfg.epochs; e++) {
    float total = 0;
    for (int b = 0; b < cfg.batches; b++) {
      dt_tensor *x, *y;
      data_batch(b, dev, &x, &y);
      dt_tensor *pred = model_forward(&m, x);
      dt_tensor *loss = dt_mse_loss(pred, y);
      dt_backward(loss);
      float l = 0;
      dt_read_floats(loss, &l, 1);
      total += l;
      sgd_step(dev, slots, n, cfg.lr / 10);
      dt_free(loss);
      dt_free(pred);
      dt_free(y);
      dt_free(x);
    }
    printf("epoch %d: %f\n", e, (double)(total / cfg.batches));
  }
  model_free(&m);
  return 0;
}
