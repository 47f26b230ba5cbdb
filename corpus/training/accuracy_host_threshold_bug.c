// corpus/training/accuracy_host_threshold_bug.c — accuracy computed against a threshold tensor
// built on the host while the predictions stay on sim:1 (the evaluation loop never brings them
// back). Bug: backend-mismatch at dt_greater, inside the metric helper, for its only context.
#include <stdio.h>

#include <dt/dt.h>

static int count_positive(const dt_tensor *probs, float threshold) {
  dt_tensor *t = dt_full(dt_cpu(), threshold, 2, (const int64_t[]){dt_dim(probs, 0), 1});
  dt_tensor *pos = dt_greater(probs, t); // expect-error: backend-mismatch
  dt_tensor *one = dt_ones(dt_cpu(), DT_INT, 2, (const int64_t[]){dt_dim(probs, 0), 1});
  dt_tensor *zero = dt_zeros(dt_cpu(), DT_INT, 2, (const int64_t[]){dt_dim(probs, 0), 1});
  dt_tensor *as_int = dt_where(pos, one, zero);
  dt_tensor *n = dt_sum(as_int);
  int64_t count = 0;
  dt_read_ints(n, &count, 1);
  return (int)count;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 1});
  int positives = 0;
  for (int b = 0; b < 2; b++) {
    dt_tensor *x = dt_randn(dev, 10 + (uint64_t)b, 2, (const int64_t[]){5, 3});
    dt_tensor *z = dt_matmul(x, w);
    dt_tensor *p = dt_sigmoid(z);
    positives += count_positive(p, 0.5f);
    dt_free(p);
    dt_free(z);
    dt_free(x);
  }
  printf("positives: %d\n", positives);
  dt_free(w);
  return 0;
}
