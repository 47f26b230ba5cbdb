// eval.c — evaluation: the batch is made on the model's device (correct); the target is
// made on the cpu when --eval-cpu was given, and the prediction is not moved to it.
#include "trainer.h"

float eval_run(const model *m, int eval_on_cpu) {
  dt_device eval_dev = eval_on_cpu ? dt_cpu() : m->dev;
  dt_tensor *x = data_x_on(m->dev);
  dt_tensor *pred = model_forward(m, x);
  dt_tensor *target = dt_zeros(eval_dev, DT_FLOAT, 2, (const int64_t[]){ROWS, 1});
  dt_tensor *loss = dt_mse_loss(pred, target); // expect-warning: backend-mismatch
  float v = -1.0f;
  if (loss != NULL)
    dt_read_floats(loss, &v, 1);
  dt_free(loss);
  dt_free(target);
  dt_free(pred);
  dt_free(x);
  return v;
}
