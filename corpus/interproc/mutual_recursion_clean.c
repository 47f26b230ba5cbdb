// corpus/interproc/mutual_recursion_clean.c — a tiny expression evaluator over tensors with
// two mutually recursive functions (eval_sum / eval_prod) walking a static expression tree.
// Clean: the analysis of mutually recursive helpers terminates and keeps sim:0.
#include <stdio.h>

#include <dt/dt.h>

typedef struct node {
  int op; /* 0 leaf, 1 sum of children, 2 product of children */
  int a, b;
  float value;
} node;

static const node k_tree[] = {
    {1, 1, 2, 0}, {2, 3, 4, 0}, {0, 0, 0, 3.0f}, {0, 0, 0, 2.0f}, {1, 5, 6, 0},
    {0, 0, 0, 1.5f}, {0, 0, 0, 0.5f},
};

static dt_tensor *eval_prod(int i, dt_device dev);

static dt_tensor *eval_sum(int i, dt_device dev) {
  const node *n = &k_tree[i];
  if (n->op == 0) return dt_full(dev, n->value, 1, (const int64_t[]){2});
  if (n->op == 2) return eval_prod(i, dev);
  dt_tensor *l = eval_sum(n->a, dev);
  dt_tensor *r = eval_sum(n->b, dev);
  dt_tensor *s = dt_add(l, r);
  dt_free(l);
  dt_free(r);
  return s;
}

static dt_tensor *eval_prod(int i, dt_device dev) {
  const node *n = &k_tree[i];
  if (n->op != 2) return eval_sum(i, dev);
  dt_tensor *l = eval_sum(n->a, dev);
  dt_tensor *r = eval_sum(n->b, dev);
  dt_tensor *p = dt_mul(l, r);
  dt_free(l);
  dt_free(r);
  return p;
}

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *v = eval_sum(0, dev);
  dt_tensor *bias = dt_ones(dev, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *out = dt_add(v, bias);
  float r[2];
  dt_read_floats(out, r, 2);
  printf("value %f (expected 7)\n", (double)r[0]);
  dt_free(out);
  dt_free(bias);
  dt_free(v);
  return 0;
}
