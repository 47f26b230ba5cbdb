// provenance: blind round field3
// Recursive (tree-structured) model: leaves embed words, internal nodes combine children with
// a weight on sim:0. The embedding table was left on the host.
#include <dt/dt.h>
#include <stdio.h>
typedef struct node { int word; struct node *l, *r; } node;
typedef struct { dt_tensor *emb[4]; dt_tensor *w; } treenet;
static dt_tensor *encode(const treenet *m, const node *n) {
  if (!n->l) return dt_to_device(m->emb[n->word], dt_device_of(m->emb[n->word]));
  dt_tensor *a = encode(m, n->l);
  dt_tensor *b = encode(m, n->r);
  dt_tensor *s = dt_add(a, b);
  dt_tensor *h = dt_matmul(s, m->w); // expect-error: backend-mismatch
  dt_tensor *o = dt_tanh(h);
  dt_free(a); dt_free(b); dt_free(s); dt_free(h);
  return o;
}
int main(void) {
  treenet m;
  for (int i = 0; i < 4; i++) m.emb[i] = dt_randn(dt_cpu(), (uint64_t)i, 2, (const int64_t[]){1, 3});
  m.w = dt_randn(dt_sim(0), 9, 2, (const int64_t[]){3, 3});
  node leaves[3] = {{0, NULL, NULL}, {2, NULL, NULL}, {3, NULL, NULL}};
  node inner = {-1, &leaves[0], &leaves[1]};
  node root = {-1, &inner, &leaves[2]};
  dt_tensor *out = encode(&m, &root);
  printf("%p\n", (void *)out);
  return 0;
}
