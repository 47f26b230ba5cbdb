// provenance: blind round d16
// c03: greedy decoding with an embedding table that can be sharded over sim:0 and sim:1
// (`--shard`), and a small row cache in front of it. On a miss the row is gathered on its
// shard and moved to the compute device; the cache keeps the row as gathered.
// run-args: --shard
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 12
#define DIM 6
#define MAX_T 8
#define CACHE_SLOTS 4

typedef struct embedding {
  int nshards;
  dt_device shard_dev[2];
  dt_tensor *table[2]; /* rows id with id % nshards == s live in table[s], at id / nshards */
  dt_device compute;
  dt_tensor *pos;      /* [MAX_T, DIM] on compute */
  dt_tensor *out_proj; /* [DIM, VOCAB] on compute */
} embedding;

typedef struct cache_entry {
  int id;
  dt_tensor *row;
  unsigned last_use;
} cache_entry;

typedef struct row_cache {
  cache_entry slot[CACHE_SLOTS];
  int used;
  unsigned clock;
  int hits, misses;
} row_cache;

static int shard_rows(const embedding *e, int s) {
  int n = 0;
  for (int id = 0; id < VOCAB; id++)
    n += (id % e->nshards) == s;
  return n;
}

static void embedding_init(embedding *e, int sharded) {
  memset(e, 0, sizeof *e);
  e->compute = dt_sim(0);
  e->nshards = sharded ? 2 : 1;
  e->shard_dev[0] = dt_sim(0);
  e->shard_dev[1] = dt_sim(1);
  for (int s = 0; s < e->nshards; s++) {
    int rows = shard_rows(e, s);
    e->table[s] = dt_randn(e->shard_dev[s], 40u + (uint64_t)s, 2, (const int64_t[]){rows, DIM});
  }
  e->pos = dt_randn(e->compute, 77u, 2, (const int64_t[]){MAX_T, DIM});
  e->out_proj = dt_randn(e->compute, 78u, 2, (const int64_t[]){DIM, VOCAB});
}

static void embedding_free(embedding *e) {
  for (int s = 0; s < e->nshards; s++)
    dt_free(e->table[s]);
  dt_free(e->pos);
  dt_free(e->out_proj);
}

static dt_tensor *one_hot(dt_device d, int n, int index) {
  float buf[VOCAB > MAX_T ? VOCAB : MAX_T];
  for (int i = 0; i < n; i++)
    buf[i] = i == index ? 1.0f : 0.0f;
  return dt_from_floats(d, buf, 2, (const int64_t[]){1, n});
}

/* The row of `id`, on the shard that holds it. */
static dt_tensor *gather_raw(const embedding *e, int id) {
  int s = id % e->nshards;
  int local = id / e->nshards;
  dt_tensor *sel = one_hot(e->shard_dev[s], shard_rows(e, s), local);
  dt_tensor *row = dt_matmul(sel, e->table[s]);
  dt_free(sel);
  return row;
}

static cache_entry *cache_find(row_cache *c, int id) {
  for (int i = 0; i < c->used; i++)
    if (c->slot[i].id == id)
      return &c->slot[i];
  return NULL;
}

static void cache_put(row_cache *c, int id, dt_tensor *row) {
  cache_entry *e;
  if (c->used < CACHE_SLOTS) {
    e = &c->slot[c->used++];
  } else {
    e = &c->slot[0];
    for (int i = 1; i < CACHE_SLOTS; i++)
      if (c->slot[i].last_use < e->last_use)
        e = &c->slot[i];
    dt_free(e->row);
  }
  e->id = id;
  e->row = row;
  e->last_use = ++c->clock;
}

/* Returns the row of `id` on the compute device; *owned says whether the caller frees it. */
static dt_tensor *lookup(row_cache *c, const embedding *e, int id, int *owned) {
  cache_entry *hit = cache_find(c, id);
  if (hit) {
    hit->last_use = ++c->clock;
    c->hits++;
    *owned = 0;
    return hit->row;
  }
  c->misses++;
  dt_tensor *raw = gather_raw(e, id);
  dt_tensor *row = dt_to_device(raw, e->compute);
  cache_put(c, id, raw);
  *owned = 1;
  return row;
}

static void cache_clear(row_cache *c) {
  for (int i = 0; i < c->used; i++)
    dt_free(c->slot[i].row);
  memset(c, 0, sizeof *c);
}

/* Hidden states [t, DIM] for the tokens so far: embedding + position. */
static dt_tensor *encode(row_cache *c, const embedding *e, const int *ids, int t) {
  dt_tensor *rows[MAX_T];
  for (int i = 0; i < t; i++) {
    int owned = 0;
    dt_tensor *tok = lookup(c, e, ids[i], &owned);
    dt_tensor *psel = one_hot(e->compute, MAX_T, i);
    dt_tensor *p = dt_matmul(psel, e->pos);
    rows[i] = dt_add(tok, p); // expect-warning: device-mismatch
    dt_free(psel);
    dt_free(p);
    if (owned)
      dt_free(tok);
  }
  dt_tensor *h = dt_cat(t, rows, 0);
  for (int i = 0; i < t; i++)
    dt_free(rows[i]);
  return h;
}

static int argmax_last(const dt_tensor *logits, int t) {
  float buf[MAX_T * VOCAB];
  if (dt_read_floats(logits, buf, MAX_T * VOCAB) != 0)
    return 0;
  const float *last = buf + (size_t)(t - 1) * VOCAB;
  int best = 0;
  for (int v = 1; v < VOCAB; v++)
    if (last[v] > last[best])
      best = v;
  return best;
}

static int decode_step(row_cache *c, const embedding *e, const int *ids, int t) {
  dt_tensor *h = encode(c, e, ids, t);
  dt_tensor *a = dt_tanh(h);
  dt_tensor *logits = dt_matmul(a, e->out_proj);
  int next = argmax_last(logits, t);
  dt_free(h);
  dt_free(a);
  dt_free(logits);
  return next;
}

static int parse_sharded(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--shard") == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  int sharded = parse_sharded(argc, argv);
  embedding e;
  embedding_init(&e, sharded);
  row_cache cache;
  memset(&cache, 0, sizeof cache);

  /* prompts are re-encoded every step (no KV cache), so repeated ids hit the row cache */
  const int prompts[2][3] = {{3, 5, 8}, {1, 7, 2}};
  for (int pr = 0; pr < 2; pr++) {
    int ids[MAX_T];
    int t = 3;
    memcpy(ids, prompts[pr], sizeof prompts[pr]);
    while (t < MAX_T) {
      int next = decode_step(&cache, &e, ids, t);
      ids[t++] = next;
    }
    printf("prompt %d:", pr);
    for (int i = 0; i < t; i++)
      printf(" %d", ids[i]);
    printf("\n");
  }
  printf("cache: %d hits, %d misses (%s)\n", cache.hits, cache.misses,
         sharded ? "sharded" : "single table");
  cache_clear(&cache);
  embedding_free(&e);
  return 0;
}
