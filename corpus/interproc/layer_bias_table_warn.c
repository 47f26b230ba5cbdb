// provenance: blind round field3
// Array of layer structs; the last layer's bias was kept on the host for logging. The forward
// loop fails only at the last iteration: a warning.
#include <dt/dt.h>
#include <stdio.h>
#define NL 3
typedef struct { dt_tensor *w, *b; } layer;
int main(void) {
  dt_device d = dt_sim(1);
  layer L[NL];
  for (int i = 0; i < NL; i++) {
    L[i].w = dt_randn(d, (uint64_t)i, 2, (const int64_t[]){4, 4});
    L[i].b = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4});
  }
  dt_free(L[NL - 1].b);
  L[NL - 1].b = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *h = dt_randn(d, 7, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < NL; i++) {
    dt_tensor *z = dt_matmul(h, L[i].w);
    dt_tensor *a = dt_add(z, L[i].b); // expect-warning: backend-mismatch
    dt_free(h); dt_free(z);
    h = dt_relu(a);
    dt_free(a);
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
