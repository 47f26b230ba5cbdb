// provenance: blind round field
// Token ids (int) mistakenly marked as trainable parameters.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  const int64_t ids[6] = {4, 8, 15, 16, 23, 42};
  dt_tensor *tok = dt_from_ints(ad, ids, 2, (const int64_t[]){2, 3});
  dt_tensor *emb = dt_require_grad(tok); // expect-error: kind-mismatch
  printf("%p\n", (void *)emb);
  return 0;
}
