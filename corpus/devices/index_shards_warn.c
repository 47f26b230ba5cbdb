// provenance: blind round field6
// Embedding table sharded over two devices: shard[0] on sim:0 and shard[1] on sim:1 (tensor
// parallel).  lookup() moves the chosen shard to the query's device, correctly.  The
// "fast path" for a shard id given on the command line forgets the move: the query lives
// on sim:0, so it works for shard 0 and fails for shard 1.  The index is input data.
// run-args: 1
// (with argument 0, or no argument, the run is clean; with 1 it fails at the fast path)
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define NSHARD 2
#define ROWS 3
#define DIM 4

typedef struct sharded_table {
  dt_tensor *shard[NSHARD];
  dt_device dev[NSHARD];
} sharded_table;

static const int64_t TS[2] = {ROWS, DIM};
static const int64_t QS[2] = {1, ROWS};

static void table_init(sharded_table *t) {
  for (int s = 0; s < NSHARD; s++) {
    t->dev[s] = dt_sim(s);
    t->shard[s] = dt_randn(t->dev[s], (uint64_t)(s + 11), 2, TS);
  }
}

static dt_tensor *lookup(const sharded_table *t, int s, const dt_tensor *q) {
  dt_tensor *local = dt_to_device(t->shard[s], dt_device_of(q));
  dt_tensor *r = dt_matmul(q, local);
  dt_free(local);
  return r;
}

static dt_tensor *lookup_fast(const sharded_table *t, int s, const dt_tensor *q) {
  return dt_matmul(q, t->shard[s]); // expect-warning: device-mismatch
}

int main(int argc, char **argv) {
  sharded_table t;
  table_init(&t);
  int which = argc > 1 ? atoi(argv[1]) : 0;
  if (which < 0 || which >= NSHARD)
    which = 0;

  float qv[ROWS] = {1.0f, 0.0f, 1.0f};
  dt_tensor *q = dt_from_floats(dt_sim(0), qv, 2, QS);

  float sum = 0.0f;
  for (int s = 0; s < NSHARD; s++) {
    dt_tensor *r = lookup(&t, s, q);
    dt_tensor *tot = dt_sum(r);
    float v = 0.0f;
    dt_read_floats(tot, &v, 1);
    sum += v;
    dt_free(tot);
    dt_free(r);
  }
  dt_tensor *fast = lookup_fast(&t, which, q);
  printf("sum %.3f fast %p\n", (double)sum, (void *)fast);
  dt_free(fast);
  dt_free(q);
  for (int s = 0; s < NSHARD; s++)
    dt_free(t.shard[s]);
  return 0;
}
