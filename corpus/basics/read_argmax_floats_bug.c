// corpus/basics/read_argmax_floats_bug.c — evaluation code copies predicted class ids (an int
// tensor built from the host) back into a float buffer.
// Bug: dt_read_floats of an int tensor (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  static const int64_t ids[4] = {2, 0, 1, 1};
  dt_tensor *pred = dt_from_ints(dev, ids, 1, (const int64_t[]){4});
  dt_tensor *shifted = dt_add_scalar(pred, 1.0f); /* class ids are 1-based in the report */

  float host[4];
  int rc = dt_read_floats(shifted, host, 4); // expect-error: kind-mismatch
  if (rc == 0) printf("first prediction: %f\n", (double)host[0]);

  dt_free(shifted);
  dt_free(pred);
  return 0;
}
