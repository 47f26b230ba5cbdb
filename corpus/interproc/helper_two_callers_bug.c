// provenance: blind round field
// A scoring helper adds a host-side prior; fine for the cpu caller, wrong for the sim caller.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *score_with_prior(const dt_tensor *logits) {
  dt_tensor *prior = dt_full(dt_cpu(), 0.1f, 2, (const int64_t[]){2, 3});
  dt_tensor *s = dt_add(logits, prior); // expect-error: backend-mismatch
  dt_free(prior);
  return s;
}

static float total(dt_device dev) {
  dt_tensor *l = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *s = score_with_prior(l);
  dt_tensor *t = dt_sum(s);
  float v;
  dt_read_floats(t, &v, 1);
  dt_free(l); dt_free(s); dt_free(t);
  return v;
}

int main(void) {
  printf("cpu %.2f\n", total(dt_cpu()));
  printf("sim %.2f\n", total(dt_sim(0)));
  return 0;
}
