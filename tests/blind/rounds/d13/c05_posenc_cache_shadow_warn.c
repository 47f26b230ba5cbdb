/* Single-head attention inference service.  Requests of varying sequence length are served by
 * the primary replica on PRIMARY_DEVICE; when SHADOW_DEVICE is set, a canary replica with the
 * same weights serves every request too and its answers are compared with the primary's.
 * Sinusoidal position encodings are built once per length and kept in a static cache.
 *
 *   env: PRIMARY_DEVICE (default sim0), SHADOW_DEVICE (unset: no shadow)
 *   usage: c05 [REQUESTS]
 */
// run-args: 9
// run-env: SHADOW_DEVICE=sim1
#include <dt/dt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM 8
#define MAX_CACHED 8

typedef struct Replica {
  char name[24];
  dt_device dev;
  dt_tensor *wq, *wk, *wv, *wo;
} Replica;

typedef struct Stats {
  int served;
  float max_gap;
  double total_norm;
} Stats;

static struct {
  int64_t len;
  dt_tensor *pe;
} pe_cache[MAX_CACHED];
static int pe_cached;

static int parse_device(const char *s, dt_device *out) {
  if (!s || !*s) return 0;
  if (!strcmp(s, "cpu")) *out = dt_cpu();
  else if (!strcmp(s, "sim0")) *out = dt_sim(0);
  else if (!strcmp(s, "sim1")) *out = dt_sim(1);
  else if (!strcmp(s, "cuda") && dt_backend_available(DT_BACKEND_CUDA)) *out = dt_cuda(0);
  else return 0;
  return 1;
}

static dt_tensor *build_pos_enc(dt_device dev, int64_t len) {
  float *buf = malloc(sizeof(float) * (size_t)(len * DM));
  for (int64_t p = 0; p < len; p++)
    for (int i = 0; i < DM; i++) {
      float rate = powf(10000.0f, -(float)(i & ~1) / (float)DM);
      buf[p * DM + i] = (i % 2 == 0) ? sinf((float)p * rate) : cosf((float)p * rate);
    }
  const int64_t s[2] = {len, DM};
  dt_tensor *t = dt_from_floats(dev, buf, 2, s);
  free(buf);
  return t;
}

static const dt_tensor *pos_enc(dt_device dev, int64_t len) {
  for (int i = 0; i < pe_cached; i++)
    if (pe_cache[i].len == len) return pe_cache[i].pe;
  dt_tensor *t = build_pos_enc(dev, len);
  if (pe_cached < MAX_CACHED) {
    pe_cache[pe_cached].len = len;
    pe_cache[pe_cached].pe = t;
    pe_cached++;
  }
  return t;
}

static void pe_cache_clear(void) {
  for (int i = 0; i < pe_cached; i++) dt_free(pe_cache[i].pe);
  pe_cached = 0;
}

static void replica_load(Replica *r, const char *name, dt_device dev, const float *host_w) {
  const int64_t s[2] = {DM, DM};
  snprintf(r->name, sizeof r->name, "%s", name);
  r->dev = dev;
  r->wq = dt_from_floats(dev, host_w + 0 * DM * DM, 2, s);
  r->wk = dt_from_floats(dev, host_w + 1 * DM * DM, 2, s);
  r->wv = dt_from_floats(dev, host_w + 2 * DM * DM, 2, s);
  r->wo = dt_from_floats(dev, host_w + 3 * DM * DM, 2, s);
}

static void replica_free(Replica *r) {
  dt_free(r->wq);
  dt_free(r->wk);
  dt_free(r->wv);
  dt_free(r->wo);
}

static dt_tensor *softmax_rows(const dt_tensor *s) {
  int64_t rows = dt_dim(s, 0);
  dt_tensor *e = dt_exp(s);
  dt_tensor *sum = dt_sum_dim(e, 1);
  const int64_t col[2] = {rows, 1};
  dt_tensor *sum2 = dt_reshape(sum, 2, col);
  dt_tensor *p = dt_div(e, sum2);
  dt_free(e);
  dt_free(sum);
  dt_free(sum2);
  return p;
}

