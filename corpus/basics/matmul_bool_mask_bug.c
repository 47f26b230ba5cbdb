// corpus/basics/matmul_bool_mask_bug.c — attention masking: the padding mask (bool, from
// dt_greater) is multiplied into the score matrix with a matrix product.
// Bug: dt_matmul on a bool operand (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

#define SEQ 4

int main(void) {
  dt_device dev = dt_sim(0);
  const int64_t sq[2] = {SEQ, SEQ};
  dt_tensor *q = dt_randn(dev, 1, 2, sq);
  dt_tensor *k = dt_randn(dev, 2, 2, sq);
  dt_tensor *kt = dt_transpose(k);
  dt_tensor *scores = dt_matmul(q, kt);

  static const float lengths[SEQ * SEQ] = {1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0};
  dt_tensor *valid = dt_from_floats(dev, lengths, 2, sq);
  dt_tensor *half = dt_full(dev, 0.5f, 2, sq);
  dt_tensor *mask = dt_greater(valid, half);

  dt_tensor *masked = dt_matmul(mask, scores); // expect-error: kind-mismatch
  printf("masked scores: %lld elements\n", (long long)dt_numel(masked));

  dt_free(masked);
  dt_free(mask);
  dt_free(half);
  dt_free(valid);
  dt_free(scores);
  dt_free(kt);
  dt_free(k);
  dt_free(q);
  return 0;
}
