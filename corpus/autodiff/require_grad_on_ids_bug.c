// corpus/autodiff/require_grad_on_ids_bug.c — a parameter-registration loop marks every tensor
// of the model trainable, including the int vocabulary-id table.
// Bug: dt_require_grad of an int tensor (kind-mismatch), inside the loop.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  static const int64_t ids[4] = {3, 1, 4, 1};
  dt_tensor *params[3];
  params[0] = dt_randn(ad, 1, 2, (const int64_t[]){4, 4});
  params[1] = dt_from_ints(ad, ids, 1, (const int64_t[]){4});
  params[2] = dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){4});
  dt_require_grad(params[0]);
  dt_require_grad(params[1]); // expect-error: kind-mismatch
  dt_require_grad(params[2]);
  printf("registered\n");
  for (int i = 0; i < 3; i++) dt_free(params[i]);
  return 0;
}
