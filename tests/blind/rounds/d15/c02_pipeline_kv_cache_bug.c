// blind round d15 — greedy decoding with a KV cache, the decoder split over two stages.
// Layers 0-1 live on sim:0, layers 2-3 on sim:1; each layer's cache is created lazily on the
// layer's device from the first k/v it sees and grows with dt_cat. The output projection is
// tied to the input embedding (a transpose of it) — and the embedding lives on stage 0, while
// the hidden state leaves the pipeline on stage 1: the first logits product fails.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LAYERS 4
#define N_STAGES 2
#define D_MODEL 8
#define VOCAB 12
#define MAX_NEW 5

typedef struct {
  dt_tensor *wq, *wk, *wv, *wo; /* [D_MODEL, D_MODEL] on the stage's device */
} attn_layer;

typedef struct {
  dt_tensor *k, *v; /* [len, D_MODEL], NULL until the first token */
  int len;
} kv_entry;

typedef struct {
  dt_device dev;
  int first_layer, n_layers;
} stage_info;

typedef struct {
  stage_info stages[N_STAGES];
  attn_layer layers[N_LAYERS];
  kv_entry cache[N_LAYERS];
  dt_tensor *embed;   /* [VOCAB, D_MODEL], stage 0: the token lookup happens there */
  dt_tensor *lm_head; /* [D_MODEL, VOCAB], tied to embed */
  float scale;
} decoder;

static dt_tensor *init_weight(dt_device dev, uint64_t seed, int64_t rows, int64_t cols) {
  dt_tensor *r = dt_randn(dev, seed, 2, (const int64_t[]){rows, cols});
  dt_tensor *w = dt_mul_scalar(r, 0.25f);
  dt_free(r);
  return w;
}

static void stage_setup(decoder *d, int s, dt_device dev, int first, int n) {
  d->stages[s].dev = dev;
  d->stages[s].first_layer = first;
  d->stages[s].n_layers = n;
  for (int l = first; l < first + n; l++) {
    attn_layer *L = &d->layers[l];
    uint64_t seed = 100 + 10 * (uint64_t)l;
    L->wq = init_weight(dev, seed + 1, D_MODEL, D_MODEL);
    L->wk = init_weight(dev, seed + 2, D_MODEL, D_MODEL);
    L->wv = init_weight(dev, seed + 3, D_MODEL, D_MODEL);
    L->wo = init_weight(dev, seed + 4, D_MODEL, D_MODEL);
    d->cache[l].k = d->cache[l].v = NULL;
    d->cache[l].len = 0;
  }
}

static void decoder_init(decoder *d) {
  stage_setup(d, 0, dt_sim(0), 0, N_LAYERS / 2);
  stage_setup(d, 1, dt_sim(1), N_LAYERS / 2, N_LAYERS - N_LAYERS / 2);
  d->embed = init_weight(d->stages[0].dev, 7, VOCAB, D_MODEL);
  d->lm_head = dt_transpose(d->embed); /* weight tying */
  d->scale = 1.0f / sqrtf((float)D_MODEL);
}

static void cache_append(kv_entry *c, dt_tensor *k, dt_tensor *v) {
  if (c->k == NULL) {
    c->k = k;
    c->v = v;
  } else {
    dt_tensor *ks[2] = {c->k, k};
    dt_tensor *vs[2] = {c->v, v};
    dt_tensor *nk = dt_cat(2, ks, 0);
    dt_tensor *nv = dt_cat(2, vs, 0);
    dt_free(c->k);
    dt_free(c->v);
    dt_free(k);
    dt_free(v);
    c->k = nk;
    c->v = nv;
  }
  c->len++;
}

static dt_tensor *softmax_row(const dt_tensor *scores) {
  dt_tensor *e = dt_exp(scores);
  dt_tensor *z = dt_sum(e);
  dt_tensor *p = dt_div(e, z);
  dt_free(e);
  dt_free(z);
  return p;
}

