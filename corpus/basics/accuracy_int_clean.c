// provenance: blind round field4
// Accuracy with int tensors: argmax over two logits via dt_greater, labels as ints, the count
// summed as int and divided on the host. Bool masks everywhere; nothing is mixed.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; int n; } evalctx;

static dt_tensor *argmax2(const dt_tensor *l0, const dt_tensor *l1, dt_device dev, int n) {
  dt_tensor *gt = dt_greater(l1, l0);
  dt_tensor *one = dt_ones(dev, DT_INT, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *zero = dt_zeros(dev, DT_INT, 1, (const int64_t[]){(int64_t)n});
  dt_tensor *r = dt_where(gt, one, zero);
  dt_free(gt); dt_free(one); dt_free(zero);
  return r;
}

static double accuracy(const evalctx *c, const dt_tensor *pred, const int64_t *labels) {
  dt_tensor *lab = dt_from_ints(c->dev, labels, 1, (const int64_t[]){(int64_t)c->n});
  dt_tensor *d = dt_sub(pred, lab);
  dt_tensor *wrong = dt_mul(d, d);
  dt_tensor *cnt = dt_sum(wrong);
  int64_t w = 0;
  dt_read_ints(cnt, &w, 1);
  dt_free(lab); dt_free(d); dt_free(wrong); dt_free(cnt);
  return 1.0 - (double)w / c->n;
}

int main(void) {
  evalctx c = { dt_sim(1), 6 };
  const float a[6] = {0.1f, 0.9f, 0.3f, 0.8f, 0.5f, 0.2f};
  const float b[6] = {0.7f, 0.2f, 0.6f, 0.1f, 0.4f, 0.9f};
  const int64_t labels[6] = {1, 0, 1, 0, 1, 1};
  dt_tensor *l0 = dt_from_floats(c.dev, a, 1, (const int64_t[]){6});
  dt_tensor *l1 = dt_from_floats(c.dev, b, 1, (const int64_t[]){6});
  dt_tensor *pred = argmax2(l0, l1, c.dev, c.n);
  printf("acc %.3f\n", accuracy(&c, pred, labels));
  int64_t host[6];
  dt_read_ints(pred, host, 6);
  return 0;
}
