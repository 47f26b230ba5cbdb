// provenance: blind round field2
// Accuracy: predictions compared to labels and the bool result read back as floats.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; int n; } evaluator;
static float accuracy(const evaluator *e, const dt_tensor *pred, const dt_tensor *lab) {
  dt_tensor *hit = dt_greater(pred, lab);
  float buf[16];
  if (dt_read_floats(hit, buf, e->n)) return -1; // expect-error: kind-mismatch
  float s = 0; for (int i = 0; i < e->n; i++) s += buf[i];
  dt_free(hit);
  return s / (float)e->n;
}
int main(void) {
  evaluator e = { dt_sim(0), 4 };
  dt_tensor *p = dt_randn(e.dev, 1, 1, (const int64_t[]){4});
  dt_tensor *l = dt_zeros(e.dev, DT_FLOAT, 1, (const int64_t[]){4});
  printf("%f\n", accuracy(&e, p, l));
  return 0;
}
