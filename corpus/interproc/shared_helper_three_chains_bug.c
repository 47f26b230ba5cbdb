// provenance: blind round field4
// One axpy-like helper reached from three chains: training (sim:0 with sim:0), evaluation
// (weights on sim:0, eval batch loaded on sim:1 by a loader) and export (host with host).
// Only the evaluation chain fails, inside the shared helper.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; } model;
typedef struct { dt_device dev; int n; } loader;

static dt_tensor *scaled_add(const dt_tensor *a, const dt_tensor *b, float s) {
  dt_tensor *bs = dt_mul_scalar(b, s);
  dt_tensor *r = dt_add(a, bs); // expect-error: device-mismatch
  dt_free(bs);
  return r;
}

static dt_tensor *apply(const model *m, const dt_tensor *x) { return scaled_add(x, m->w, 0.5f); }

static dt_tensor *load_batch(const loader *ld, int i) {
  return dt_full(ld->dev, (float)i, 1, (const int64_t[]){4});
}

static float consume(dt_tensor *y) {
  float buf[4];
  dt_read_floats(y, buf, 4);
  dt_free(y);
  return buf[0];
}

static float train(const model *m, const loader *ld) {
  float s = 0;
  for (int i = 0; i < ld->n; i++) {
    dt_tensor *x = load_batch(ld, i);
    s += consume(apply(m, x));
    dt_free(x);
  }
  return s;
}

static float evaluate(const model *m, const loader *ld) { return train(m, ld); }

static float export_host(const model *m) {
  dt_tensor *wh = dt_to_device(m->w, dt_cpu());
  model hm = { wh };
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  float r = consume(apply(&hm, x));
  dt_free(x);
  dt_free(wh);
  return r;
}

int main(void) {
  model m = { dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4}) };
  loader tr = { dt_sim(0), 3 };
  loader ev = { dt_sim(1), 1 };
  printf("%.2f\n", (double)train(&m, &tr));
  printf("%.2f\n", (double)export_host(&m));
  printf("%.2f\n", (double)evaluate(&m, &ev));
  dt_free(m.w);
  return 0;
}
