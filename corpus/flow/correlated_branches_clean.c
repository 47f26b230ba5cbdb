// provenance: blind round field
// The same flag decides both operands' device in two separate branches: never mismatched.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int use_sim = argc > 1 && strcmp(argv[1], "--sim") == 0;
  dt_tensor *features;
  if (use_sim)
    features = dt_ones(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){4, 3});
  else
    features = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 3});
  printf("loaded features\n");
  dt_tensor *proj;
  if (use_sim)
    proj = dt_full(dt_sim(0), 2.0f, 2, (const int64_t[]){3, 2});
  else
    proj = dt_full(dt_cpu(), 2.0f, 2, (const int64_t[]){3, 2});
  dt_tensor *out = dt_matmul(features, proj);
  dt_tensor *s = dt_sum(out);
  float v;
  dt_read_floats(s, &v, 1);
  printf("sum %.1f (expect 48)\n", v);
  dt_free(features); dt_free(proj); dt_free(out); dt_free(s);
  return v == 48.0f ? 0 : 1;
}