/* x: [1, D_MODEL] on the layer's device. Returns the layer's output there too. */
static dt_tensor *layer_step(decoder *d, int l, const dt_tensor *x) {
  attn_layer *L = &d->layers[l];
  dt_tensor *q = dt_matmul(x, L->wq);
  cache_append(&d->cache[l], dt_matmul(x, L->wk), dt_matmul(x, L->wv));
  dt_tensor *kt = dt_transpose(d->cache[l].k);
  dt_tensor *s0 = dt_matmul(q, kt);
  dt_tensor *s = dt_mul_scalar(s0, d->scale);
  dt_tensor *p = softmax_row(s);
  dt_tensor *ctx = dt_matmul(p, d->cache[l].v);
  dt_tensor *proj = dt_matmul(ctx, L->wo);
  dt_tensor *out = dt_add(x, proj);
  dt_tensor *tmp[] = {q, kt, s0, s, p, ctx, proj};
  for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  return out;
}

static dt_tensor *run_stage(decoder *d, int s, dt_tensor *x) {
  const stage_info *st = &d->stages[s];
  dt_tensor *h = dt_to_device(x, st->dev);
  for (int l = st->first_layer; l < st->first_layer + st->n_layers; l++) {
    dt_tensor *next = layer_step(d, l, h);
    dt_free(h);
    h = next;
  }
  return h;
}

static dt_tensor *embed_token(const decoder *d, int token) {
  float onehot[VOCAB];
  for (int i = 0; i < VOCAB; i++) onehot[i] = i == token ? 1.0f : 0.0f;
  dt_tensor *oh = dt_from_floats(d->stages[0].dev, onehot, 2, (const int64_t[]){1, VOCAB});
  dt_tensor *e = dt_matmul(oh, d->embed);
  dt_free(oh);
  return e;
}

static int argmax_host(const dt_tensor *logits) {
  float buf[VOCAB];
  if (dt_read_floats(logits, buf, VOCAB) != 0) return -1;
  int best = 0;
  for (int i = 1; i < VOCAB; i++)
    if (buf[i] > buf[best]) best = i;
  return best;
}

static int decode_one(decoder *d, int token) {
  dt_tensor *x = embed_token(d, token);
  dt_tensor *h0 = run_stage(d, 0, x);
  dt_tensor *h1 = run_stage(d, 1, h0);
  dt_tensor *logits = dt_matmul(h1, d->lm_head); // expect-error: device-mismatch
  int next = logits ? argmax_host(logits) : -1;
  dt_free(x);
  dt_free(h0);
  dt_free(h1);
  dt_free(logits);
  return next;
}

static void decoder_free(decoder *d) {
  for (int l = 0; l < N_LAYERS; l++) {
    dt_free(d->layers[l].wq);
    dt_free(d->layers[l].wk);
    dt_free(d->layers[l].wv);
    dt_free(d->layers[l].wo);
    dt_free(d->cache[l].k);
    dt_free(d->cache[l].v);
  }
  dt_free(d->embed);
  dt_free(d->lm_head);
}

int main(int argc, char **argv) {
  int prompt[] = {1, 4, 2};
  int n_prompt = (int)(sizeof prompt / sizeof prompt[0]);
  int max_new = argc > 1 ? atoi(argv[1]) : MAX_NEW;
  if (max_new < 1 || max_new > 16) max_new = MAX_NEW;
  decoder d;
  decoder_init(&d);
  int tok = -1;
  for (int i = 0; i < n_prompt; i++) tok = decode_one(&d, prompt[i]); /* prefill, token by token */
  printf("generated:");
  for (int i = 0; i < max_new && tok >= 0; i++) {
    printf(" %d", tok);
    tok = decode_one(&d, tok);
  }
  printf("\ncache length: %d\n", d.cache[N_LAYERS - 1].len);
  decoder_free(&d);
  return 0;
}
