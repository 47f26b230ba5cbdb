// provenance: blind round field
// Each branch builds and consumes its own tensors on its own device; nothing crosses branches.
#include <dt/dt.h>
#include <stdio.h>

static float score(int mode) {
  float v = 0;
  if (mode == 0) {
    dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *s = dt_sum(a);
    dt_read_floats(s, &v, 1);
    dt_free(a); dt_free(s);
  } else if (mode == 1) {
    dt_tensor *a = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *b = dt_full(dt_sim(1), 2.0f, 1, (const int64_t[]){4});
    dt_tensor *m = dt_mul(a, b);
    dt_tensor *s = dt_sum(m);
    dt_read_floats(s, &v, 1);
    dt_free(a); dt_free(b); dt_free(m); dt_free(s);
  } else {
    dt_device ad = dt_autodiff(dt_sim(0));
    dt_tensor *a = dt_require_grad(dt_ones(ad, DT_FLOAT, 1, (const int64_t[]){4}));
    dt_tensor *s = dt_sum(a);
    dt_backward(s);
    dt_tensor *g = dt_grad(a);
    dt_tensor *gs = dt_sum(g);
    dt_read_floats(gs, &v, 1);
    dt_free(a); dt_free(s); dt_free(g); dt_free(gs);
  }
  return v;
}

int main(int argc, char **argv) {
  (void)argv;
  float a = score(0), b = score(1), c = score(argc % 3);
  printf("%.1f %.1f %.1f\n", a, b, c);
  return a == 4 && b == 8 ? 0 : 1;
}
