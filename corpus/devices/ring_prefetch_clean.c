// provenance: blind round field3
// Ring-buffer loader: batches staged on the host, moved to the model's device when popped.
#include <dt/dt.h>
#include <stdio.h>
#define DEPTH 4
typedef struct { dt_tensor *x, *y; } batch;
typedef struct { batch slot[DEPTH]; unsigned head, tail; } ring;
static void push(ring *r, uint64_t seed) {
  batch *b = &r->slot[r->tail++ % DEPTH];
  b->x = dt_randn(dt_cpu(), seed, 2, (const int64_t[]){4, 8});
  b->y = dt_randn(dt_cpu(), seed ^ 0x55u, 2, (const int64_t[]){4, 2});
}
static batch pop_to(ring *r, dt_device d) {
  batch *b = &r->slot[r->head++ % DEPTH];
  batch out = {dt_to_device(b->x, d), dt_to_device(b->y, d)};
  dt_free(b->x); dt_free(b->y);
  return out;
}
int main(void) {
  ring r = {0};
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 7, 2, (const int64_t[]){8, 2});
  for (unsigned i = 0; i < 2; i++) push(&r, i);
  for (int step = 0; step < 6; step++) {
    batch b = pop_to(&r, dev);
    push(&r, (uint64_t)step + 10);
    dt_tensor *p = dt_matmul(b.x, w);
    dt_tensor *l = dt_mse_loss(p, b.y);
    float v; dt_read_floats(l, &v, 1);
    if (step == 5) printf("loss %f\n", v);
    dt_free(l); dt_free(p); dt_free(b.x); dt_free(b.y);
  }
  for (unsigned i = r.head; i != r.tail; i++) { dt_free(r.slot[i % DEPTH].x); dt_free(r.slot[i % DEPTH].y); }
  dt_free(w);
  return 0;
}
