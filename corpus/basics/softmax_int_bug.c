// corpus/basics/softmax_int_bug.c — a vote-counting ensemble turns integer vote counts into
// probabilities with a softmax, forgetting that the counts are an int tensor.
// Bug: dt_exp of an int tensor (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *softmax_1d(const dt_tensor *x) {
  dt_tensor *e = dt_exp(x); // expect-error: kind-mismatch
  dt_tensor *z = dt_sum(e);
  dt_tensor *inv = dt_div(e, z);
  dt_free(z);
  dt_free(e);
  return inv;
}

int main(void) {
  dt_device dev = dt_cpu();
  static const int64_t votes[5] = {3, 0, 1, 7, 2};
  dt_tensor *counts = dt_from_ints(dev, votes, 1, (const int64_t[]){5});
  dt_tensor *p = softmax_1d(counts);
  float probs[5];
  dt_read_floats(p, probs, 5);
  printf("p[3] = %f\n", (double)probs[3]);
  dt_free(p);
  dt_free(counts);
  return 0;
}
