// provenance: blind round field
// A batch is moved to the model's device only when it is elsewhere (dt_device_equal guard).
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_device dev; } model;

static dt_tensor *to_model_device(const model *m, dt_tensor *batch) {
  if (!dt_device_equal(dt_device_of(batch), m->dev)) {
    dt_tensor *moved = dt_to_device(batch, m->dev);
    dt_free(batch);
    return moved;
  }
  return batch;
}

static float run_batch(const model *m, dt_tensor *batch) {
  dt_tensor *x = to_model_device(m, batch);
  dt_tensor *y = dt_matmul(x, m->w);
  dt_tensor *s = dt_sum(y);
  float v;
  dt_read_floats(s, &v, 1);
  dt_free(x); dt_free(y); dt_free(s);
  return v;
}

int main(void) {
  model m = { NULL, dt_sim(1) };
  m.w = dt_ones(m.dev, DT_FLOAT, 2, (const int64_t[]){2, 2});
  float a = run_batch(&m, dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 2}));
  float b = run_batch(&m, dt_ones(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){3, 2}));
  float c = run_batch(&m, dt_ones(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){3, 2}));
  printf("%.1f %.1f %.1f (expect 12 each)\n", a, b, c);
  dt_free(m.w);
  return a == 12 && b == 12 && c == 12 ? 0 : 1;
}
