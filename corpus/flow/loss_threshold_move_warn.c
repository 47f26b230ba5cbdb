// provenance: blind round field5
// Data-dependent: when the read-back loss is large, the batch is moved to the host for a
// debug dump, and the next update mixes it with sim:0 weights. Warning (depends on data);
// with these values the loss is small and the run is clean.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *w = dt_full(d, 0.1f, 2, (const int64_t[]){2, 1});
  dt_tensor *x = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){4, 2});
  dt_tensor *t = dt_full(d, 0.2f, 2, (const int64_t[]){4, 1});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *l = dt_mse_loss(p, t);
  float lv = 0;
  dt_read_floats(l, &lv, 1);
  if (lv > 10.0f) {
    dt_tensor *hx = dt_to_device(x, dt_cpu());
    dt_free(x);
    x = hx;
    fprintf(stderr, "large loss %.3f, batch dumped\n", (double)lv);
  }
  dt_tensor *p2 = dt_matmul(x, w); // expect-warning: backend-mismatch
  dt_free(p2); dt_free(l); dt_free(p); dt_free(t); dt_free(x); dt_free(w);
  puts("ok");
  return 0;
}
