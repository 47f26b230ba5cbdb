// provenance: blind round field4
// Pipeline stages whose devices come from a static const table of device-constructor wrappers.
// Stage 2 is on sim:1, and the activation is handed over without a move.
#include <dt/dt.h>
#include <stdio.h>

typedef dt_device (*dev_fn)(void);
static dt_device host(void) { return dt_cpu(); }
static dt_device acc0(void) { return dt_sim(0); }
static dt_device acc1(void) { return dt_sim(1); }

static const dev_fn STAGE_DEV[3] = { host, acc0, acc1 };

typedef struct { dt_device dev; dt_tensor *w; } stage;

static void stage_init(stage *s, int i) {
  s->dev = STAGE_DEV[i]();
  s->w = dt_randn(s->dev, (uint64_t)i, 2, (const int64_t[]){4, 4});
}

static dt_tensor *stage_fwd(const stage *s, const dt_tensor *x) {
  return dt_matmul(x, s->w);
}

int main(void) {
  stage st[3];
  for (int i = 0; i < 3; i++) stage_init(&st[i], i);
  dt_tensor *x = dt_randn(dt_cpu(), 9, 2, (const int64_t[]){2, 4});
  dt_tensor *h0 = stage_fwd(&st[0], x);
  dt_tensor *m1 = dt_to_device(h0, st[1].dev);
  dt_tensor *h1 = stage_fwd(&st[1], m1);
  dt_tensor *h2 = dt_matmul(h1, st[2].w); // expect-error: device-mismatch
  printf("%p\n", (void *)h2);
  return 0;
}
