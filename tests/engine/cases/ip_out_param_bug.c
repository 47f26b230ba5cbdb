// Tensors created through out-parameters and a struct returned by value.
#include <dt/dt.h>
typedef struct pair { dt_tensor *a, *b; } pair;
static int make(dt_tensor **out, dt_device dev, int n) {
  *out = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){n});
  return *out != NULL;
}
static pair make_pair(dt_device da, dt_device db) {
  pair p;
  make(&p.a, da, 3);
  make(&p.b, db, 3);
  return p;
}
int main(void) {
  dt_tensor *t = NULL;
  if (!make(&t, dt_sim(1), 3)) return 1;
  pair p = make_pair(dt_sim(1), dt_cpu());
  dt_tensor *s = dt_add(t, p.a);
  dt_tensor *u = dt_add(t, p.b); // expect-error: backend-mismatch
  dt_free(s);
  dt_free(u);
  return 0;
}
