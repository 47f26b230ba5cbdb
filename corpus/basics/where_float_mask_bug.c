// corpus/basics/where_float_mask_bug.c — gradient clipping by masking: values whose magnitude
// exceeds a threshold are replaced. The mask was built with arithmetic (a float 0/1 tensor)
// instead of dt_greater. Bug: dt_where with a float condition (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_cpu();
  const int64_t shape[1] = {6};
  static const float g[6] = {0.5f, -3.0f, 1.5f, 4.0f, -0.2f, 2.5f};
  dt_tensor *grads = dt_from_floats(dev, g, 1, shape);
  dt_tensor *limit = dt_full(dev, 2.0f, 1, shape);

  dt_tensor *big = dt_greater(grads, limit);          /* bool: correct mask */
  dt_tensor *excess = dt_relu(dt_sub(grads, limit));  /* float: how far above the limit */
  dt_tensor *clipped = dt_where(excess, limit, grads); // expect-error: kind-mismatch

  float out[6];
  dt_read_floats(clipped, out, 6);
  printf("clipped[3] = %f\n", (double)out[3]);
  dt_free(clipped);
  dt_free(excess);
  dt_free(big);
  dt_free(limit);
  dt_free(grads);
  return 0;
}
