// corpus/devices/cuda_or_sim_clean.c — `dev = available(cuda) ? cuda:0 : sim:0`, the model and
// the data both follow dev, and the result is brought back to the host for printing. Clean on
// every machine: the analyzer must accept the run-time choice as long as it is used
// consistently.
#include <stdio.h>

#include <dt/dt.h>

typedef struct classifier {
  dt_tensor *w, *b;
} classifier;

static void classifier_init(classifier *c, dt_device dev) {
  c->w = dt_randn(dev, 1, 2, (const int64_t[]){6, 3});
  c->b = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){3});
}

static dt_tensor *classifier_logits(const classifier *c, const dt_tensor *x) {
  dt_tensor *t = dt_matmul(x, c->w);
  dt_tensor *y = dt_add(t, c->b);
  dt_free(t);
  return y;
}

int main(void) {
  dt_device dev = dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(0);
  classifier c;
  classifier_init(&c, dev);
  dt_tensor *x = dt_randn(dev, 5, 2, (const int64_t[]){4, 6});
  dt_tensor *logits = classifier_logits(&c, x);
  dt_tensor *probs = dt_sigmoid(logits);
  dt_tensor *host = dt_to_device(probs, dt_cpu());
  float p[12];
  dt_read_floats(host, p, 12);
  printf("p[0] = %f\n", (double)p[0]);
  dt_tensor *all[] = {host, probs, logits, x, c.w, c.b};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
