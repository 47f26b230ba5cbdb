// corpus/flow/shadowing_bug.c — a refactor moved the head's initialization into a block that
// declares its own `dev` for a calibration pass, and the head weights are created inside the
// block with the shadowing `dev` (sim:1). After the block they meet sim:0 features
// (device-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *features = dt_randn(dev, 1, 2, (const int64_t[]){6, 4});
  dt_tensor *head;
  {
    dt_device dev = dt_sim(1);
    dt_tensor *calib = dt_randn(dev, 2, 1, (const int64_t[]){4});
    dt_tensor *scale = dt_mean(calib);
    float s = 1.0f;
    dt_read_floats(scale, &s, 1);
    head = dt_full(dev, s, 2, (const int64_t[]){4, 3});
    dt_free(scale);
    dt_free(calib);
  }
  dt_tensor *logits = dt_matmul(features, head); // expect-error: device-mismatch
  printf("logits %lld\n", (long long)dt_numel(logits));
  dt_free(logits);
  dt_free(head);
  dt_free(features);
  return 0;
}
