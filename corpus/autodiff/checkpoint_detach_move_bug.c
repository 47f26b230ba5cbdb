// provenance: blind round field2
// Checkpoint: weights detached and moved to the host — detach stays autodiff.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_tensor *w[3]; int n; } net;
static dt_tensor *to_host_copy(const dt_tensor *w) {
  dt_tensor *d = dt_detach(w);
  dt_tensor *h = dt_to_device(d, dt_cpu()); // expect-error: autodiff-expected
  dt_free(d);
  return h;
}
static int save(const net *n, float *buf) {
  for (int i = 0; i < n->n; i++) {
    dt_tensor *h = to_host_copy(n->w[i]);
    if (dt_read_floats(h, buf + 4 * i, 4)) return -1;
    dt_free(h);
  }
  return 0;
}
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  net n = { {NULL}, 3 };
  for (int i = 0; i < n.n; i++) n.w[i] = dt_require_grad(dt_randn(ad, (uint64_t)i, 2, (const int64_t[]){2, 2}));
  float buf[12];
  save(&n, buf);
  printf("%f\n", buf[0]);
  return 0;
}
