// corpus/basics/precedence_autodiff_first_bug.c — SPEC §4 precedence: an autodiff tensor on
// autodiff<cpu> meets a plain tensor on sim:0. Backends differ too, but autodiff-ness is
// decided first. Bug: adding a plain positional table to tracked embeddings (autodiff-expected).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device train_dev = dt_autodiff(dt_cpu());
  dt_device table_dev = dt_sim(0);
  const int64_t shape[2] = {8, 4};

  dt_tensor *embed = dt_require_grad(dt_randn(train_dev, 11, 2, shape));
  dt_tensor *positions = dt_randn(table_dev, 12, 2, shape);

  dt_tensor *h = dt_add(embed, positions); // expect-error: autodiff-expected
  dt_tensor *loss = dt_mean(h);
  dt_backward(loss);

  dt_free(loss);
  dt_free(h);
  dt_free(positions);
  dt_free(embed);
  return 0;
}
