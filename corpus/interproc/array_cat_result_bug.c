// corpus/interproc/array_cat_result_bug.c — micro-batches generated on sim:0 in a loop are
// concatenated; the concatenated batch is then compared with targets built on the host. The
// tag of dt_cat's result comes from the loop-filled array. Bug: backend-mismatch at the loss.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *micro[3];
  for (int i = 0; i < 3; i++) micro[i] = dt_randn(dev, (uint64_t)i, 2, (const int64_t[]){2, 1});
  dt_tensor *preds = dt_cat(3, micro, 0);
  dt_tensor *targets = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){6, 1});
  dt_tensor *loss = dt_mse_loss(preds, targets); // expect-error: backend-mismatch
  printf("loss %lld\n", (long long)dt_numel(loss));
  dt_free(loss);
  dt_free(targets);
  dt_free(preds);
  for (int i = 0; i < 3; i++) dt_free(micro[i]);
  return 0;
}
