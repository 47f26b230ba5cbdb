// provenance: blind round field2
// A combine helper refuses (returns NULL) when backends differ; one caller passes a mismatch.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *combine(const dt_tensor *a, const dt_tensor *b) {
  dt_device da = dt_device_of(a), db = dt_device_of(b);
  if (da.backend != db.backend || da.ordinal != db.ordinal || da.autodiff != db.autodiff) return NULL;
  return dt_add(a, b);
}
int main(void) {
  dt_tensor *a = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *c = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *ok = combine(a, b);
  dt_tensor *no = combine(a, c);
  printf("%d %d\n", ok != NULL, no != NULL);
  return 0;
}
