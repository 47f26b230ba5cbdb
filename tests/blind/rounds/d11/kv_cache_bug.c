// provenance: blind round d11
// Greedy decoding with a single-head attention block and a growing KV cache.
// usage: kv_decode [sim0|sim1] [max_new_tokens]
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 16
#define DIM 8
#define MAX_CTX 32

typedef struct {
  dt_device compute;   /* where the weights and activations live */
  dt_device host;      /* where logits are staged for sampling */
  int max_new;
  int prompt[4];
  int prompt_len;
} infer_cfg;

typedef struct {
  dt_tensor *wq, *wk, *wv, *wo, *unembed;
  float embed[VOCAB * DIM];   /* host-side embedding table */
} attn_model;

typedef struct {
  dt_tensor *k;   /* [len, DIM] */
  dt_tensor *v;
  int len;
} kv_cache;

static void cfg_from_args(infer_cfg *c, int argc, char **argv) {
  c->compute = dt_sim(0);
  if (argc > 1 && strcmp(argv[1], "sim1") == 0) c->compute = dt_sim(1);
  c->host = dt_cpu();
  c->max_new = argc > 2 ? atoi(argv[2]) : 6;
  if (c->max_new < 1 || c->max_new > MAX_CTX - 8) c->max_new = 6;
  int p[4] = {1, 5, 9, 3};
  memcpy(c->prompt, p, sizeof p);
  c->prompt_len = 4;
}

static dt_tensor *weight(dt_device d, uint64_t seed, int64_t r, int64_t c) {
  int64_t s[2] = {r, c};
  dt_tensor *raw = dt_randn(d, seed, 2, s);
  dt_tensor *w = dt_mul_scalar(raw, 0.35f);
  dt_free(raw);
  return w;
}

static void model_load(attn_model *m, dt_device d) {
  m->wq = weight(d, 1, DIM, DIM);
  m->wk = weight(d, 2, DIM, DIM);
  m->wv = weight(d, 3, DIM, DIM);
  m->wo = weight(d, 4, DIM, DIM);
  m->unembed = weight(d, 5, DIM, VOCAB);
  for (int t = 0; t < VOCAB; t++)
    for (int j = 0; j < DIM; j++)
      m->embed[t * DIM + j] = (float)((t * 13 + j * 7) % 17) / 17.0f - 0.5f;
}

static void model_free(attn_model *m) {
  dt_free(m->wq); dt_free(m->wk); dt_free(m->wv); dt_free(m->wo); dt_free(m->unembed);
}

/* the cache starts with one all-zero "sink" position */
static void kv_cache_init(kv_cache *c, dt_device d) {
  int64_t s[2] = {1, DIM};
  c->k = dt_zeros(d, DT_FLOAT, 2, s);
  c->v = dt_zeros(d, DT_FLOAT, 2, s);
  c->len = 1;
}

static void kv_cache_append(kv_cache *c, dt_tensor *k_new, dt_tensor *v_new) {
  dt_tensor *ks[2] = {c->k, k_new};
  dt_tensor *vs[2] = {c->v, v_new};
  dt_tensor *k = dt_cat(2, ks, 0); // expect-error: backend-mismatch
  dt_tensor *v = dt_cat(2, vs, 0); // expect-error: backend-mismatch
  dt_free(c->k); dt_free(c->v);
  c->k = k; c->v = v;
  c->len++;
}

static void kv_cache_free(kv_cache *c) { dt_free(c->k); dt_free(c->v); c->len = 0; }

static dt_tensor *embed_token(const attn_model *m, int tok, dt_device d) {
  int64_t s[2] = {1, DIM};
  return dt_from_floats(d, &m->embed[tok * DIM], 2, s);
}

/* one decoding step: x is [1, DIM]; returns logits [1, VOCAB] */
static dt_tensor *decode_step(const attn_model *m, kv_cache *cache, const dt_tensor *x) {
  dt_tensor *q = dt_matmul(x, m->wq);
  dt_tensor *k = dt_matmul(x, m->wk);
  dt_tensor *v = dt_matmul(x, m->wv);
  kv_cache_append(cache, k, v);
  dt_tensor *kt = dt_transpose(cache->k);
  dt_tensor *scores = dt_matmul(q, kt);
  dt_tensor *scaled = dt_mul_scalar(scores, 0.35355f);
  dt_tensor *e = dt_exp(scaled);
  dt_tensor *z = dt_sum_dim(e, 1);
  dt_tensor *attn = dt_div(e, z);
  dt_tensor *ctx = dt_matmul(attn, cache->v);
  dt_tensor *o = dt_matmul(ctx, m->wo);
  dt_tensor *res = dt_add(o, x);
  dt_tensor *logits = dt_matmul(res, m->unembed);
  dt_free(q); dt_free(k); dt_free(v); dt_free(kt); dt_free(scores); dt_free(scaled);
  dt_free(e); dt_free(z); dt_free(attn); dt_free(ctx); dt_free(o); dt_free(res);
  return logits;
}

static int argmax_on_host(const dt_tensor *logits, dt_device host) {
  float buf[VOCAB];
  dt_tensor *h = dt_to_device(logits, host);
  dt_read_floats(h, buf, VOCAB);
  dt_free(h);
  int best = 0;
  for (int i = 1; i < VOCAB; i++) if (buf[i] > buf[best]) best = i;
  return best;
}

int main(int argc, char **argv) {
  infer_cfg cfg;
  cfg_from_args(&cfg, argc, argv);
  attn_model model;
  model_load(&model, cfg.compute);
  kv_cache cache;
  kv_cache_init(&cache, cfg.host);

  int tokens[MAX_CTX];
  int n = 0;
  for (int i = 0; i < cfg.prompt_len; i++) tokens[n++] = cfg.prompt[i];

  /* prefill the prompt one position at a time */
  dt_tensor *logits = NULL;
  for (int i = 0; i < cfg.prompt_len; i++) {
    dt_tensor *x = embed_token(&model, tokens[i], cfg.compute);
    dt_free(logits);
    logits = decode_step(&model, &cache, x);
    dt_free(x);
  }
  for (int step = 0; step < cfg.max_new && n < MAX_CTX; step++) {
    int next = argmax_on_host(logits, cfg.host);
    tokens[n++] = next;
    dt_tensor *x = embed_token(&model, next, cfg.compute);
    dt_free(logits);
    logits = decode_step(&model, &cache, x);
    dt_free(x);
  }
  printf("generated:");
  for (int i = 0; i < n; i++) printf(" %d", tokens[i]);
  printf("\ncache length %d\n", cache.len);
  dt_free(logits);
  kv_cache_free(&cache);
  model_free(&model);
  return 0;
}
