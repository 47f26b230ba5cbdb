// provenance: blind round field4
// Sets DT_ERRORS_RETURN and tries cuda first, falling back to sim when the allocation returns
// NULL. With cuda unavailable (configured) the first allocation fails, then the sim path runs.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
// run-errors: return
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *alloc_weights(dt_device d) {
  return dt_randn(d, 1, 2, (const int64_t[]){2, 2}); // expect-error: backend-unavailable
}

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  dt_device order[2] = { dt_cuda(0), dt_sim(0) };
  dt_tensor *w = NULL;
  int used = -1;
  for (int i = 0; i < 2 && !w; i++) {
    w = alloc_weights(order[i]);
    if (!w) fprintf(stderr, "%s\n", dt_last_error());
    else used = i;
  }
  if (!w) return 1;
  dt_tensor *x = dt_ones(dt_device_of(w), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y = dt_matmul(x, w);
  printf("used %d numel %lld\n", used, (long long)dt_numel(y));
  return 0;
}
