// provenance: regression (blind round d16, c03): two tables indexed by one shard number the
// analyzer does not know — the device table and the weight table agree element by element
// Each shard's rows are gathered with a selector made on the shard's own device (a helper
// given the device by value) and multiplied with the shard's table; the row then moves to
// sim:0 before it meets the position row.
// run-args: --shard
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef struct shards {
  int n;
  dt_device dev[2];
  dt_tensor *table[2];
  dt_tensor *pos;
} shards;

static dt_tensor *one_hot(dt_device d, int n, int index) {
  float buf[8];
  for (int i = 0; i < n; i++) buf[i] = i == index ? 1.0f : 0.0f;
  return dt_from_floats(d, buf, 2, (const int64_t[]){1, n});
}

static dt_tensor *row_of(const shards *s, int id) {
  int k = id % s->n;
  dt_tensor *sel = one_hot(s->dev[k], 4, id / s->n);
  dt_tensor *raw = dt_matmul(sel, s->table[k]);
  dt_tensor *row = dt_to_device(raw, dt_sim(0));
  dt_tensor *h = dt_add(row, s->pos);
  dt_free(sel);
  dt_free(raw);
  dt_free(row);
  return h;
}

int main(int argc, char **argv) {
  shards s;
  memset(&s, 0, sizeof s);
  s.n = argc > 1 && strcmp(argv[1], "--shard") == 0 ? 2 : 1;
  s.dev[0] = dt_sim(0);
  s.dev[1] = dt_sim(1);
  for (int k = 0; k < s.n; k++)
    s.table[k] = dt_randn(s.dev[k], 7u + (uint64_t)k, 2, (const int64_t[]){4, 3});
  s.pos = dt_zeros(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){1, 3});
  for (int id = 0; id < 5; id++) {
    dt_tensor *r = row_of(&s, id);
    printf("row %d: %s\n", id, r ? "ok" : "failed");
    dt_free(r);
  }
  for (int k = 0; k < s.n; k++) dt_free(s.table[k]);
  dt_free(s.pos);
  return 0;
}
