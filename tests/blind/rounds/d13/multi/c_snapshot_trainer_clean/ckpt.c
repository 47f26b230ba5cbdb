#include "ckpt.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SNAPS 6

typedef struct Snap {
  char name[32];
  float score;
  int n;
  float *data[MODEL_MAX_PARAMS];
  int64_t numel[MODEL_MAX_PARAMS];
} Snap;

static Snap table[MAX_SNAPS];
static int n_snaps;

static Snap *find(const char *name) {
  for (int i = 0; i < n_snaps; i++)
    if (!strcmp(table[i].name, name)) return &table[i];
  return NULL;
}

static void snap_release(Snap *s) {
  for (int i = 0; i < s->n; i++) free(s->data[i]);
  s->n = 0;
}

int ckpt_store(const char *name, const Model *m, float score) {
  Snap *s = find(name);
  if (!s) {
    if (n_snaps == MAX_SNAPS) return -1;
    s = &table[n_snaps++];
    strncpy(s->name, name, sizeof s->name - 1);
    s->name[sizeof s->name - 1] = 0;
  } else {
    snap_release(s);
  }
  s->score = score;
  s->n = m->n_params;
  for (int i = 0; i < m->n_params; i++) {
    dt_tensor *in = dt_inner(m->p[i]);
    s->numel[i] = dt_numel(in);
    s->data[i] = malloc(sizeof(float) * (size_t)s->numel[i]);
    dt_read_floats(in, s->data[i], s->numel[i]);
    dt_free(in);
  }
  return 0;
}

int ckpt_restore(const char *name, Model *m) {
  const Snap *s = find(name);
  if (!s || s->n != m->n_params) return -1;
  dt_device plain = dt_inner_device(m->ad);
  for (int i = 0; i < s->n; i++) {
    dt_tensor *t = dt_from_floats(plain, s->data[i], m->rank[i], m->shape[i]);
    model_set(m, i, t);
    dt_free(t);
  }
  return 0;
}

const char *ckpt_best(void) {
  int best = -1;
  for (int i = 0; i < n_snaps; i++)
    if (best < 0 || table[i].score < table[best].score) best = i;
  return best < 0 ? NULL : table[best].name;
}

void ckpt_clear(void) {
  for (int i = 0; i < n_snaps; i++) snap_release(&table[i]);
  n_snaps = 0;
}
