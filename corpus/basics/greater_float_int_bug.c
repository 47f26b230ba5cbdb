// provenance: blind round field
// Accuracy: predicted class scores (float) compared with int labels.
#include <dt/dt.h>
#include <stdio.h>

static float accuracy(const dt_tensor *pred, const dt_tensor *labels) {
  dt_tensor *hit = dt_greater(pred, labels); // expect-error: kind-mismatch
  int64_t v[4];
  dt_read_ints(hit, v, 4);
  dt_free(hit);
  return (float)(v[0] + v[1] + v[2] + v[3]) / 4.0f;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *pred = dt_from_floats(dev, (const float[]){0.2f, 1.5f, 0.9f, 2.1f}, 1, (const int64_t[]){4});
  dt_tensor *labels = dt_from_ints(dev, (const int64_t[]){0, 1, 1, 2}, 1, (const int64_t[]){4});
  printf("acc %.2f\n", accuracy(pred, labels));
  return 0;
}
