// provenance: blind round d12
#include "registry.h"
#include <stdio.h>
#include <string.h>

#define REG_MAX 16

typedef struct {
  char name[32];
  dt_tensor *t;
} reg_entry_t;

static reg_entry_t g_entries[REG_MAX];
static int g_count;

int registry_put(const char *name, dt_tensor *t) {
  for (int i = 0; i < g_count; i++)
    if (strcmp(g_entries[i].name, name) == 0) {
      dt_free(g_entries[i].t);
      g_entries[i].t = t;
      return 0;
    }
  if (g_count == REG_MAX) return -1;
  snprintf(g_entries[g_count].name, sizeof g_entries[g_count].name, "%s", name);
  g_entries[g_count].t = t;
  g_count++;
  return 0;
}

dt_tensor *registry_get(const char *name) {
  for (int i = 0; i < g_count; i++)
    if (strcmp(g_entries[i].name, name) == 0) return g_entries[i].t;
  return NULL;
}

/* created on first use, on the device of the first caller */
dt_tensor *registry_constant(const char *name, dt_device d, float value) {
  dt_tensor *t = registry_get(name);
  if (t) return t;
  int64_t one[1] = {1};
  t = dt_full(d, value, 1, one);
  registry_put(name, t);
  return t;
}

void registry_load_checkpoint(int vocab, int hidden) {
  int64_t es[2] = {vocab, hidden}, ws[2] = {hidden, vocab}, bs[1] = {vocab};
  dt_device host = dt_cpu();
  dt_tensor *e = dt_randn(host, 1, 2, es);
  dt_tensor *w = dt_randn(host, 2, 2, ws);
  registry_put("embed", dt_mul_scalar(e, 0.5f));
  registry_put("out_proj", dt_mul_scalar(w, 0.5f));
  registry_put("out_bias", dt_zeros(host, DT_FLOAT, 1, bs));
  dt_free(e);
  dt_free(w);
}

void registry_clear(void) {
  for (int i = 0; i < g_count; i++) dt_free(g_entries[i].t);
  g_count = 0;
}

int registry_size(void) { return g_count; }
