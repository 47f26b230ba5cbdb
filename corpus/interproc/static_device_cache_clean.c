// provenance: blind round field3
// Cached device in statics, used by every tensor constructor (including a static cached
// ones-vector in another helper).
#include <dt/dt.h>
#include <stdio.h>
static dt_device current_device(void) {
  static int ready = 0;
  static dt_device dev;
  if (!ready) { dev = dt_autodiff(dt_sim(1)); ready = 1; }
  return dev;
}
static dt_tensor *add_one(const dt_tensor *x) {
  static dt_tensor *one;
  if (!one) one = dt_ones(current_device(), DT_FLOAT, 1, (const int64_t[]){4});
  return dt_add(x, one);
}
int main(void) {
  dt_tensor *w = dt_require_grad(dt_randn(current_device(), 1, 2, (const int64_t[]){4, 4}));
  dt_tensor *x = dt_randn(current_device(), 3, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < 3; i++) {
    dt_tensor *h = add_one(dt_matmul(x, w));
    dt_tensor *l = dt_mean(h);
    dt_backward(l);
    dt_free(h); dt_free(l);
  }
  dt_tensor *g = dt_grad(w);
  float v[16]; dt_read_floats(g, v, 16);
  printf("%f\n", v[0]);
  return 0;
}
