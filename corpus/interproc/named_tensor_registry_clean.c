// corpus/interproc/named_tensor_registry_clean.c — parameters kept in a small name -> tensor
// registry (an array of structs searched with strcmp, the way config-driven C code stores
// weights); every entry is registered on the same device and looked up by name. Clean.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

#define MAX_ENTRIES 8

typedef struct registry {
  struct {
    const char *name;
    dt_tensor *value;
  } entries[MAX_ENTRIES];
  int n;
} registry;

static void reg_put(registry *r, const char *name, dt_tensor *t) {
  if (r->n < MAX_ENTRIES) {
    r->entries[r->n].name = name;
    r->entries[r->n].value = t;
    r->n++;
  }
}

static dt_tensor *reg_get(const registry *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (strcmp(r->entries[i].name, name) == 0) return r->entries[i].value;
  return NULL;
}

int main(void) {
  dt_device dev = dt_sim(0);
  registry r = {0};
  reg_put(&r, "encoder.w", dt_randn(dev, 1, 2, (const int64_t[]){4, 3}));
  reg_put(&r, "encoder.b", dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){3}));
  reg_put(&r, "head.w", dt_randn(dev, 2, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(dev, 3, 2, (const int64_t[]){5, 4});
  dt_tensor *h0 = dt_matmul(x, reg_get(&r, "encoder.w"));
  dt_tensor *h1 = dt_add(h0, reg_get(&r, "encoder.b"));
  dt_tensor *y = dt_matmul(h1, reg_get(&r, "head.w"));
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(h1);
  dt_free(h0);
  dt_free(x);
  for (int i = 0; i < r.n; i++) dt_free(r.entries[i].value);
  return 0;
}
