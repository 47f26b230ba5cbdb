// corpus/flow/reshape_transpose_chain_bug.c — shape-only operations (reshape, transpose,
// sum_dim, detach) keep their operand's tag: a chain of them applied to a host tensor still
// yields a host tensor, which then meets a sim:0 tensor. Bug: backend-mismatch at the end of
// the chain.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  static const float host_vals[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  dt_tensor *h = dt_from_floats(dt_cpu(), host_vals, 1, (const int64_t[]){12});
  dt_tensor *m = dt_reshape(h, 2, (const int64_t[]){3, 4});
  dt_tensor *t = dt_transpose(m);             /* [4, 3] */
  dt_tensor *s = dt_sum_dim(t, 1);            /* [4] */
  dt_tensor *d = dt_detach(s);
  dt_tensor *bias = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *out = dt_add(d, bias); // expect-error: backend-mismatch
  printf("%lld\n", (long long)dt_numel(out));
  return 0;
}
