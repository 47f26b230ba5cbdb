// corpus/devices/eval_on_host_partial_bug.c — the evaluation copy moves the weight matrix to
// the host but forgets the bias (a parameter added later, not added to the move list).
// Bug: backend-mismatch at the bias add in net_forward, for the evaluation context.
#include <stdio.h>

#include <dt/dt.h>

typedef struct net {
  dt_tensor *w, *b;
} net;

static dt_tensor *net_forward(const net *n, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, n->w);
  dt_tensor *y = dt_add(t, n->b); // expect-error: backend-mismatch
  dt_free(t);
  return y;
}

int main(void) {
  dt_device train_dev = dt_sim(0);
  net n = {dt_randn(train_dev, 1, 2, (const int64_t[]){3, 2}),
           dt_zeros(train_dev, DT_FLOAT, 1, (const int64_t[]){2})};
  dt_tensor *x = dt_randn(train_dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = net_forward(&n, x);
  dt_free(y);
  dt_free(x);

  dt_tensor *w_host = dt_to_device(n.w, dt_cpu());
  dt_free(n.w);
  n.w = w_host;
  dt_tensor *test = dt_randn(dt_cpu(), 3, 2, (const int64_t[]){5, 3});
  dt_tensor *pred = net_forward(&n, test);
  printf("pred %lld\n", (long long)dt_numel(pred));
  return 0;
}
