// provenance: blind round field2
// A device descriptor is returned in a struct; fields .backend/.ordinal guard a move to it.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; const char *label; } placement;
static placement place(int want_accel, int ordinal) {
  placement p;
  p.dev = want_accel ? dt_sim(ordinal) : dt_cpu();
  p.label = want_accel ? "accel" : "host";
  return p;
}
static dt_tensor *to_placement(dt_tensor *t, placement p) {
  dt_device cur = dt_device_of(t);
  if (cur.backend == p.dev.backend && cur.ordinal == p.dev.ordinal) return t;
  dt_tensor *m = dt_to_device(t, p.dev);
  dt_free(t);
  return m;
}
int main(int argc, char **argv) {
  (void)argv;
  placement p = place(argc > 1, argc > 2);
  dt_tensor *a = to_placement(dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){3}), p);
  dt_tensor *b = to_placement(dt_full(dt_sim(1), 2.0f, 1, (const int64_t[]){3}), p);
  dt_tensor *c = dt_add(a, b);
  float v[3]; dt_read_floats(c, v, 3);
  printf("%s %f\n", p.label, v[0]);
  return 0;
}
