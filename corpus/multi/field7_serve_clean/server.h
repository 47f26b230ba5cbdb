/* server.h — a toy decoder server: layers with a key/value cache (multi_serve_clean). */
#ifndef SV_SERVER_H
#define SV_SERVER_H
#include <dt/dt.h>

#define SV_DIM 4
#define SV_LAYERS 2
#define SV_MAX_STEPS 16

extern dt_device g_serve_device; /* set once by main, before anything is allocated */

typedef struct {
  dt_tensor *keys;   /* [t, SV_DIM] or NULL when empty */
  dt_tensor *values; /* [t, SV_DIM] */
  int len;
} sv_cache;

typedef struct {
  dt_tensor *wq, *wk, *wv; /* [SV_DIM, SV_DIM] */
  sv_cache cache;
} sv_layer;

typedef struct {
  sv_layer layers[SV_LAYERS];
  dt_tensor *embed; /* [vocab, SV_DIM] as rows read by host index */
  int vocab;
} sv_server;

int sv_server_init(sv_server *s, int vocab);
void sv_server_free(sv_server *s);
dt_tensor *sv_step(sv_server *s, int token);

void sv_cache_reset(sv_cache *c);
int sv_cache_append(sv_cache *c, const dt_tensor *k, const dt_tensor *v);

static inline dt_tensor *sv_row_tensor(const float *row) {
  const int64_t sh[] = {1, SV_DIM};
  return dt_from_floats(g_serve_device, row, 2, sh);
}

#endif
