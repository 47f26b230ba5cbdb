// provenance: blind round field6
// A small ensemble of soft decision trees (a differentiable tree model): each tree is built
// by a recursive constructor that places every node's gate weights and leaf values on the
// device it is given.  Tree 0 is built on sim:0 and tree 1 on sim:1 ("model parallel
// ensemble").  predict() recurses over a tree and returns its output on that tree's
// device.  The ensemble sum adds the two predictions without gathering them on one device,
// and the "tie the roots" regulariser combines a deep node of tree 0 with tree 1's root.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define F 4      /* features */
#define ROWS 3
#define DEPTH 3
#define NTREES 2

typedef struct node {
  int depth;
  dt_device dev;
  dt_tensor *gate_w;   /* F x 1: routing weights (internal nodes) */
  dt_tensor *leaf;     /* ROWS x 1 constant (leaves) */
  struct node *left;
  struct node *right;
} node;

typedef struct ensemble {
  node *trees[NTREES];
  dt_device devs[NTREES];
  int ntrees;
  float shrink;
} ensemble;

static const int64_t GS[2] = {F, 1};
static const int64_t LS[2] = {ROWS, 1};
static const int64_t XS[2] = {ROWS, F};

static uint64_t g_seed = 1;

static node *node_new(int depth, dt_device d) {
  node *n = calloc(1, sizeof *n);
  if (n == NULL)
    abort();
  n->depth = depth;
  n->dev = d;
  return n;
}

/* recursive constructor: every node of the subtree lives on d */
static node *build(int depth, dt_device d) {
  node *n = node_new(depth, d);
  if (depth == 0) {
    n->leaf = dt_full(d, 0.1f * (float)(g_seed++ % 7), 2, LS);
    return n;
  }
  n->gate_w = dt_randn(d, g_seed++, 2, GS);
  n->left = build(depth - 1, d);
  n->right = build(depth - 1, d);
  return n;
}

static void destroy(node *n) {
  if (n == NULL)
    return;
  destroy(n->left);
  destroy(n->right);
  dt_free(n->gate_w);
  dt_free(n->leaf);
  free(n);
}

static int count_nodes(const node *n) {
  if (n == NULL)
    return 0;
  return 1 + count_nodes(n->left) + count_nodes(n->right);
}

/* soft routing: out = g * left + (1 - g) * right, g = sigmoid(x w) */
static dt_tensor *predict(const node *n, const dt_tensor *x) {
  if (n->leaf != NULL)
    return dt_mul_scalar(n->leaf, 1.0f);
  dt_tensor *logit = dt_matmul(x, n->gate_w);
  dt_tensor *g = dt_sigmoid(logit);
  dt_tensor *ng = dt_neg(g);
  dt_tensor *one_minus = dt_add_scalar(ng, 1.0f);
  dt_tensor *l = predict(n->left, x);
  dt_tensor *r = predict(n->right, x);
  dt_tensor *gl = dt_mul(g, l);
  dt_tensor *gr = dt_mul(one_minus, r);
  dt_tensor *out = dt_add(gl, gr);
  dt_free(logit);
  dt_free(g);
  dt_free(ng);
  dt_free(one_minus);
  dt_free(l);
  dt_free(r);
  dt_free(gl);
  dt_free(gr);
  return out;
}

/* recursive leaf refit: every leaf moves towards the mean target, built on the leaf's own
   device */
static void refit_leaves(node *n, const float *target, float rate) {
  if (n == NULL)
    return;
  if (n->leaf != NULL) {
    dt_tensor *t = dt_from_floats(n->dev, target, 2, LS);
    dt_tensor *keep = dt_mul_scalar(n->leaf, 1.0f - rate);
    dt_tensor *pull = dt_mul_scalar(t, rate);
    dt_tensor *nl = dt_add(keep, pull);
    dt_free(n->leaf);
    n->leaf = nl;
    dt_free(t);
    dt_free(keep);
    dt_free(pull);
    return;
  }
  refit_leaves(n->left, target, rate);
  refit_leaves(n->right, target, rate);
}

static int depth_of(const node *n) {
  int d = 0;
  while (n != NULL && n->left != NULL) {
    n = n->left;
    d++;
  }
  return d;
}

static void ensemble_init(ensemble *e) {
  e->ntrees = NTREES;
  e->shrink = 0.5f;
  for (int t = 0; t < NTREES; t++) {
    e->devs[t] = dt_sim(t);
    e->trees[t] = build(DEPTH, e->devs[t]);
  }
}

static dt_tensor *features_on(dt_device d) {
  float v[ROWS * F];
  for (int i = 0; i < ROWS * F; i++)
    v[i] = (float)((i * 5) % 9) / 9.0f - 0.5f;
  return dt_from_floats(d, v, 2, XS);
}

static dt_tensor *ensemble_predict(const ensemble *e) {
  dt_tensor *x0 = features_on(e->devs[0]);
  dt_tensor *x1 = features_on(e->devs[1]);
  dt_tensor *p0 = predict(e->trees[0], x0);
  dt_tensor *p1 = predict(e->trees[1], x1);
  dt_tensor *sum = dt_add(p0, p1); // expect-error: device-mismatch
  dt_tensor *out = dt_mul_scalar(sum, e->shrink);
  dt_free(x0);
  dt_free(x1);
  dt_free(p0);
  dt_free(p1);
  dt_free(sum);
  return out;
}

static dt_tensor *tie_regulariser(const ensemble *e) {
  const node *deep = e->trees[0]->left->right;
  const node *root1 = e->trees[1];
  dt_tensor *d = dt_sub(deep->gate_w, root1->gate_w); // expect-error: device-mismatch
  dt_tensor *sq = dt_mul(d, d);
  dt_tensor *s = dt_sum(sq);
  dt_free(d);
  dt_free(sq);
  return s;
}

int main(void) {
  ensemble e;
  ensemble_init(&e);
  printf("nodes per tree: %d, depth %d\n", count_nodes(e.trees[0]), depth_of(e.trees[0]));
  const float target[ROWS] = {0.2f, 0.4f, 0.6f};
  for (int t = 0; t < e.ntrees; t++)
    refit_leaves(e.trees[t], target, 0.3f);

  /* per-tree predictions, each on its own device: fine */
  for (int t = 0; t < e.ntrees; t++) {
    dt_tensor *x = features_on(e.devs[t]);
    dt_tensor *p = predict(e.trees[t], x);
    dt_tensor *m = dt_mean(p);
    float v = 0.0f;
    dt_read_floats(m, &v, 1);
    printf("tree %d mean %.4f\n", t, (double)v);
    dt_free(m);
    dt_free(p);
    dt_free(x);
  }

  dt_tensor *y = ensemble_predict(&e);
  dt_tensor *reg = tie_regulariser(&e);
  dt_free(reg);
  dt_free(y);
  for (int t = 0; t < e.ntrees; t++)
    destroy(e.trees[t]);
  return 0;
}
