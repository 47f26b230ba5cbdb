/* server.c — layer weights and one decode step with attention over the cache. */
#include "server.h"
#include <stdlib.h>

dt_device g_serve_device;

static dt_tensor *weight(uint64_t seed) {
  const int64_t sh[] = {SV_DIM, SV_DIM};
  dt_tensor *r = dt_randn(g_serve_device, seed, 2, sh);
  dt_tensor *w = dt_mul_scalar(r, 0.3f);
  dt_free(r);
  return w;
}

int sv_server_init(sv_server *s, int vocab) {
  s->vocab = vocab;
  float *tab = malloc(sizeof(float) * (size_t)vocab * SV_DIM);
  if (!tab) return -1;
  for (int i = 0; i < vocab * SV_DIM; ++i) tab[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  const int64_t sh[] = {vocab, SV_DIM};
  s->embed = dt_from_floats(dt_cpu(), tab, 2, sh); /* host table: rows are looked up on the host */
  free(tab);
  for (int l = 0; l < SV_LAYERS; ++l) {
    sv_layer *L = &s->layers[l];
    L->wq = weight(10u * (uint64_t)l + 1u);
    L->wk = weight(10u * (uint64_t)l + 2u);
    L->wv = weight(10u * (uint64_t)l + 3u);
    L->cache.keys = L->cache.values = NULL;
    L->cache.len = 0;
  }
  return s->embed ? 0 : -1;
}

void sv_server_free(sv_server *s) {
  for (int l = 0; l < SV_LAYERS; ++l) {
    dt_free(s->layers[l].wq);
    dt_free(s->layers[l].wk);
    dt_free(s->layers[l].wv);
    sv_cache_reset(&s->layers[l].cache);
  }
  dt_free(s->embed);
}

static dt_tensor *attend(sv_layer *L, const dt_tensor *x) {
  dt_tensor *q = dt_matmul(x, L->wq);
  dt_tensor *k = dt_matmul(x, L->wk);
  dt_tensor *v = dt_matmul(x, L->wv);
  sv_cache_append(&L->cache, k, v);
  dt_tensor *kt = dt_transpose(L->cache.keys);
  dt_tensor *sc = dt_matmul(q, kt);          /* [1, t] */
  dt_tensor *w = dt_sigmoid(sc);
  dt_tensor *ctx = dt_matmul(w, L->cache.values); /* [1, SV_DIM] */
  dt_tensor *out = dt_add(ctx, x);
  dt_free(q);
  dt_free(k);
  dt_free(v);
  dt_free(kt);
  dt_free(sc);
  dt_free(w);
  dt_free(ctx);
  return out;
}

dt_tensor *sv_step(sv_server *s, int token) {
  float row[SV_DIM];
  float all[64 * SV_DIM];
  if (s->vocab > 64) return NULL;
  if (dt_read_floats(s->embed, all, (int64_t)s->vocab * SV_DIM)) return NULL;
  for (int j = 0; j < SV_DIM; ++j) row[j] = all[(token % s->vocab) * SV_DIM + j];
  dt_tensor *x = sv_row_tensor(row);
  for (int l = 0; l < SV_LAYERS; ++l) {
    dt_tensor *y = attend(&s->layers[l], x);
    dt_free(x);
    x = y;
  }
  return x;
}
