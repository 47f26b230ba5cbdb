// Handles reached through pointers: swapping buffers through a pointer to the handle.
#include <dt/dt.h>
static void swap(dt_tensor **a, dt_tensor **b) {
  dt_tensor *t = *a;
  *a = *b;
  *b = t;
}
int main(void) {
  dt_tensor *p = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *q = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor **pp = &p;
  dt_tensor *h = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  swap(pp, &q);
  dt_tensor *r = dt_add(p, h);
  dt_tensor *s = dt_add(*pp, h);
  dt_tensor *t = dt_add(q, h); // expect-error: backend-mismatch
  dt_free(r);
  dt_free(s);
  dt_free(t);
  return 0;
}
