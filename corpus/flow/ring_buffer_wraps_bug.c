// corpus/flow/ring_buffer_wraps_bug.c — a ring of 4 slots is written 12 times; writes 0..9 put
// cpu tensors there, the last two (steps 10 and 11, slots 2 and 3) sim:0 ones. Summing slot 0
// with slot 3 then mixes backends on every path: an error found only by following all twelve
// iterations.
#include <stdio.h>

#include <dt/dt.h>

#define SLOTS 4
#define STEPS 12

int main(void) {
  const int64_t shape[1] = {3};
  dt_tensor *ring[SLOTS] = {0};
  for (int step = 0; step < STEPS; step++) {
    dt_device dev = step >= 10 ? dt_sim(0) : dt_cpu();
    int slot = step % SLOTS;
    if (ring[slot]) dt_free(ring[slot]);
    ring[slot] = dt_full(dev, (float)step, 1, shape);
  }
  dt_tensor *ok = dt_add(ring[0], ring[1]);
  dt_tensor *bad = dt_add(ring[0], ring[3]); // expect-error: backend-mismatch
  printf("%lld %p\n", (long long)dt_numel(ok), (void *)bad);
  dt_free(ok);
  for (int i = 0; i < SLOTS; i++) dt_free(ring[i]);
  return 0;
}
