// provenance: blind round field
// Integer labels turned into a one-hot float target with dt_greater / dt_where (int compare).
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_autodiff(dt_cpu());
  const int64_t labels[4] = {0, 2, 1, 2};
  dt_tensor *lab = dt_from_ints(dev, labels, 2, (const int64_t[]){4, 1});
  dt_tensor *cls = dt_from_ints(dev, (const int64_t[]){0, 1, 2}, 2, (const int64_t[]){1, 3});
  /* one-hot: !(lab > cls) && !(cls > lab)  ==  where(lab>cls, 0, where(cls>lab, 0, 1)) */
  dt_tensor *gt = dt_greater(lab, cls), *lt = dt_greater(cls, lab);
  dt_tensor *one = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *zero = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *t1 = dt_where(lt, zero, one);
  dt_tensor *target = dt_where(gt, zero, t1);
  dt_tensor *w = dt_require_grad(dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){4, 3}));
  dt_tensor *logits = dt_add(w, one);
  dt_tensor *p = dt_sigmoid(logits);
  dt_tensor *loss = dt_mse_loss(p, target);
  dt_backward(loss);
  float tv[12];
  dt_tensor *ti = dt_inner(target);
  dt_read_floats(ti, tv, 12);
  printf("target row1: %.0f %.0f %.0f (expect 0 0 1)\n", tv[3], tv[4], tv[5]);
  int ok = tv[3] == 0 && tv[4] == 0 && tv[5] == 1 && tv[0] == 1;
  dt_tensor *g = dt_grad(w);
  dt_free(g); dt_free(ti); dt_free(lab); dt_free(cls); dt_free(gt); dt_free(lt); dt_free(one);
  dt_free(zero); dt_free(t1); dt_free(target); dt_free(w); dt_free(logits); dt_free(p); dt_free(loss);
  return ok ? 0 : 1;
}
