// provenance: blind round d12
// run-args: --devices cpu,sim1,sim0 --seq 6
/* Batched inference of a tiny single-head attention layer replicated on several devices.
 * Causal masks and positional encodings are built once per (device, length) and kept in a
 * static cache; lookups match the full device tag, so replicas never share a cached tensor. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define D_MODEL 4
#define MAX_SEQ 8
#define CACHE_SLOTS 8
#define MAX_REPLICAS 4

typedef struct {
  int used;
  dt_device dev;
  int64_t len;
  dt_tensor *mask;   /* bool [len, len]: key position j allowed for query i */
  dt_tensor *pos;    /* float [len, D_MODEL] */
} cache_slot_t;

static cache_slot_t g_cache[CACHE_SLOTS];
static int g_hits, g_misses;

static cache_slot_t *cache_lookup(dt_device d, int64_t len) {
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (g_cache[i].used && g_cache[i].len == len && dt_device_equal(g_cache[i].dev, d)) {
      g_hits++;
      return &g_cache[i];
    }
  g_misses++;
  for (int i = 0; i < CACHE_SLOTS; i++) {
    if (g_cache[i].used) continue;
    cache_slot_t *s = &g_cache[i];
    float pos[MAX_SEQ * D_MODEL], qi[MAX_SEQ * MAX_SEQ], kj[MAX_SEQ * MAX_SEQ];
    for (int64_t p = 0; p < len; p++)
      for (int k = 0; k < D_MODEL; k++)
        pos[p * D_MODEL + k] = (k % 2 == 0) ? sinf((float)p / powf(100.0f, (float)k / D_MODEL))
                                            : cosf((float)p / powf(100.0f, (float)(k - 1) / D_MODEL));
    for (int64_t a = 0; a < len; a++)
      for (int64_t b = 0; b < len; b++) {
        qi[a * len + b] = (float)a + 0.5f;
        kj[a * len + b] = (float)b;
      }
    int64_t ps[2] = {len, D_MODEL}, ms[2] = {len, len};
    dt_tensor *q = dt_from_floats(d, qi, 2, ms);
    dt_tensor *k = dt_from_floats(d, kj, 2, ms);
    s->mask = dt_greater(q, k);
    s->pos = dt_from_floats(d, pos, 2, ps);
    s->dev = d;
    s->len = len;
    s->used = 1;
    dt_free(q);
    dt_free(k);
    return s;
  }
  return NULL;
}

static void cache_clear(void) {
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (g_cache[i].used) {
      dt_free(g_cache[i].mask);
      dt_free(g_cache[i].pos);
      g_cache[i].used = 0;
    }
}

typedef struct {
  dt_device dev;
  dt_tensor *wq, *wk, *wv, *wo;
} attn_t;

static void attn_init(attn_t *a, dt_device d, const dt_tensor *host_w[4]) {
  a->dev = d;
  a->wq = dt_to_device(host_w[0], d);
  a->wk = dt_to_device(host_w[1], d);
  a->wv = dt_to_device(host_w[2], d);
  a->wo = dt_to_device(host_w[3], d);
}

static dt_tensor *attn_forward(const attn_t *a, const dt_tensor *x, int64_t len) {
  cache_slot_t *c = cache_lookup(a->dev, len);
  if (!c) return NULL;
  int64_t ms[2] = {len, len};
  dt_tensor *xp = dt_add(x, c->pos);
  dt_tensor *q = dt_matmul(xp, a->wq);
  dt_tensor *k = dt_matmul(xp, a->wk);
  dt_tensor *v = dt_matmul(xp, a->wv);
  dt_tensor *kt = dt_transpose(k);
  dt_tensor *sc = dt_matmul(q, kt);
  dt_tensor *scs = dt_mul_scalar(sc, 0.5f);
  dt_tensor *neg = dt_full(a->dev, -1e4f, 2, ms);
  dt_tensor *masked = dt_where(c->mask, scs, neg);
  dt_tensor *e = dt_exp(masked);
  dt_tensor *den = dt_sum_dim(e, 1);
  int64_t cs[2] = {len, 1};
  dt_tensor *den2 = dt_reshape(den, 2, cs);
  dt_tensor *pr = dt_div(e, den2);
  dt_tensor *ctx = dt_matmul(pr, v);
  dt_tensor *out = dt_matmul(ctx, a->wo);
  dt_tensor *tmp[] = {xp, q, k, v, kt, sc, scs, neg, masked, e, den, den2, pr, ctx};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return out;
}

static void attn_free(attn_t *a) {
  dt_free(a->wq); dt_free(a->wk); dt_free(a->wv); dt_free(a->wo);
}

static int parse_devices(const char *list, dt_device *out, int max) {
  char buf[128];
  int n = 0;
  strncpy(buf, list, sizeof buf - 1);
  buf[sizeof buf - 1] = 0;
  for (char *tok = strtok(buf, ","); tok && n < max; tok = strtok(NULL, ",")) {
    if (strcmp(tok, "cpu") == 0) out[n++] = dt_cpu();
    else if (strcmp(tok, "sim0") == 0) out[n++] = dt_sim(0);
    else if (strcmp(tok, "sim1") == 0) out[n++] = dt_sim(1);
    else fprintf(stderr, "ignoring device %s\n", tok);
  }
  if (n == 0) out[n++] = dt_cpu();
  return n;
}

int main(int argc, char **argv) {
  const char *devs = "cpu,sim0";
  int64_t seq = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--devices") == 0) devs = argv[i + 1];
    else if (strcmp(argv[i], "--seq") == 0) seq = atoi(argv[i + 1]);
  }
  if (seq < 1 || seq > MAX_SEQ) seq = 5;
  dt_device replicas[MAX_REPLICAS];
  int nrep = parse_devices(devs, replicas, MAX_REPLICAS);

  int64_t ws[2] = {D_MODEL, D_MODEL};
  dt_tensor *host_w[4];
  for (int i = 0; i < 4; i++) host_w[i] = dt_randn(dt_cpu(), 77 + i, 2, ws);

  attn_t layers[MAX_REPLICAS];
  for (int r = 0; r < nrep; r++) attn_init(&layers[r], replicas[r], (const dt_tensor **)host_w);

  float xin[MAX_SEQ * D_MODEL];
  for (int i = 0; i < seq * D_MODEL; i++) xin[i] = (float)(i % 5) * 0.2f - 0.4f;
  int64_t xs[2] = {seq, D_MODEL};
  float ref[MAX_SEQ * D_MODEL];
  for (int round = 0; round < 3; round++) {
    for (int r = 0; r < nrep; r++) {
      dt_tensor *x = dt_from_floats(replicas[r], xin, 2, xs);
      dt_tensor *y = attn_forward(&layers[r], x, seq);
      dt_tensor *yh = dt_to_device(y, dt_cpu());
      float out[MAX_SEQ * D_MODEL];
      dt_read_floats(yh, out, seq * D_MODEL);
      if (r == 0) memcpy(ref, out, sizeof out);
      float diff = 0.0f;
      for (int i = 0; i < seq * D_MODEL; i++) diff += fabsf(out[i] - ref[i]);
      char nm[32];
      dt_device_name(replicas[r], nm, sizeof nm);
      if (round == 0) printf("replica %s: out[0]=%.4f diff=%.6f\n", nm, out[0], diff);
      dt_free(x); dt_free(y); dt_free(yh);
    }
  }
  printf("cache hits %d misses %d\n", g_hits, g_misses);
  for (int r = 0; r < nrep; r++) attn_free(&layers[r]);
  for (int i = 0; i < 4; i++) dt_free(host_w[i]);
  cache_clear();
  return 0;
}
