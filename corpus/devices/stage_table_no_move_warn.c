// provenance: blind round field3
// Per-layer devices, but the forward loop forgot the transfer at the stage boundary: the first
// layers pass, the third iteration fails (a later loop iteration: a warning).
#include <dt/dt.h>
#include <stdio.h>
#define NL 4
typedef struct { dt_device dev[NL]; dt_tensor *w[NL]; } mlp;
int main(void) {
  mlp m;
  for (int i = 0; i < NL; i++) {
    m.dev[i] = dt_sim(i < NL / 2 ? 0 : 1);
    m.w[i] = dt_randn(m.dev[i], (uint64_t)i, 2, (const int64_t[]){4, 4});
  }
  dt_tensor *h = dt_randn(m.dev[0], 5, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < NL; i++) {
    dt_tensor *z = dt_matmul(h, m.w[i]); // expect-warning: device-mismatch
    dt_free(h);
    h = dt_relu(z);
    dt_free(z);
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
