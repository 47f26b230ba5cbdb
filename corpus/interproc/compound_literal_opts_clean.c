// provenance: blind round field5
// Devices given as compound literals ((dt_device){...}) to helpers and in an options
// literal; every tensor ends up on sim:1, even though spelled three different ways.
#include <dt/dt.h>
#include <stdio.h>

struct opts { dt_device dev; int steps; };

static dt_tensor *make(dt_device d, float v) {
  return dt_full(d, v, 2, (const int64_t[]){2, 2});
}

static float run(const struct opts *o) {
  dt_tensor *a = make((dt_device){ .backend = DT_BACKEND_SIM, .ordinal = 1 }, 1.0f);
  dt_tensor *b = make(o->dev, 2.0f);
  dt_tensor *c = make(dt_inner_device(dt_autodiff(dt_sim(1))), 3.0f);
  dt_tensor *acc = dt_add(a, b);
  for (int i = 0; i < o->steps; i++) {
    dt_tensor *n = dt_add(acc, c);
    dt_free(acc);
    acc = n;
  }
  dt_tensor *s = dt_sum(acc);
  dt_tensor *h = dt_to_device(s, dt_cpu());
  float v = 0;
  dt_read_floats(h, &v, 1);
  dt_free(h); dt_free(s); dt_free(acc); dt_free(a); dt_free(b); dt_free(c);
  return v;
}

int main(void) {
  printf("%.1f\n", (double)run(&(struct opts){ .dev = dt_sim(1), .steps = 3 }));
  return 0;
}
