// provenance: blind round field3
// Data loader with a ring buffer of prefetched batches; the loader prefetches onto sim:0 while
// the model lives on sim:1 (pipeline stage 2). Index computed as step % depth.
#include <dt/dt.h>
#include <stdio.h>
#define DEPTH 3
typedef struct { dt_tensor *x, *y; } batch;
typedef struct { batch slot[DEPTH]; int head, count; dt_device dev; } ring;
static void ring_push(ring *r, int seed) {
  int at = (r->head + r->count) % DEPTH;
  r->slot[at].x = dt_randn(r->dev, (uint64_t)seed, 2, (const int64_t[]){4, 8});
  r->slot[at].y = dt_randn(r->dev, (uint64_t)seed + 100, 2, (const int64_t[]){4, 2});
  r->count++;
}
static batch ring_pop(ring *r) {
  batch b = r->slot[r->head];
  r->head = (r->head + 1) % DEPTH;
  r->count--;
  return b;
}
int main(void) {
  ring r = {.head = 0, .count = 0, .dev = dt_sim(0)};
  dt_tensor *w = dt_randn(dt_sim(1), 7, 2, (const int64_t[]){8, 2});
  for (int i = 0; i < DEPTH; i++) ring_push(&r, i);
  float total = 0;
  for (int step = 0; step < DEPTH; step++) {
    batch b = ring_pop(&r);
    dt_tensor *p = dt_matmul(b.x, w); // expect-error: device-mismatch
    dt_tensor *l = dt_mse_loss(p, b.y);
    float v = 0;
    dt_read_floats(l, &v, 1);
    total += v;
    dt_free(l); dt_free(p); dt_free(b.x); dt_free(b.y);
  }
  printf("%f\n", total);
  dt_free(w);
  return 0;
}
