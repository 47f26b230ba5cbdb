// provenance: blind round field
// Checkpoint restore builds plain tensors, and the save path later calls dt_inner on them.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; } model;

static void load(model *m, dt_device dev, const float *buf) {
  m->w = dt_from_floats(dev, buf, 2, (const int64_t[]){2, 2});
}

static void save(const model *m, float *buf) {
  dt_tensor *in = dt_inner(m->w); // expect-error: autodiff-expected
  dt_read_floats(in, buf, 4);
  dt_free(in);
}

int main(void) {
  const float ck[4] = {1, 2, 3, 4};
  model m;
  load(&m, dt_sim(0), ck);
  float out[4];
  save(&m, out);
  printf("%.1f\n", out[3]);
  return 0;
}
