// provenance: blind round field
// One normalisation helper called on cpu, sim:0, sim:1 and autodiff<sim:0> inputs alike.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *layer_norm_like(const dt_tensor *x) {
  dt_tensor *m = dt_mean(x);
  dt_tensor *c = dt_sub(x, m);
  dt_tensor *sq = dt_mul(c, c);
  dt_tensor *v = dt_mean(sq);
  dt_tensor *ve = dt_add_scalar(v, 1e-5f);
  dt_tensor *lv = dt_log(ve);
  dt_tensor *is = dt_exp(dt_mul_scalar(lv, -0.5f));
  dt_tensor *y = dt_mul(c, is);
  dt_free(m); dt_free(c); dt_free(sq); dt_free(v); dt_free(ve); dt_free(lv); dt_free(is);
  return y;
}

static float check(dt_device dev) {
  dt_tensor *x = dt_from_floats(dev, (const float[]){1, 2, 3, 4}, 1, (const int64_t[]){4});
  dt_tensor *y = layer_norm_like(x);
  dt_tensor *s = dt_mul(y, y);
  dt_tensor *t = dt_sum(s);
  float v;
  if (dt_device_equal(dev, dt_inner_device(dev))) {
    dt_read_floats(t, &v, 1);
  } else {
    dt_tensor *ti = dt_inner(t);
    dt_read_floats(ti, &v, 1);
    dt_free(ti);
  }
  dt_free(x); dt_free(y); dt_free(s); dt_free(t);
  return v;
}

int main(void) {
  float a = check(dt_cpu()), b = check(dt_sim(0)), c = check(dt_sim(1)), d = check(dt_autodiff(dt_sim(0)));
  printf("%.4f %.4f %.4f %.4f (expect ~4 each)\n", a, b, c, d);
  return (a > 3.99f && a < 4.01f && d > 3.99f && d < 4.01f) ? 0 : 1;
}
