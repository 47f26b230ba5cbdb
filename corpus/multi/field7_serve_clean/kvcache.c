/* kvcache.c — append-only key/value cache, concatenated on the serving device. */
#include "server.h"

void sv_cache_reset(sv_cache *c) {
  dt_free(c->keys);
  dt_free(c->values);
  c->keys = c->values = NULL;
  c->len = 0;
}

static dt_tensor *append_rows(dt_tensor *old, const dt_tensor *row) {
  if (!old) return dt_to_device(row, g_serve_device);
  dt_tensor *parts[2] = {old, (dt_tensor *)row};
  dt_tensor *joined = dt_cat(2, parts, 0);
  dt_free(old);
  return joined;
}

int sv_cache_append(sv_cache *c, const dt_tensor *k, const dt_tensor *v) {
  if (c->len >= SV_MAX_STEPS) return -1;
  c->keys = append_rows(c->keys, k);
  c->values = append_rows(c->values, v);
  c->len++;
  return (c->keys && c->values) ? 0 : -1;
}
