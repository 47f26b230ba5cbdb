// corpus/flow/pipeline_24_stages_bug.c — a 24-stage pipeline alternates the activations between
// sim:0 and sim:1 (stage s runs on sim:s%2). After the last stage (s = 23) they are on sim:1,
// but the head's weights were made on sim:0: every path fails there, an error. Nothing may
// depend on how many iterations the analyzer keeps apart.
#include <stdio.h>

#include <dt/dt.h>

#define STAGES 24

int main(void) {
  const int64_t shape[2] = {2, 4};
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, shape);
  for (int s = 0; s < STAGES; s++) {
    dt_device dev = dt_sim(s % 2);
    dt_tensor *moved = dt_to_device(x, dev);
    dt_tensor *bias = dt_full(dev, 0.5f, 2, shape);
    dt_tensor *y = dt_add(moved, bias);
    dt_free(bias);
    dt_free(moved);
    dt_free(x);
    x = y;
  }
  dt_tensor *head = dt_full(dt_sim(0), 2.0f, 2, shape);
  dt_tensor *out = dt_mul(x, head); // expect-error: device-mismatch
  printf("%lld\n", (long long)dt_numel(out));
  dt_free(out);
  dt_free(head);
  dt_free(x);
  return 0;
}
