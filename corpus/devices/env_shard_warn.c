// provenance: blind round field7
// run-env: SHARD_DEVICE=1
/* env_shard_warn.c — data-parallel style loader: each worker reads its shard onto the device
 * named by SHARD_DEVICE (default: the model's device). The model itself is always built on
 * sim:0, so a worker configured for sim:1 feeds the model batches from the wrong device. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 4
#define COLS 6
#define N_SHARDS 3

typedef struct {
  int id;
  dt_device dev;
  float buf[ROWS * COLS];
} shard;

typedef struct {
  dt_device dev;
  dt_tensor *proj;  /* [COLS, COLS] */
  dt_tensor *gain;  /* [COLS] */
  dt_tensor *accum; /* [COLS] running feature sum */
} featurizer;

typedef dt_tensor *(*activation_fn)(const dt_tensor *);

static int shard_ordinal(int fallback) {
  const char *s = getenv("SHARD_DEVICE");
  if (!s || !*s) return fallback;
  return atoi(s);
}

static void shard_fill(shard *s, int id, dt_device dev) {
  s->id = id;
  s->dev = dev;
  for (int i = 0; i < ROWS * COLS; ++i) s->buf[i] = (float)((i * (id + 2)) % 11) / 11.0f;
}

static dt_tensor *shard_tensor(const shard *s) {
  const int64_t sh[] = {ROWS, COLS};
  return dt_from_floats(s->dev, s->buf, 2, sh);
}

static void featurizer_init(featurizer *f, dt_device dev) {
  const int64_t sp[] = {COLS, COLS}, sg[] = {COLS};
  f->dev = dev;
  dt_tensor *r = dt_randn(dev, 17u, 2, sp);
  f->proj = dt_mul_scalar(r, 0.25f);
  dt_free(r);
  f->gain = dt_ones(dev, DT_FLOAT, 1, sg);
  f->accum = dt_zeros(dev, DT_FLOAT, 1, sg);
}

static dt_tensor *featurize(featurizer *f, const dt_tensor *x, activation_fn act) {
  dt_tensor *h = dt_matmul(x, f->proj); // expect-warning: device-mismatch
  if (!h) return NULL;
  dt_tensor *a = act(h);
  dt_tensor *g = dt_mul(a, f->gain);
  dt_tensor *colsum = dt_sum_dim(g, 0);
  dt_tensor *acc = dt_add(f->accum, colsum);
  dt_free(f->accum);
  f->accum = acc;
  dt_free(h);
  dt_free(a);
  dt_free(colsum);
  return g;
}

static dt_tensor *act_relu(const dt_tensor *t) { return dt_relu(t); }
static dt_tensor *act_tanh(const dt_tensor *t) { return dt_tanh(t); }

/* per-shard normalisation: statistics are computed from the shard tensor itself, so they
   live wherever the shard lives */
static dt_tensor *normalize_shard(const dt_tensor *x) {
  dt_tensor *colsum = dt_sum_dim(x, 0);
  dt_tensor *mean = dt_mul_scalar(colsum, 1.0f / (float)ROWS);
  dt_tensor *centered = dt_sub(x, mean);
  dt_free(colsum);
  dt_free(mean);
  return centered;
}

static float shard_energy(const shard *s) {
  dt_tensor *x = shard_tensor(s);
  dt_tensor *n = normalize_shard(x);
  dt_tensor *sq = dt_mul(n, n);
  dt_tensor *tot = dt_sum(sq);
  float v = 0.0f;
  if (tot) dt_read_floats(tot, &v, 1);
  dt_free(x);
  dt_free(n);
  dt_free(sq);
  dt_free(tot);
  return v;
}

typedef struct {
  float sums[COLS];
  int valid;
} accum_checkpoint;

static accum_checkpoint save_accum(const featurizer *f) {
  accum_checkpoint c;
  memset(&c, 0, sizeof c);
  dt_tensor *host = dt_to_device(f->accum, dt_cpu());
  c.valid = host && dt_read_floats(host, c.sums, COLS) == 0;
  dt_free(host);
  return c;
}

static void restore_accum(featurizer *f, const accum_checkpoint *c) {
  if (!c->valid) return;
  const int64_t sg[] = {COLS};
  dt_tensor *t = dt_from_floats(f->dev, c->sums, 1, sg);
  dt_free(f->accum);
  f->accum = t;
}

int main(int argc, char **argv) {
  (void)argv;
  activation_fn act = argc > 2 ? act_tanh : act_relu;
  featurizer f;
  featurizer_init(&f, dt_sim(0));
  /* only two accelerators in this box: anything but 1 means "the model's device" */
  dt_device shard_dev = shard_ordinal(f.dev.ordinal) == 1 ? dt_sim(1) : f.dev;

  shard shards[N_SHARDS];
  for (int i = 0; i < N_SHARDS; ++i) shard_fill(&shards[i], i, shard_dev);

  for (int i = 0; i < N_SHARDS; ++i) printf("shard %d energy %.4f\n", i, shard_energy(&shards[i]));
  accum_checkpoint before = save_accum(&f);

  int done = 0;
  for (int i = 0; i < N_SHARDS; ++i) {
    dt_tensor *x = shard_tensor(&shards[i]);
    dt_tensor *feat = featurize(&f, x, act);
    if (feat) ++done;
    dt_free(feat);
    dt_free(x);
  }
  if (done == 0) restore_accum(&f, &before);
  float acc[COLS] = {0};
  if (dt_read_floats(f.accum, acc, COLS) == 0)
    printf("shards %d/%d, feature sums %.3f %.3f %.3f ...\n", done, N_SHARDS, acc[0], acc[1], acc[2]);
  dt_free(f.proj);
  dt_free(f.gain);
  dt_free(f.accum);
  return 0;
}
