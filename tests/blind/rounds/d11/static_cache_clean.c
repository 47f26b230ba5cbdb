// provenance: blind round d11
// Replicated inference: the same small encoder is instantiated on cpu, sim:0 and sim:1, each
// replica scores a shard of the batch, and the results are gathered on the host. Positional
// tables are built once per device and kept in a static cache; activations are picked through
// a table of function pointers.
// usage: replicas [act-name] [n-replicas]
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEQ 6
#define DIM 4
#define SHARD 3
#define MAX_REPLICAS 3
#define CACHE_SLOTS 4

typedef dt_tensor *(*act_fn)(const dt_tensor *);

typedef struct {
  const char *name;
  act_fn fn;
} act_entry;

static dt_tensor *act_relu(const dt_tensor *t) { return dt_relu(t); }
static dt_tensor *act_tanh(const dt_tensor *t) { return dt_tanh(t); }
static dt_tensor *act_sigmoid(const dt_tensor *t) { return dt_sigmoid(t); }

static const act_entry ACTS[] = {
  {"relu", act_relu}, {"tanh", act_tanh}, {"sigmoid", act_sigmoid},
};

static act_fn find_act(const char *name) {
  for (size_t i = 0; i < sizeof ACTS / sizeof ACTS[0]; i++)
    if (!strcmp(ACTS[i].name, name)) return ACTS[i].fn;
  return act_tanh;
}

typedef struct {
  int used;
  dt_device dev;
  dt_tensor *table;   /* [SEQ, DIM] */
} pos_slot;

static pos_slot g_pos_cache[CACHE_SLOTS];
static int g_cache_hits, g_cache_misses;

static const dt_tensor *positional_table(dt_device d) {
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (g_pos_cache[i].used && dt_device_equal(g_pos_cache[i].dev, d)) {
      g_cache_hits++;
      return g_pos_cache[i].table;
    }
  float buf[SEQ * DIM];
  for (int p = 0; p < SEQ; p++)
    for (int j = 0; j < DIM; j++)
      buf[p * DIM + j] = (j % 2 ? 0.1f : -0.1f) * (float)(p + 1) / (float)(j + 1);
  int64_t s[2] = {SEQ, DIM};
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (!g_pos_cache[i].used) {
      g_pos_cache[i].used = 1;
      g_pos_cache[i].dev = d;
      g_pos_cache[i].table = dt_from_floats(d, buf, 2, s);
      g_cache_misses++;
      return g_pos_cache[i].table;
    }
  return NULL;
}

static void positional_cache_clear(void) {
  for (int i = 0; i < CACHE_SLOTS; i++) {
    if (g_pos_cache[i].used) dt_free(g_pos_cache[i].table);
    g_pos_cache[i].used = 0;
  }
}

typedef struct {
  dt_device dev;
  dt_tensor *proj;    /* [DIM, DIM] */
  dt_tensor *score;   /* [DIM, 1] */
  act_fn act;
} encoder;

static void encoder_init(encoder *e, dt_device d, act_fn act) {
  int64_t ps[2] = {DIM, DIM}, ss[2] = {DIM, 1};
  e->dev = d;
  e->proj = dt_randn(d, 2024, 2, ps);   /* same seed: identical replicas */
  e->score = dt_full(d, 0.25f, 2, ss);
  e->act = act;
}

static void encoder_free(encoder *e) { dt_free(e->proj); dt_free(e->score); }

/* x: [SEQ, DIM] on e->dev; returns [1] (mean score over positions) */
static dt_tensor *encoder_score(const encoder *e, const dt_tensor *x) {
  const dt_tensor *pos = positional_table(e->dev);
  dt_tensor *xp = dt_add(x, pos);
  dt_tensor *h = dt_matmul(xp, e->proj);
  dt_tensor *a = e->act(h);
  dt_tensor *s = dt_matmul(a, e->score);
  dt_tensor *m = dt_mean(s);
  dt_free(xp); dt_free(h); dt_free(a); dt_free(s);
  return m;
}

static void make_sequence(float *buf, int item) {
  for (int p = 0; p < SEQ; p++)
    for (int j = 0; j < DIM; j++)
      buf[p * DIM + j] = (float)((item * 5 + p * 3 + j) % 7) / 7.0f;
}

static int n_replicas_from(int argc, char **argv) {
  int n = argc > 2 ? atoi(argv[2]) : MAX_REPLICAS;
  if (n < 1 || n > MAX_REPLICAS) n = MAX_REPLICAS;
  return n;
}

int main(int argc, char **argv) {
  act_fn act = find_act(argc > 1 ? argv[1] : "tanh");
  int n_rep = n_replicas_from(argc, argv);
  dt_device devs[MAX_REPLICAS] = {dt_cpu(), dt_sim(0), dt_sim(1)};
  encoder reps[MAX_REPLICAS];
  for (int r = 0; r < n_rep; r++) encoder_init(&reps[r], devs[r], act);

  dt_device host = dt_cpu();
  int total_items = n_rep * SHARD;
  dt_tensor *gathered[MAX_REPLICAS * SHARD];
  float seq[SEQ * DIM];
  int64_t s[2] = {SEQ, DIM};

  for (int pass = 0; pass < 2; pass++) {
    for (int item = 0; item < total_items; item++) {
      int r = item / SHARD;
      make_sequence(seq, item);
      dt_tensor *x = dt_from_floats(reps[r].dev, seq, 2, s);
      dt_tensor *score = encoder_score(&reps[r], x);
      gathered[item] = dt_to_device(score, host);
      dt_free(score);
      dt_free(x);
    }
    int64_t one[1] = {1};
    dt_tensor *flat[MAX_REPLICAS * SHARD];
    for (int i = 0; i < total_items; i++) flat[i] = dt_reshape(gathered[i], 1, one);
    dt_tensor *all = dt_cat(total_items, flat, 0);
    dt_tensor *avg = dt_mean(all);
    float v = 0.0f;
    dt_read_floats(avg, &v, 1);
    printf("pass %d: %d items over %d replicas, mean score %.5f\n", pass, total_items, n_rep, v);
    for (int i = 0; i < total_items; i++) { dt_free(flat[i]); dt_free(gathered[i]); }
    dt_free(all); dt_free(avg);
  }
  printf("positional cache: %d misses, %d hits\n", g_cache_misses, g_cache_hits);
  positional_cache_clear();
  for (int r = 0; r < n_rep; r++) encoder_free(&reps[r]);
  return 0;
}
