// Each autodiff rule once, plus the correct way to do the same things.
#include <dt/dt.h>
int main(void) {
  dt_device cpu = dt_cpu();
  dt_device ad = dt_autodiff(cpu);
  dt_device ad2 = dt_autodiff(ad); // expect-error: autodiff-nested
  dt_tensor *plain = dt_randn(cpu, 1, 1, (const int64_t[]){3});
  dt_tensor *w = dt_require_grad(dt_from_inner(ad, plain));
  dt_tensor *bad1 = dt_from_inner(ad, w); // expect-error: autodiff-nested
  dt_tensor *bad2 = dt_from_inner(cpu, plain); // expect-error: autodiff-expected
  dt_tensor *simt = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *bad3 = dt_from_inner(ad, simt); // expect-error: autodiff-inner-backend
  dt_tensor *bad4 = dt_inner(plain); // expect-error: autodiff-expected
  dt_tensor *bad5 = dt_to_device(plain, ad); // expect-error: autodiff-expected
  dt_tensor *loss = dt_mean(w);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  dt_tensor *bad6 = dt_sub(w, g); // expect-error: autodiff-expected
  dt_tensor *gw = dt_from_inner(ad, g);
  dt_tensor *ok1 = dt_sub(w, gw);
  dt_tensor *ok2 = dt_sub(dt_inner(w), g);
  dt_tensor *adsim = dt_from_inner(dt_autodiff(dt_sim(0)), simt);
  dt_tensor *bad7 = dt_add(w, adsim); // expect-error: autodiff-inner-backend
  dt_backward(plain); // expect-error: autodiff-expected
  dt_tensor *moved = dt_to_device(w, dt_autodiff(dt_sim(1)));
  dt_tensor *ok3 = dt_mul(moved, dt_to_device(adsim, dt_autodiff(dt_sim(1))));
  (void)ad2; (void)bad1; (void)bad2; (void)bad3; (void)bad4; (void)bad5; (void)bad6;
  (void)ok1; (void)ok2; (void)bad7; (void)ok3;
  return 0;
}
