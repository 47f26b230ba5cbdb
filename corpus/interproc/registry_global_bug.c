// provenance: blind round field2
// Parameters kept in a global registry; a bias created on the host is added to a sim tensor.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { const char *name; dt_tensor *t; } entry;
static entry g_reg[16];
static int g_n;
static void reg(const char *name, dt_tensor *t) { g_reg[g_n].name = name; g_reg[g_n].t = t; g_n++; }
static dt_tensor *lookup(const char *name) {
  for (int i = 0; i < g_n; i++) if (strcmp(g_reg[i].name, name) == 0) return g_reg[i].t;
  return NULL;
}
typedef struct { dt_device dev; int hidden; } config;
static void build(const config *c) {
  int64_t s[2] = {4, c->hidden};
  reg("w1", dt_randn(c->dev, 1, 2, s));
  reg("b1", dt_zeros(c->dev, DT_FLOAT, 2, (const int64_t[]){1, c->hidden}));
}
int main(void) {
  config c = { dt_sim(0), 8 };
  build(&c);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *h = dt_matmul(x, lookup("w1")); // expect-error: backend-mismatch
  dt_tensor *y = dt_add(h, lookup("b1"));
  printf("%p\n", (void *)y);
  return 0;
}
