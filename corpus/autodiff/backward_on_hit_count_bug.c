// corpus/autodiff/backward_on_hit_count_bug.c — "optimize the accuracy directly": the number of
// correct predictions (an int tensor on the autodiff device) is handed to dt_backward.
// Bug: dt_backward of an int tensor (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  static const int64_t correct_host[6] = {1, 0, 1, 1, 0, 1};
  dt_tensor *correct = dt_from_ints(ad, correct_host, 1, (const int64_t[]){6});
  dt_tensor *hits = dt_sum(correct);
  dt_backward(hits); // expect-error: kind-mismatch
  dt_free(hits);
  dt_free(correct);
  return 0;
}
