// Configuration structs copied with memcpy, cleared with memset, read from a file with fread:
// copies keep the device, clearing and reading make it unknown.
#include <stdio.h>
#include <string.h>
#include <dt/dt.h>
typedef struct cfg { dt_device dev; int batch; } cfg;
int main(void) {
  cfg a = {.dev = {DT_BACKEND_SIM, 1, 0}, .batch = 2};
  cfg b;
  memcpy(&b, &a, sizeof b);
  dt_tensor *x = dt_ones(b.dev, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *s = dt_add(x, y); // expect-error: device-mismatch
  cfg c;
  memset(&c, 0, sizeof c);
  c.dev = dt_sim(0);
  dt_tensor *z = dt_ones(c.dev, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *t = dt_add(z, y);
  FILE *f = fopen("cfg.bin", "rb");
  if (f && fread(&a, sizeof a, 1, f) == 1) {
    dt_tensor *u = dt_ones(a.dev, DT_FLOAT, 1, (const int64_t[]){2});
    dt_tensor *v = dt_add(u, y);
    dt_free(v);
  }
  if (f) fclose(f);
  dt_free(s);
  dt_free(t);
  return 0;
}
