// corpus/flow/reassign_moved_clean.c — the same tensor variable is reassigned as it moves: the
// batch is built on the host, uploaded, normalized in place of itself, then the result is
// downloaded into the same variable for printing. Clean: each use sees the tag of its latest
// assignment.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device accel = dt_sim(1);
  static const float host[6] = {1, 2, 3, 4, 5, 6};
  dt_tensor *x = dt_from_floats(dt_cpu(), host, 2, (const int64_t[]){2, 3});
  dt_tensor *scale = dt_full(accel, 0.5f, 1, (const int64_t[]){3});

  dt_tensor *tmp = dt_to_device(x, accel);
  dt_free(x);
  x = tmp;                       /* x now on sim:1 */
  tmp = dt_mul(x, scale);
  dt_free(x);
  x = tmp;
  tmp = dt_tanh(x);
  dt_free(x);
  x = tmp;
  tmp = dt_to_device(x, dt_cpu());
  dt_free(x);
  x = tmp;                       /* back on the host */

  dt_tensor *host_bias = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *out = dt_add(x, host_bias);
  float v[6];
  dt_read_floats(out, v, 6);
  printf("%f %f\n", (double)v[0], (double)v[5]);
  dt_free(out);
  dt_free(host_bias);
  dt_free(x);
  dt_free(scale);
  return 0;
}
