// provenance: blind round field6
// A prefetching data loader with a 4-slot ring buffer, written 10 times.  Batches 0..7 are
// staged on sim:0; from batch 8 on, the loader "rebalances" and stages on sim:1.  After the
// loop slots 0 and 1 (written last by batches 8 and 9) hold sim:1 tensors and slots 2 and 3
// (written last by batches 6 and 7) hold sim:0 tensors.  Averaging slot 0 with slot 2 mixes
// devices on every run.
#include <dt/dt.h>
#include <stdio.h>

#define RING 4
#define NBATCH 10
#define FEAT 4

typedef struct ring_loader {
  dt_tensor *slot[RING];
  int head;
  int written;
} ring_loader;

static const int64_t SHAPE[1] = {FEAT};

static dt_device staging_device(int batch_no) {
  return dt_sim(batch_no >= 8 ? 1 : 0);
}

static dt_tensor *load_batch(int batch_no) {
  float v[FEAT];
  for (int i = 0; i < FEAT; i++)
    v[i] = (float)(batch_no * FEAT + i);
  return dt_from_floats(dt_cpu(), v, 1, SHAPE);
}

static void ring_push(ring_loader *r, dt_tensor *t) {
  dt_free(r->slot[r->head]);
  r->slot[r->head] = t;
  r->head = (r->head + 1) % RING;
  r->written++;
}

int main(void) {
  ring_loader r = {{NULL, NULL, NULL, NULL}, 0, 0};
  for (int b = 0; b < NBATCH; b++) {
    dt_tensor *host = load_batch(b);
    ring_push(&r, dt_to_device(host, staging_device(b)));
    dt_free(host);
  }
  /* slots 2 and 3 agree (both sim:0) */
  dt_tensor *recent = dt_add(r.slot[2], r.slot[3]);
  /* slots 0 and 1 agree (both sim:1) */
  dt_tensor *newest = dt_add(r.slot[0], r.slot[1]);
  /* slot 0 (sim:1) and slot 2 (sim:0) do not */
  dt_tensor *mixed = dt_add(r.slot[0], r.slot[2]); // expect-error: device-mismatch
  float out[FEAT];
  dt_read_floats(recent, out, FEAT);
  printf("recent[0] %.1f written %d\n", (double)out[0], r.written);
  dt_read_floats(newest, out, FEAT);
  printf("newest[0] %.1f\n", (double)out[0]);
  dt_free(mixed);
  dt_free(recent);
  dt_free(newest);
  for (int i = 0; i < RING; i++)
    dt_free(r.slot[i]);
  return 0;
}
