// provenance: blind round field2
// Device picked by a function from a config struct, used consistently everywhere.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { int use_sim; int ordinal; } opts;
static dt_device pick(const opts *o) { return o->use_sim ? dt_sim(o->ordinal) : dt_cpu(); }
typedef struct { dt_tensor *w, *b; } linear;
static void linear_init(linear *l, dt_device d, int in, int out) {
  l->w = dt_randn(d, 7, 2, (const int64_t[]){in, out});
  l->b = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){out});
}
static dt_tensor *linear_fwd(const linear *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *y = dt_add(h, l->b);
  dt_free(h);
  return y;
}
int main(int argc, char **argv) {
  (void)argv;
  opts o = { argc > 1, argc > 2 ? 1 : 0 };
  dt_device d = pick(&o);
  linear l1, l2;
  linear_init(&l1, d, 4, 8);
  linear_init(&l2, pick(&o), 8, 2);
  dt_tensor *x = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){3, 4});
  dt_tensor *h = linear_fwd(&l1, x);
  dt_tensor *r = dt_relu(h);
  dt_tensor *y = linear_fwd(&l2, r);
  float out[6];
  dt_read_floats(y, out, 6);
  printf("%f\n", out[0]);
  return 0;
}
