// corpus/basics/logits_plus_labels_bug.c — a classifier's "label smoothing" step written in a
// hurry: the integer class labels are added straight to the float logits.
// Bug: dt_add of a float tensor and an int tensor (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

#define BATCH 4
#define CLASSES 3

int main(void) {
  dt_device dev = dt_sim(0);
  const int64_t logit_shape[2] = {BATCH, CLASSES};
  dt_tensor *logits = dt_randn(dev, 42, 2, logit_shape);

  const int64_t one_hot[BATCH * CLASSES] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0};
  dt_tensor *targets = dt_from_ints(dev, one_hot, 2, logit_shape);

  dt_tensor *smoothed = dt_add(logits, targets); // expect-error: kind-mismatch
  dt_tensor *loss = dt_mean(smoothed);

  float l = 0;
  dt_read_floats(loss, &l, 1);
  printf("loss %f\n", (double)l);
  dt_free(loss);
  dt_free(smoothed);
  dt_free(targets);
  dt_free(logits);
  return 0;
}
