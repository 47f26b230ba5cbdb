// corpus/devices/eval_on_host_clean.c — training on sim:1, then every parameter is copied to
// the host (through a list of parameter slots) and evaluation runs entirely on the host.
// Clean.
#include <stdio.h>

#include <dt/dt.h>

typedef struct net {
  dt_tensor *w, *b;
} net;

static dt_tensor *net_forward(const net *n, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, n->w);
  dt_tensor *y = dt_add(t, n->b);
  dt_free(t);
  return y;
}

static void net_to(net *n, dt_device dev) {
  dt_tensor **slots[2] = {&n->w, &n->b};
  for (int i = 0; i < 2; i++) {
    dt_tensor *moved = dt_to_device(*slots[i], dev);
    dt_free(*slots[i]);
    *slots[i] = moved;
  }
}

int main(void) {
  dt_device train_dev = dt_sim(1);
  net n = {dt_randn(train_dev, 1, 2, (const int64_t[]){3, 2}),
           dt_zeros(train_dev, DT_FLOAT, 1, (const int64_t[]){2})};
  dt_tensor *x = dt_randn(train_dev, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = net_forward(&n, x);
  dt_free(y);
  dt_free(x);

  net_to(&n, dt_cpu());
  dt_tensor *test = dt_randn(dt_cpu(), 3, 2, (const int64_t[]){5, 3});
  dt_tensor *pred = net_forward(&n, test);
  float v[10];
  dt_read_floats(pred, v, 10);
  printf("pred[0] %f\n", (double)v[0]);
  dt_free(pred);
  dt_free(test);
  dt_free(n.w);
  dt_free(n.b);
  return 0;
}
