// provenance: blind round field
// Pipeline: stage 1 lives on sim:1 but its input is only moved for stage 0.
#include <dt/dt.h>
#include <stdio.h>

#define NSTAGES 2

typedef struct { dt_tensor *w; dt_device dev; } stage;

static dt_tensor *stage_run(const stage *s, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, s->w); // expect-error: device-mismatch
  dt_tensor *a = dt_relu(h);
  dt_free(h);
  return a;
}

int main(void) {
  stage st[NSTAGES];
  for (int i = 0; i < NSTAGES; i++) {
    st[i].dev = dt_sim(i);
    st[i].w = dt_full(st[i].dev, 0.25f, 2, (const int64_t[]){4, 4});
  }
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *h = dt_to_device(x, st[0].dev);
  for (int i = 0; i < NSTAGES; i++) {
    dt_tensor *nh = stage_run(&st[i], h);
    dt_free(h);
    h = nh;
  }
  dt_tensor *out = dt_to_device(h, dt_cpu());
  float v[8];
  dt_read_floats(out, v, 8);
  printf("%f\n", v[0]);
  return 0;
}
