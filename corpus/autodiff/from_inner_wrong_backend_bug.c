// corpus/autodiff/from_inner_wrong_backend_bug.c — fine-tuning from pretrained weights: the
// pretrained tensor was loaded on sim:0, but the training device wraps cpu.
// Bug: dt_from_inner(autodiff<cpu>, <sim:0 tensor>) (autodiff-inner-backend).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *load_pretrained(void) {
  static const float w[4] = {0.5f, -0.5f, 0.25f, 1.0f};
  return dt_from_floats(dt_sim(0), w, 2, (const int64_t[]){2, 2});
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *pre = load_pretrained();
  dt_tensor *w = dt_from_inner(ad, pre); // expect-error: autodiff-inner-backend
  dt_require_grad(w);
  printf("fine-tuning %lld weights\n", (long long)dt_numel(w));
  dt_free(w);
  dt_free(pre);
  return 0;
}