static dt_tensor *attend(const Replica *r, const float *tokens, int64_t len) {
  const int64_t s[2] = {len, DM};
  dt_tensor *x = dt_from_floats(r->dev, tokens, 2, s);
  const dt_tensor *pe = pos_enc(r->dev, len);
  dt_tensor *xp = dt_add(x, pe); // expect-warning: device-mismatch
  dt_tensor *q = dt_matmul(xp, r->wq);
  dt_tensor *k = dt_matmul(xp, r->wk);
  dt_tensor *v = dt_matmul(xp, r->wv);
  dt_tensor *kt = dt_transpose(k);
  dt_tensor *sc = dt_matmul(q, kt);
  dt_tensor *scs = dt_mul_scalar(sc, 1.0f / sqrtf((float)DM));
  dt_tensor *p = softmax_rows(scs);
  dt_tensor *ctx = dt_matmul(p, v);
  dt_tensor *out = dt_matmul(ctx, r->wo);
  dt_tensor *tmp[] = {x, xp, q, k, v, kt, sc, scs, p, ctx};
  for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++) dt_free(tmp[i]);
  return out;
}

static float norm_of(const dt_tensor *t) {
  dt_tensor *sq = dt_mul(t, t);
  dt_tensor *s = dt_sum(sq);
  float v = 0.0f;
  dt_read_floats(s, &v, 1);
  dt_free(sq);
  dt_free(s);
  return sqrtf(v);
}

static float compare(const dt_tensor *primary, const dt_tensor *shadow) {
  dt_tensor *moved = dt_to_device(shadow, dt_device_of(primary));
  dt_tensor *l = dt_mse_loss(primary, moved);
  float v = 0.0f;
  dt_read_floats(l, &v, 1);
  dt_free(l);
  dt_free(moved);
  return v;
}

static void make_request(int id, int64_t len, float *tok) {
  for (int64_t i = 0; i < len * DM; i++) tok[i] = 0.5f * sinf(0.3f * (float)(id * 17 + i));
}

int main(int argc, char **argv) {
  int requests = argc > 1 ? atoi(argv[1]) : 6;
  dt_device primary_dev = dt_sim(0), shadow_dev = dt_cpu();
  parse_device(getenv("PRIMARY_DEVICE"), &primary_dev);
  int with_shadow = parse_device(getenv("SHADOW_DEVICE"), &shadow_dev);

  float host_w[4 * DM * DM];
  for (int i = 0; i < 4 * DM * DM; i++) host_w[i] = 0.2f * cosf(0.7f * (float)i);

  Replica primary, shadow;
  replica_load(&primary, "primary", primary_dev, host_w);
  if (with_shadow) replica_load(&shadow, "shadow", shadow_dev, host_w);

  static const int64_t lengths[] = {4, 6, 8, 6, 4, 5};
  Stats st = {0, 0.0f, 0.0};
  float tok[8 * DM];
  for (int id = 0; id < requests; id++) {
    int64_t len = lengths[id % 6];
    make_request(id, len, tok);
    dt_tensor *out = attend(&primary, tok, len);
    st.total_norm += norm_of(out);
    if (with_shadow) {
      dt_tensor *so = attend(&shadow, tok, len);
      float gap = compare(out, so);
      if (gap > st.max_gap) st.max_gap = gap;
      if (gap > 1e-3f) fprintf(stderr, "request %d: shadow disagrees (%g)\n", id, gap);
      dt_free(so);
    }
    st.served++;
    dt_free(out);
  }
  printf("served %d requests, mean norm %.4f, shadow max gap %.3g\n", st.served,
         st.served ? st.total_norm / st.served : 0.0, st.max_gap);

  pe_cache_clear();
  replica_free(&primary);
  if (with_shadow) replica_free(&shadow);
  return 0;
}
