// provenance: blind round field6
// A recursive tree model whose levels alternate between sim:0 and sim:1 (even levels on
// sim:0, odd on sim:1): the constructor passes the *other* device to its children.
// evaluate() moves each child's result to the node's device before combining.  Two direct
// combinations are made without transfers, and both are correct: a node and its
// grandchildren share a device (same level parity), and the two children of a node share
// one too.  Depth is a compile-time constant; the tree is built with recursion.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define DEPTH 4
#define N 2
static const int64_t S[1] = {N};

typedef struct tnode {
  dt_device dev;
  dt_tensor *w;
  struct tnode *kid[2];
} tnode;

static dt_device other(dt_device d) {
  return dt_sim(d.ordinal == 0 ? 1 : 0);
}

static tnode *make_tree(int depth, dt_device d, float v) {
  tnode *t = malloc(sizeof *t);
  if (t == NULL)
    abort();
  t->dev = d;
  t->w = dt_full(d, v, 1, S);
  t->kid[0] = t->kid[1] = NULL;
  if (depth > 0) {
    t->kid[0] = make_tree(depth - 1, other(d), v * 0.5f);
    t->kid[1] = make_tree(depth - 1, other(d), v * 0.25f);
  }
  return t;
}

static void free_tree(tnode *t) {
  if (t == NULL)
    return;
  free_tree(t->kid[0]);
  free_tree(t->kid[1]);
  dt_free(t->w);
  free(t);
}

static dt_tensor *evaluate(const tnode *t) {
  dt_tensor *acc = dt_mul_scalar(t->w, 1.0f);
  for (int k = 0; k < 2; k++) {
    if (t->kid[k] == NULL)
      continue;
    dt_tensor *sub = evaluate(t->kid[k]);
    dt_tensor *here = dt_to_device(sub, t->dev);
    dt_tensor *next = dt_add(acc, here);
    dt_free(sub);
    dt_free(here);
    dt_free(acc);
    acc = next;
  }
  return acc;
}

/* a node against its grandchildren: same parity, same device */
static dt_tensor *grand_residual(const tnode *t) {
  dt_tensor *a = dt_sub(t->w, t->kid[0]->kid[1]->w);
  dt_tensor *b = dt_sub(t->w, t->kid[1]->kid[0]->w);
  dt_tensor *r = dt_mul(a, b);
  dt_free(a);
  dt_free(b);
  return r;
}

/* siblings live on the same device */
static dt_tensor *sibling_gap(const tnode *t) {
  return dt_sub(t->kid[0]->w, t->kid[1]->w);
}

int main(void) {
  tnode *root = make_tree(DEPTH, dt_sim(0), 8.0f);
  dt_tensor *all = evaluate(root);
  dt_tensor *gr = grand_residual(root);
  dt_tensor *gr2 = grand_residual(root->kid[1]);
  dt_tensor *sg = sibling_gap(root->kid[0]->kid[0]);
  dt_tensor *sg_home = dt_to_device(sg, dt_device_of(gr2));
  dt_tensor *mix = dt_add(gr2, sg_home);
  float v[N], w[N], u[N];
  dt_read_floats(all, v, N);
  dt_read_floats(gr, w, N);
  dt_read_floats(mix, u, N);
  printf("eval %.3f residual %.3f mix %.3f\n", (double)v[0], (double)w[0], (double)u[0]);
  dt_free(mix);
  dt_free(sg_home);
  dt_free(sg);
  dt_free(gr2);
  dt_free(gr);
  dt_free(all);
  free_tree(root);
  return 0;
}
