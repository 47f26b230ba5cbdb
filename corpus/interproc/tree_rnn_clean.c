// provenance: blind round field3
// Recursive tree model with every parameter on one device chosen at run time; leaves are
// copied onto the model device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct node { int word; struct node *l, *r; } node;
typedef struct { dt_device dev; dt_tensor *emb[4]; dt_tensor *w; } treenet;
static dt_tensor *encode(const treenet *m, const node *n) {
  if (!n->l) return dt_to_device(m->emb[n->word], m->dev);
  dt_tensor *a = encode(m, n->l);
  dt_tensor *b = encode(m, n->r);
  dt_tensor *s = dt_add(a, b);
  dt_tensor *h = dt_matmul(s, m->w);
  dt_tensor *o = dt_tanh(h);
  dt_free(a); dt_free(b); dt_free(s); dt_free(h);
  return o;
}
int main(int argc, char **argv) {
  (void)argv;
  treenet m;
  m.dev = argc > 2 ? dt_autodiff(dt_sim(1)) : argc > 1 ? dt_sim(1) : dt_cpu();
  for (int i = 0; i < 4; i++) m.emb[i] = dt_randn(m.dev, (uint64_t)i, 2, (const int64_t[]){1, 3});
  m.w = dt_randn(m.dev, 9, 2, (const int64_t[]){3, 3});
  node leaves[3] = {{0, NULL, NULL}, {2, NULL, NULL}, {3, NULL, NULL}};
  node inner = {-1, &leaves[0], &leaves[1]};
  node root = {-1, &inner, &leaves[2]};
  dt_tensor *out = encode(&m, &root);
  printf("%lld\n", (long long)dt_numel(out));
  return 0;
}
