// provenance: blind round field
// Concatenating a learned prefix (tracked) with a plain constant padding block.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *prefix = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 4}));
  dt_tensor *pad = dt_zeros(dt_sim(0), DT_FLOAT, 2, (const int64_t[]){3, 4});
  dt_tensor *parts[2] = { prefix, pad };
  dt_tensor *seq = dt_cat(2, parts, 0); // expect-error: autodiff-expected
  printf("%p\n", (void *)seq);
  return 0;
}
