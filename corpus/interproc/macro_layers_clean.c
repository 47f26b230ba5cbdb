// provenance: blind round field
// Layers written with macros that wrap dt calls (CHECKED, LINEAR); all on one device.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECKED(expr) checked_((expr), #expr)
#define LINEAR(x, l) dt_add(dt_matmul((x), (l).w), (l).b)
#define SHAPE2(a, b) (const int64_t[]){(a), (b)}

typedef struct { dt_tensor *w, *b; } linear;

static dt_tensor *checked_(dt_tensor *t, const char *what) {
  if (!t) { fprintf(stderr, "failed: %s\n", what); exit(2); }
  return t;
}

int main(void) {
  dt_device dev = dt_sim(1);
  linear l1 = { CHECKED(dt_full(dev, 1.0f, 2, SHAPE2(2, 3))), CHECKED(dt_full(dev, 1.0f, 1, (const int64_t[]){3})) };
  linear l2 = { CHECKED(dt_full(dev, 0.5f, 2, SHAPE2(3, 1))), CHECKED(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){1})) };
  dt_tensor *x = CHECKED(dt_from_floats(dev, (const float[]){1, 2}, 2, SHAPE2(1, 2)));
  dt_tensor *h = CHECKED(LINEAR(x, l1));   /* 4 4 4 (leaks the matmul temp, as macro code does) */
  dt_tensor *y = CHECKED(LINEAR(h, l2));   /* 6 */
  float v;
  dt_read_floats(y, &v, 1);
  printf("y %.2f (expect 6)\n", v);
  return v == 6.0f ? 0 : 1;
}
