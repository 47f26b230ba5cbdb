// provenance: regression (blind round d16, c03): a device read from a table at an index the
// analyzer does not know, passed by value to a helper that creates a tensor on it
// Embedding rows live on one of two shards; a row is gathered on its shard by a helper that
// takes the shard's device by value, and the caller adds it to a position row on sim:0
// without moving it first.
// run-args: --shard
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef struct shards {
  int n;
  dt_device dev[2];
  dt_tensor *pos;
} shards;

static dt_tensor *one_hot(dt_device d, int n, int index) {
  float buf[8];
  for (int i = 0; i < n; i++) buf[i] = i == index ? 1.0f : 0.0f;
  return dt_from_floats(d, buf, 2, (const int64_t[]){1, n});
}

static dt_tensor *row_of(const shards *s, int id) {
  int k = id % s->n;
  dt_tensor *sel = one_hot(s->dev[k], 4, id / 2);
  dt_tensor *h = dt_add(sel, s->pos); // expect-warning: device-mismatch
  dt_free(sel);
  return h;
}

int main(int argc, char **argv) {
  shards s;
  memset(&s, 0, sizeof s);
  s.n = argc > 1 && strcmp(argv[1], "--shard") == 0 ? 2 : 1;
  s.dev[0] = dt_sim(0);
  s.dev[1] = dt_sim(1);
  s.pos = dt_zeros(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){1, 4});
  for (int id = 0; id < 3; id++) {
    dt_tensor *r = row_of(&s, id);
    printf("row %d: %s\n", id, r ? "ok" : "failed");
    dt_free(r);
  }
  dt_free(s.pos);
  return 0;
}
