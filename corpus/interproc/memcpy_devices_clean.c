// provenance: blind round field5
// memcpy'd placement whose aux device is retargeted to the copy's own main device; a trap
// for analyzers that let the original struct's cpu aux leak into the copy.
#include <dt/dt.h>
#include <string.h>
#include <stdio.h>

struct placement { dt_device main; dt_device aux; int nthreads; };

int main(void) {
  struct placement a = { .main = dt_sim(0), .aux = dt_cpu(), .nthreads = 4 };
  struct placement b;
  memcpy(&b, &a, sizeof b);
  b.aux = b.main;
  dt_tensor *w = dt_randn(a.main, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_ones(b.aux, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *log = dt_ones(a.aux, DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *hy = dt_to_device(y, a.aux);
  dt_tensor *s = dt_sum(hy);
  dt_tensor *t = dt_add(s, log);
  float v = 0;
  dt_read_floats(t, &v, 1);
  printf("%.3f\n", (double)v);
  dt_free(t); dt_free(s); dt_free(hy); dt_free(log); dt_free(y); dt_free(x); dt_free(w);
  return 0;
}
