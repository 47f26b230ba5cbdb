// provenance: blind round field2
// Two device fields compared with dt_device_equal before combining; otherwise moved.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *emb; } encoder;
typedef struct { dt_device dev; dt_tensor *proj; } decoder;
static dt_tensor *bridge(const encoder *e, const decoder *d) {
  if (dt_device_equal(e->dev, d->dev)) return dt_matmul(e->emb, d->proj);
  dt_tensor *moved = dt_to_device(e->emb, d->dev);
  dt_tensor *r = dt_matmul(moved, d->proj);
  dt_free(moved);
  return r;
}
int main(int argc, char **argv) {
  (void)argv;
  encoder e = { dt_sim(0), NULL };
  decoder d = { argc > 1 ? dt_sim(1) : dt_sim(0), NULL };
  e.emb = dt_randn(e.dev, 1, 2, (const int64_t[]){2, 3});
  d.proj = dt_randn(d.dev, 2, 2, (const int64_t[]){3, 2});
  dt_tensor *y = bridge(&e, &d);
  float v[4]; dt_read_floats(y, v, 4);
  printf("%f\n", v[0]);
  return 0;
}
