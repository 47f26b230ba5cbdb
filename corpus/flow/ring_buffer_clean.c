// provenance: blind round field6
// A 3-slot ring of gradient snapshots written 11 times.  The first 8 snapshots are kept on
// the host (cpu); from snapshot 8 on they are staged on sim:0.  The last three writes (8, 9,
// 10) cover all three slots, so after the loop every slot is on sim:0, and the running mean
// computed against a sim:0 accumulator is clean.  An analysis that stops following the loop
// after 8 iterations would still believe a slot may be on the cpu.
#include <dt/dt.h>
#include <stdio.h>

#define RING 3
#define NSNAP 11
#define N 5

static const int64_t SHAPE[1] = {N};

typedef struct snapshot_ring {
  dt_tensor *buf[RING];
  dt_device where[RING];
  int pos;
} snapshot_ring;

static dt_device snapshot_device(int k) {
  if (k < 8)
    return dt_cpu();
  return dt_sim(0);
}

static void ring_store(snapshot_ring *r, dt_tensor *t) {
  int at = r->pos % RING;
  if (r->buf[at] != NULL)
    dt_free(r->buf[at]);
  r->buf[at] = t;
  r->where[at] = dt_device_of(t);
  r->pos++;
}

static dt_tensor *fake_gradient(int k, dt_device d) {
  float v[N];
  for (int i = 0; i < N; i++)
    v[i] = 0.01f * (float)(k + i);
  return dt_from_floats(d, v, 1, SHAPE);
}

int main(void) {
  snapshot_ring r;
  for (int i = 0; i < RING; i++)
    r.buf[i] = NULL;
  r.pos = 0;
  for (int k = 0; k < NSNAP; k++)
    ring_store(&r, fake_gradient(k, snapshot_device(k)));

  dt_tensor *acc = dt_zeros(dt_sim(0), DT_FLOAT, 1, SHAPE);
  for (int i = 0; i < RING; i++) {
    dt_tensor *next = dt_add(acc, r.buf[i]);
    dt_free(acc);
    acc = next;
  }
  dt_tensor *mean = dt_mul_scalar(acc, 1.0f / RING);
  /* a host copy for logging */
  dt_tensor *host = dt_to_device(mean, dt_cpu());
  dt_tensor *fresh = fake_gradient(0, r.where[1]);
  dt_tensor *diff = dt_sub(fresh, mean);
  float out[N];
  dt_read_floats(host, out, N);
  printf("mean[0] %.3f pos %d\n", (double)out[0], r.pos);
  dt_free(diff);
  dt_free(fresh);
  dt_free(host);
  dt_free(mean);
  dt_free(acc);
  for (int i = 0; i < RING; i++)
    dt_free(r.buf[i]);
  return 0;
}
