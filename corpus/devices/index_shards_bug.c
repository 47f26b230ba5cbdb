// provenance: blind round field6
// Two replica pools: `hot` (every element on sim:0, filled in a loop) and `cold` (every
// element on sim:1, filled through a device table).  A random element of the hot pool is
// combined with a sim:0 tensor: clean whatever the index.  A random element of the cold
// pool is combined with the same sim:0 tensor without a move: every element of the pool is
// on sim:1, so it fails for every index the random generator can produce.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define POOL 6
#define N 4

static const int64_t S[1] = {N};

typedef struct pool {
  dt_tensor *item[POOL];
  int count;
} pool;

static void fill_hot(pool *p) {
  p->count = 0;
  for (int i = 0; i < POOL; i++)
    p->item[p->count++] = dt_full(dt_sim(0), (float)i, 1, S);
}

static void fill_cold(pool *p) {
  dt_device table[POOL];
  for (int i = 0; i < POOL; i++)
    table[i] = dt_sim(1);
  for (int i = POOL - 1; i >= 0; i--)
    p->item[i] = dt_full(table[i], (float)(10 * i), 1, S);
  p->count = POOL;
}

static void pool_free(pool *p) {
  for (int i = 0; i < p->count; i++)
    dt_free(p->item[i]);
}

int main(void) {
  srand(1234);
  pool hot, cold;
  fill_hot(&hot);
  fill_cold(&cold);
  dt_tensor *bias = dt_ones(dt_sim(0), DT_FLOAT, 1, S);

  int h = rand() % hot.count;
  dt_tensor *a = dt_add(hot.item[h], bias);

  int c = rand() % cold.count;
  dt_tensor *b = dt_add(cold.item[c], bias); // expect-error: device-mismatch

  float out[N];
  dt_read_floats(a, out, N);
  printf("hot[%d]+1 = %.1f, cold index %d\n", h, (double)out[0], c);
  dt_free(a);
  dt_free(b);
  dt_free(bias);
  pool_free(&hot);
  pool_free(&cold);
  return 0;
}
