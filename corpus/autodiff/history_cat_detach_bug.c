// provenance: blind round field2
// Loss history kept in a realloc'd array of detached losses, concatenated with a host baseline.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { dt_tensor **items; int n, cap; } tlist;
static void tlist_push(tlist *l, dt_tensor *t) {
  if (l->n == l->cap) { l->cap = l->cap ? 2 * l->cap : 4; l->items = realloc(l->items, (size_t)l->cap * sizeof *l->items); }
  l->items[l->n++] = t;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 1, (const int64_t[]){3}));
  tlist hist = { NULL, 0, 0 };
  tlist_push(&hist, dt_zeros(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){1}));
  for (int s = 0; s < 3; s++) {
    dt_tensor *l = dt_sum(dt_mul(w, w));
    dt_backward(l);
    tlist_push(&hist, dt_reshape(dt_detach(l), 1, (const int64_t[]){1}));
  }
  dt_tensor *all = dt_cat(hist.n, hist.items, 0); // expect-error: autodiff-expected
  printf("%p\n", (void *)all);
  return 0;
}
