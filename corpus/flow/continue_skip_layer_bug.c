// provenance: blind round field5
// Same layout, but the skip test is off by one: the frozen host layer 0 is used and
// layer L-1 skipped. The first iteration already mixes sim:1 activations with cpu weights.
#include <dt/dt.h>
#include <stdio.h>

#define L 4
int main(void) {
  dt_tensor *w[L][2];
  for (int l = 0; l < L; l++) {
    dt_device d = l == 0 ? dt_cpu() : dt_sim(1);
    w[l][0] = dt_randn(d, (uint64_t)l, 2, (const int64_t[]){4, 4});
    w[l][1] = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4});
  }
  dt_tensor *h = dt_ones(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){2, 4});
  for (int l = 0; l < L; l++) {
    if (l == L - 1) continue;
    dt_tensor *mm = dt_matmul(h, w[l][0]); // expect-error: backend-mismatch
    dt_tensor *nh = dt_add(mm, w[l][1]);
    dt_free(mm); dt_free(h);
    h = nh;
  }
  dt_free(h);
  for (int l = 0; l < L; l++) { dt_free(w[l][0]); dt_free(w[l][1]); }
  puts("ok");
  return 0;
}
