// provenance: blind round field3
// Checkpoint as a table of named host tensors; restore looks each parameter up by name and
// wraps it into the autodiff<sim:1> model without moving it off the host.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { const char *name; dt_tensor *t; } entry;
typedef struct { entry e[4]; int n; } checkpoint;
static void ckpt_put(checkpoint *c, const char *name, const dt_tensor *tracked) {
  dt_tensor *plain = dt_inner(tracked);
  c->e[c->n].name = name;
  c->e[c->n].t = dt_to_device(plain, dt_cpu());
  c->n++;
  dt_free(plain);
}
static dt_tensor *ckpt_get(const checkpoint *c, const char *name) {
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->e[i].name, name) == 0) return c->e[i].t;
  return NULL;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 3}));
  dt_tensor *b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){3}));
  checkpoint c = {.n = 0};
  ckpt_put(&c, "w", w);
  ckpt_put(&c, "b", b);
  dt_tensor *saved = ckpt_get(&c, "w");
  if (saved) {
    dt_tensor *w2 = dt_from_inner(ad, saved); // expect-error: autodiff-inner-backend
    printf("%p\n", (void *)w2);
  }
  return 0;
}
