// Devices from input. Unknown values never produce findings (the ordinal from atoi, an
// element of a device table picked by input); a device parsed by a user function is one of
// its branches, and two independent parses may disagree (cpu and cuda): a warning.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dt/dt.h>
static dt_device parse_device(const char *s) {
  if (strncmp(s, "sim:", 4) == 0) return dt_sim(atoi(s + 4));
  if (strcmp(s, "cuda") == 0) return dt_cuda(0);
  return dt_cpu();
}
int main(int argc, char **argv) {
  dt_device a = parse_device(argc > 1 ? argv[1] : "cpu");
  dt_device b = parse_device(argc > 2 ? argv[2] : "cpu");
  dt_tensor *x = dt_ones(a, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = dt_ones(b, DT_FLOAT, 1, (const int64_t[]){2});
  int n = 0;
  if (scanf("%d", &n) != 1) n = 0;
  dt_device table[2];
  table[0] = dt_sim(0);
  table[1] = dt_sim(1);
  dt_tensor *z = dt_ones(table[n & 1], DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *s = dt_add(x, y); // expect-warning: backend-mismatch
  dt_tensor *t = dt_add(z, dt_ones(table[n & 1], DT_FLOAT, 1, (const int64_t[]){2}));
  dt_free(s);
  dt_free(t);
  return 0;
}
