// corpus/autodiff/inner_of_plain_bug.c — an export helper calls dt_inner on every parameter,
// but this model was built for inference on a plain device.
// Bug: dt_inner of a plain tensor (autodiff-expected), inside the helper.
#include <stdio.h>

#include <dt/dt.h>

static void export_param(const char *name, const dt_tensor *p) {
  dt_tensor *prim = dt_inner(p); // expect-error: autodiff-expected
  printf("%s: %lld values\n", name, (long long)dt_numel(prim));
  dt_free(prim);
}

int main(void) {
  dt_device infer = dt_sim(1);
  dt_tensor *w = dt_randn(infer, 1, 2, (const int64_t[]){4, 4});
  export_param("w", w);
  dt_free(w);
  return 0;
}
