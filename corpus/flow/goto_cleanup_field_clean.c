// provenance: blind round field
// Evaluation routine with goto-based cleanup; the data and the model share one device.
#include <dt/dt.h>
#include <stdio.h>

static int evaluate(dt_device dev, const float *data, int n, float *out_acc) {
  int rc = -1;
  dt_tensor *x = NULL, *w = NULL, *logits = NULL, *zero = NULL, *pos = NULL;
  x = dt_from_floats(dev, data, 2, (const int64_t[]){n, 2});
  if (!x) goto done;
  w = dt_from_floats(dev, (const float[]){1, -1}, 2, (const int64_t[]){2, 1});
  if (!w) goto done;
  logits = dt_matmul(x, w);
  if (!logits) goto done;
  zero = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){n, 1});
  if (!zero) goto done;
  pos = dt_greater(logits, zero);
  if (!pos) goto done;
  int64_t flags[8];
  if (dt_read_ints(pos, flags, 8) != 0) goto done;
  int k = 0;
  for (int i = 0; i < n; i++) k += flags[i] != 0;
  *out_acc = (float)k / (float)n;
  rc = 0;
done:
  dt_free(x); dt_free(w); dt_free(logits); dt_free(zero); dt_free(pos);
  return rc;
}

int main(void) {
  const float data[8] = {2, 1, 0, 3, 5, 4, 1, 1};
  float acc = 0;
  if (evaluate(dt_sim(0), data, 4, &acc) != 0) return 1;
  float acc2 = 0;
  if (evaluate(dt_cpu(), data, 4, &acc2) != 0) return 1;
  printf("positive fraction %.2f %.2f (expect 0.50)\n", acc, acc2);
  return acc == 0.5f && acc2 == 0.5f ? 0 : 1;
}
