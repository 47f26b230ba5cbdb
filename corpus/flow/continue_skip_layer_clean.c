// provenance: blind round field5
// Fine-tuning skips the frozen embedding layer (index 0, kept on the host) with `continue`;
// all other layers live on sim:1, with the activations.
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
    if (l == 0) continue;
    dt_tensor *mm = dt_matmul(h, w[l][0]);
    dt_tensor *nh = dt_add(mm, w[l][1]);
    dt_free(mm); dt_free(h);
    h = nh;
  }
  dt_tensor *s = dt_sum(h);
  dt_tensor *hs = dt_to_device(s, dt_cpu());
  float v;
  dt_read_floats(hs, &v, 1);
  printf("%.3f\n", (double)v);
  dt_free(hs); dt_free(s); dt_free(h);
  for (int l = 0; l < L; l++) { dt_free(w[l][0]); dt_free(w[l][1]); }
  return 0;
}
