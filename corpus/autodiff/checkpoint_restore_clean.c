// provenance: blind round field
// Saves a model trained on sim:0 to host floats and restores it on sim:1 and on the cpu.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { dt_tensor *w, *b; } layer;
typedef struct { float w[6]; float b[2]; } checkpoint;

static int save(const layer *l, checkpoint *ck) {
  if (dt_read_floats(l->w, ck->w, 6) != 0) return -1;
  return dt_read_floats(l->b, ck->b, 2);
}

static void restore(layer *l, const checkpoint *ck, dt_device dev) {
  l->w = dt_from_floats(dev, ck->w, 2, (const int64_t[]){3, 2});
  l->b = dt_from_floats(dev, ck->b, 1, (const int64_t[]){2});
}

static float eval(const layer *l, dt_device dev) {
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *y = dt_add(h, l->b);
  dt_tensor *s = dt_sum(y);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(x); dt_free(h); dt_free(y); dt_free(s);
  return v;
}

int main(void) {
  layer src = { dt_randn(dt_sim(0), 7, 2, (const int64_t[]){3, 2}), dt_full(dt_sim(0), 0.5f, 1, (const int64_t[]){2}) };
  checkpoint ck;
  if (save(&src, &ck) != 0) return 1;
  float a = eval(&src, dt_sim(0));
  layer on1, host;
  restore(&on1, &ck, dt_sim(1));
  restore(&host, &ck, dt_cpu());
  float b = eval(&on1, dt_sim(1)), c = eval(&host, dt_cpu());
  printf("sum %.4f %.4f %.4f\n", a, b, c);
  dt_free(src.w); dt_free(src.b); dt_free(on1.w); dt_free(on1.b); dt_free(host.w); dt_free(host.b);
  return (a - b < 1e-4f && b - a < 1e-4f && a - c < 1e-4f && c - a < 1e-4f) ? 0 : 1;
}
