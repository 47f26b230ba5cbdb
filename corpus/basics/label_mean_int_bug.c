// provenance: blind round field2
// Class balance: the mean of integer labels (dt_mean needs float).
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_tensor *x; dt_tensor *y; } dataset;
static dataset load(dt_device d) {
  static const int64_t labels[6] = {0, 1, 1, 0, 1, 1};
  static const float feats[12] = {0};
  dataset ds = { dt_from_floats(d, feats, 2, (const int64_t[]){6, 2}),
                 dt_from_ints(d, labels, 1, (const int64_t[]){6}) };
  return ds;
}
int main(int argc, char **argv) {
  (void)argv;
  dataset ds = load(argc > 1 ? dt_sim(0) : dt_cpu());
  dt_tensor *bal = dt_mean(ds.y); // expect-error: kind-mismatch
  float v; dt_read_floats(bal, &v, 1);
  printf("%f\n", v);
  return 0;
}
