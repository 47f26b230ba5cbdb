// provenance: blind round field
// A file-scope device set at start-up; one helper uses the literal host device instead.
#include <dt/dt.h>
#include <stdio.h>

static dt_device g_device;

static void setup(void) { g_device = dt_sim(1); }

static dt_tensor *make_weights(void) { return dt_randn(g_device, 5, 2, (const int64_t[]){3, 3}); }
static dt_tensor *make_inputs(void) { return dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 3}); }

int main(void) {
  setup();
  dt_tensor *w = make_weights();
  dt_tensor *x = make_inputs();
  dt_tensor *y = dt_matmul(x, w); // expect-error: backend-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
