/* runtime/src/autodiff.c — reverse-mode autodiff over every backend.
 *
 * The graph: every tracked autodiff float tensor owns a reference to a node (dt_ad_node). A node
 * remembers the operation that produced its value, a reference to the node of each tracked
 * input, the inputs' shapes, and — only where its gradient needs them — the storages of input or
 * output values (storages are immutable once written, so keeping a reference is keeping the
 * value). Nodes are reference-counted: by their tensor handle and by the nodes computed from
 * them. Freeing a handle drops its reference; a node nobody needs any more releases its inputs'
 * nodes and its saved storages, so memory stays flat in a training loop.
 *
 * Leaves are nodes with no inputs, made by dt_require_grad. Only tensors computed from a leaf get
 * nodes (tensors created on an autodiff device are tracked constants until dt_require_grad).
 *
 * dt_backward orders the loss's graph (iterative depth-first search, so deep graphs cannot
 * overflow the stack), seeds the loss with ones and runs each node's gradient, built from the
 * dt__prim_* primitives on plain tensors of the inner device — the same code on cpu, sim and
 * cuda. Gradients move back across dt_to_device between autodiff devices with dt__prim_copy_to.
 * Every node whose tensor handle is still live keeps its gradient (leaves and intermediates
 * alike) and adds to it on later dt_backward calls; dt_grad hands out a new handle on it.
 * The graph itself stays as long as a handle reaches it, so dt_backward may run twice on one
 * loss (gradients then add up, as semantics.md asks); freeing the loss and the intermediates
 * releases it.
 *
 * Threads: a backward pass keeps everything it sums (which nodes it reached, their gradients of
 * this pass) in a table of its own (ad_pass), never in the nodes, so passes on graphs that share
 * nodes — a trainable leaf used by several threads' graphs — run at the same time. What nodes do
 * share, the kept gradient and whether the handle is live, is guarded by the node's lock: a
 * pass adds its share to a shared leaf's gradient under that lock, so concurrent passes sum
 * exactly as they would one after another (floating-point addition order aside). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "thread_cache.h"

/* One input of a node. */
typedef struct ad_input {
  struct dt_ad_node *node; /* the input's node (owned reference), NULL when untracked */
  dt_tensor val;           /* plain descriptor on the input's inner device: shape always; a
                              storage reference only when the gradient needs the value */
} ad_input;

typedef struct dt_ad_node {
  atomic_int refs;
  dt_ad_op op;
  dt_ad_extra extra;
  dt_tensor out; /* plain descriptor of the value; storage only when the gradient needs it */
  pthread_mutex_t lock; /* guards has_handle and grad: passes on several threads meet here */
  int has_handle;       /* the tensor handle that owns this node is still live */
  dt_tensor *grad;      /* accumulated gradient (plain, inner device), kept while has_handle */
  struct dt_ad_node *link; /* work list while freeing */
  int n_in;
  ad_input in[];
} dt_ad_node;

/* ---- nodes ---- */

/* A plain descriptor of t on its inner device, keeping its storage when keep is set. */
static void describe(dt_tensor *d, const dt_tensor *t, int keep) {
  *d = *t;
  d->device = dt_inner_device(t->device);
  d->node = NULL;
  d->requires_grad = 0;
  if (keep)
    dt__storage_retain(d->storage);
  else
    d->storage = NULL;
}

/* Freed nodes of up to NODE_CACHE_INPUTS inputs are kept per thread, by input count, for the
   next nodes: a training step makes and frees a node per operation, and calloc (which glibc
   serves from its bins, never from its per-thread cache) with the free of a whole graph at once
   (past the per-thread cache's 7 blocks a size) cost more than the recording itself. Any thread
   may free a node another made; a thread's nodes go back to malloc when it exits. */
#define NODE_CACHE_INPUTS 3
#define NODE_CACHE_SLOTS 32

typedef struct node_cache {
  dt_ad_node *free[NODE_CACHE_INPUTS + 1][NODE_CACHE_SLOTS];
  int n[NODE_CACHE_INPUTS + 1];
  int registered;
} node_cache;

static _Thread_local node_cache tl_nodes;

static void nodes_drain(void *arg) {
  node_cache *c = arg;
  c->registered = 0; /* a later exit destructor that frees nodes registers it anew */
  for (int k = 0; k <= NODE_CACHE_INPUTS; k++)
    while (c->n[k] > 0) free(c->free[k][--c->n[k]]);
}

DT_THREAD_CACHE_EXIT(node_exit, nodes_drain)

static size_t node_bytes(int n_in) { return sizeof(dt_ad_node) + (size_t)n_in * sizeof(ad_input); }

/* A zeroed node of n_in inputs, or NULL. */
static dt_ad_node *node_alloc(int n_in) {
  node_cache *c = &tl_nodes;
  if (n_in <= NODE_CACHE_INPUTS && c->n[n_in] > 0) {
    dt_ad_node *n = c->free[n_in][--c->n[n_in]];
    memset(n, 0, node_bytes(n_in));
    return n;
  }
  return calloc(1, node_bytes(n_in));
}

static void node_dealloc(dt_ad_node *n) {
  node_cache *c = &tl_nodes;
  const int k = n->n_in;
  if (k <= NODE_CACHE_INPUTS && c->n[k] < NODE_CACHE_SLOTS) {
    node_exit_register(c, &c->registered);
    c->free[k][c->n[k]++] = n;
    return;
  }
  free(n);
}

static dt_ad_node *node_new(const dt_site *site, int n_in) {
  dt_ad_node *n = NULL;
  if (!dt__alloc_should_fail()) n = node_alloc(n_in);
  if (n == NULL) {
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory for an autodiff graph node");
    return NULL;
  }
  atomic_init(&n->refs, 1);
  pthread_mutex_init(&n->lock, NULL);
  n->op = DT_AD_LEAF;
  n->n_in = n_in;
  return n;
}

/* Drops one reference; frees the node and, iteratively, every input node nothing else holds. */
static void node_unref(dt_ad_node *n) {
  if (n == NULL || atomic_fetch_sub_explicit(&n->refs, 1, memory_order_acq_rel) != 1) return;
  n->link = NULL;
  dt_ad_node *work = n;
  while (work != NULL) {
    dt_ad_node *x = work;
    work = x->link;
    for (int i = 0; i < x->n_in; i++) {
      dt__storage_release(x->in[i].val.storage);
      dt_ad_node *p = x->in[i].node;
      if (p != NULL && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1) {
        p->link = work;
        work = p;
      }
    }
    dt__storage_release(x->out.storage);
    dt__tensor_free(x->grad);
    pthread_mutex_destroy(&x->lock);
    node_dealloc(x);
  }
}

/* Which values an operation's gradient reads: bit i for input i, bit 3 for the output. Values
   are only kept for the partial derivatives some tracked input needs. */
#define NEED_OUT 8u
static unsigned ad_needs(dt_ad_op op, const dt_tensor *const *inputs) {
  int t0 = inputs[0] != NULL && inputs[0]->node != NULL;
  int t1 = 0;
  switch (op) {
    case DT_AD_MUL:
    case DT_AD_MATMUL:
      t1 = inputs[1]->node != NULL;
      return (t1 ? 1u : 0u) | (t0 ? 2u : 0u);
    case DT_AD_DIV:
      t1 = inputs[1]->node != NULL;
      return 2u | (t1 ? NEED_OUT : 0u);
    case DT_AD_LOG:
    case DT_AD_WHERE:
      return 1u;
    case DT_AD_RELU: /* its output: y > 0 exactly where x > 0, and the next layer keeps y anyway */
    case DT_AD_EXP:
    case DT_AD_SIGMOID:
    case DT_AD_TANH:
      return NEED_OUT;
    case DT_AD_MSE:
      return 3u;
    case DT_AD_ADD:
    case DT_AD_SUB:
    case DT_AD_GREATER:
    case DT_AD_ADD_SCALAR:
    case DT_AD_MUL_SCALAR:
    case DT_AD_NEG:
    case DT_AD_SUM_DIM:
    case DT_AD_TRANSPOSE:
    case DT_AD_CAT:
    case DT_AD_LEAF:
    case DT_AD_SUM:
    case DT_AD_MEAN:
    case DT_AD_RESHAPE:
    case DT_AD_TO_DEVICE:
      return 0u;
  }
  return 0u;
}

dt_tensor *dt__ad_record(const dt_site *site, dt_ad_op op, dt_tensor *out, int n_inputs,
                         const dt_tensor *const *inputs, const dt_ad_extra *extra) {
  if (out == NULL || !out->device.autodiff || out->kind != DT_FLOAT || n_inputs <= 0) return out;
  int tracked = 0;
  for (int i = 0; i < n_inputs; i++)
    if (inputs[i] != NULL && inputs[i]->node != NULL) tracked = 1;
  if (!tracked) return out;

  dt_ad_node *n = node_new(site, n_inputs);
  if (n == NULL) {
    dt__tensor_free(out);
    return NULL;
  }
  unsigned needs = ad_needs(op, inputs);
  n->op = op;
  if (extra != NULL) n->extra = *extra;
  for (int i = 0; i < n_inputs; i++) {
    ad_input *in = &n->in[i];
    describe(&in->val, inputs[i], (needs >> i) & 1u);
    in->node = inputs[i]->node;
    if (in->node != NULL) atomic_fetch_add_explicit(&in->node->refs, 1, memory_order_relaxed);
  }
  describe(&n->out, out, (needs & NEED_OUT) != 0);
  n->has_handle = 1;
  node_unref(out->node); /* a fresh result has none; be safe */
  out->node = n;
  return out;
}

void dt__ad_release(dt_tensor *t) {
  if (t == NULL || t->node == NULL) return;
  dt_ad_node *n = t->node;
  t->node = NULL;
  pthread_mutex_lock(&n->lock); /* a pass on another thread may be adding to grad */
  n->has_handle = 0;
  dt_tensor *grad = n->grad; /* nobody can ask for it any more */
  n->grad = NULL;
  pthread_mutex_unlock(&n->lock);
  dt__tensor_free(grad);
  node_unref(n);
}

int dt__ad_is_tracked(const dt_tensor *t) { return t != NULL && t->node != NULL; }

/* ---- gradient helpers: each takes ownership of its tensor arguments named `own` ---- */

static int same_shape(const dt_tensor *a, const dt_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return 0;
  return 1;
}

/* A new handle on g's value with the given shape (same element count). */
static dt_tensor *view_as(const dt_site *site, const dt_tensor *g, int rank, const int64_t *shape) {
  return dt__tensor_view(site, g, g->device, rank, shape);
}

/* Sums own over the axes along which `like` was broadcast (no-op when the shapes agree). */
static dt_tensor *reduce_to(const dt_site *site, dt_tensor *own, const dt_tensor *like) {
  if (own == NULL || same_shape(own, like)) return own;
  dt_tensor *r = dt__prim_sum_to_shape(site, own, like->rank, like->shape);
  dt__tensor_free(own);
  return r;
}

/* g broadcast to like's shape. */
static dt_tensor *expand(const dt_site *site, const dt_tensor *g, const dt_tensor *like) {
  if (same_shape(g, like)) return view_as(site, g, g->rank, g->shape);
  dt_tensor *z = dt__prim_fill(site, like->device, DT_FLOAT, 0.0f, like->rank, like->shape);
  if (z == NULL) return NULL;
  dt_tensor *r = dt__prim_binary(site, DT_OP_ADD, z, g);
  dt__tensor_free(z);
  return r;
}

static dt_tensor *binary_own(const dt_site *site, dt_op op, dt_tensor *own, const dt_tensor *b) {
  if (own == NULL) return NULL;
  dt_tensor *r = dt__prim_binary(site, op, own, b);
  dt__tensor_free(own);
  return r;
}

static dt_tensor *neg_own(const dt_site *site, dt_tensor *own) {
  if (own == NULL) return NULL;
  dt_tensor *r = dt__prim_unary(site, DT_OP_NEG, own);
  dt__tensor_free(own);
  return r;
}

/* ---- one backward pass: the nodes it reached and their gradients of this pass ---- */

typedef struct pass_entry {
  dt_ad_node *node;
  dt_tensor *pending; /* this pass's gradient, summed over the node's consumers */
} pass_entry;

typedef struct ad_pass {
  const dt_site *site;
  const dt_tensor *seed; /* the loss's gradient (ones) while the loss's node runs, then NULL */
  pass_entry *entry; /* in discovery order */
  size_t n, cap;
  uint32_t *slot; /* open addressing: entry index + 1, 0 when empty; slots a power of two */
  size_t slots;
  uint32_t *order; /* entry indices, inputs before the nodes computed from them */
  size_t n_order;
} ad_pass;

static size_t node_hash(const dt_ad_node *x, size_t slots) {
  uint64_t h = (uint64_t)(uintptr_t)x * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 32) & (slots - 1);
}

/* The entry of x in this pass, or NULL. */
static pass_entry *pass_find(const ad_pass *p, const dt_ad_node *x) {
  for (size_t i = node_hash(x, p->slots);; i = (i + 1) & (p->slots - 1)) {
    const uint32_t e = p->slot[i];
    if (e == 0) return NULL;
    if (p->entry[e - 1].node == x) return &p->entry[e - 1];
  }
}

static void pass_place(ad_pass *p, size_t e) {
  size_t i = node_hash(p->entry[e].node, p->slots);
  while (p->slot[i] != 0) i = (i + 1) & (p->slots - 1);
  p->slot[i] = (uint32_t)e + 1;
}

/* Adds x as reached (x not in the pass yet). Returns 0, or -1 when out of memory. */
static int pass_add(ad_pass *p, dt_ad_node *x) {
  if (p->n == p->cap) {
    if (p->cap >= UINT32_MAX / 4) return -1;
    size_t cap = p->cap ? p->cap * 2 : 64;
    pass_entry *e = dt__alloc_should_fail() ? NULL : realloc(p->entry, cap * sizeof *e);
    if (e == NULL) return -1;
    p->entry = e;
    uint32_t *o = dt__alloc_should_fail() ? NULL : realloc(p->order, cap * sizeof *o);
    if (o == NULL) return -1;
    p->order = o;
    p->cap = cap;
  }
  if ((p->n + 1) * 2 > p->slots) { /* keep the table at most half full */
    size_t slots = p->slots ? p->slots * 2 : 128;
    uint32_t *t = dt__alloc_should_fail() ? NULL : calloc(slots, sizeof *t);
    if (t == NULL) return -1;
    free(p->slot);
    p->slot = t;
    p->slots = slots;
    for (size_t e = 0; e < p->n; e++) pass_place(p, e);
  }
  p->entry[p->n] = (pass_entry){x, NULL};
  pass_place(p, p->n++);
  return 0;
}

static void pass_free(ad_pass *p) {
  for (size_t e = 0; e < p->n; e++) dt__tensor_free(p->entry[e].pending);
  free(p->entry);
  free(p->slot);
  free(p->order);
}

/* Adds own (the gradient for input in, shaped like it) to the input node's gradient of this
   pass. Returns 0, or -1 when a primitive failed (the failure is recorded). */
static int give(ad_pass *pass, ad_input *in, dt_tensor *own) {
  if (own == NULL) return -1;
  pass_entry *p = pass_find(pass, in->node); /* every tracked input was reached */
  if (p->pending == NULL) {
    p->pending = own;
    return 0;
  }
  dt_tensor *sum = dt__prim_binary(pass->site, DT_OP_ADD, p->pending, own);
  dt__tensor_free(own);
  if (sum == NULL) return -1;
  dt__tensor_free(p->pending);
  p->pending = sum;
  return 0;
}

/* A zero of rank 0 on g's device (for masks and one-sided where). */
static dt_tensor *zero_like(const dt_site *site, const dt_tensor *g) {
  return dt__prim_fill(site, g->device, DT_FLOAT, 0.0f, 0, NULL);
}

static int grad_where(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  const dt_tensor *c = &n->in[0].val;
  dt_tensor *zero = zero_like(site, g);
  if (zero == NULL) return -1;
  int rc = 0;
  if (n->in[1].node != NULL)
    rc = give(pass, &n->in[1], reduce_to(site, dt__prim_where(site, c, g, zero), &n->in[1].val));
  if (rc == 0 && n->in[2].node != NULL)
    rc = give(pass, &n->in[2], reduce_to(site, dt__prim_where(site, c, zero, g), &n->in[2].val));
  dt__tensor_free(zero);
  return rc;
}

/* relu's gradient from its output y = max(x, 0): y > 0 exactly where x > 0 (a NaN or a zero of
   either sign gives 0 in both), so the pass keeps no input of relu's alive (its input — a bias
   add's result, say — is freed as soon as the caller lets it go). */
static int grad_relu(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  return give(pass, &n->in[0], dt__prim_act_grad(pass->site, DT_OP_RELU_GRAD, &n->out, g));
}

static int grad_matmul(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  /* the transposes are the product's flags: no transposed copy is made */
  if (n->in[0].node != NULL && /* dA = G x B^T */
      give(pass, &n->in[0], dt__prim_matmul_t(site, g, 0, &n->in[1].val, 1)) != 0)
    return -1;
  if (n->in[1].node != NULL && /* dB = A^T x G */
      give(pass, &n->in[1], dt__prim_matmul_t(site, &n->in[0].val, 1, g, 0)) != 0)
    return -1;
  return 0;
}

static int grad_cat(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  int axis = n->extra.axis;
  if (axis < 0) axis += g->rank;
  int64_t start = 0;
  for (int i = 0; i < n->n_in; i++) {
    int64_t len = n->in[i].val.shape[axis];
    if (n->in[i].node != NULL &&
        give(pass, &n->in[i], dt__prim_narrow(site, g, axis, start, len)) != 0)
      return -1;
    start += len;
  }
  return 0;
}

static int grad_sum_dim(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  const dt_tensor *x = &n->in[0].val;
  int axis = n->extra.axis;
  if (axis < 0) axis += x->rank;
  /* g with the summed axis put back as length 1, then broadcast along it. */
  dt_tensor keep = *g;
  keep.rank = x->rank;
  for (int i = 0; i < x->rank; i++) keep.shape[i] = i == axis ? 1 : x->shape[i];
  return give(pass, &n->in[0], expand(site, &keep, x));
}

static int grad_mse(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  const dt_tensor *p = &n->in[0].val, *t = &n->in[1].val;
  dt_tensor *d = dt__prim_binary(site, DT_OP_SUB, p, t);
  if (d == NULL) return -1;
  float scale = d->numel > 0 ? 2.0f / (float)d->numel : 0.0f;
  /* the loss itself (g is the seed of ones): d * 1 is d, exactly */
  dt_tensor *dg = g == pass->seed ? d : binary_own(site, DT_OP_MUL, d, g);
  dt_tensor *s = NULL;
  if (dg != NULL) {
    s = dt__prim_scalar(site, DT_OP_MUL_SCALAR, dg, scale);
    dt__tensor_free(dg);
  }
  if (s == NULL) return -1;
  if (n->in[1].node != NULL) {
    dt_tensor *st = dt__prim_unary(site, DT_OP_NEG, s);
    if (give(pass, &n->in[1], reduce_to(site, st, t)) != 0) {
      dt__tensor_free(s);
      return -1;
    }
  }
  if (n->in[0].node != NULL) return give(pass, &n->in[0], reduce_to(site, s, p));
  dt__tensor_free(s);
  return 0;
}

/* Runs n's gradient: gives each tracked input its share of g (borrowed). */
static int node_backward(ad_pass *pass, dt_ad_node *n, const dt_tensor *g) {
  const dt_site *site = pass->site;
  ad_input *a = &n->in[0];
  ad_input *b = n->n_in > 1 ? &n->in[1] : NULL;
  switch (n->op) {
    case DT_AD_ADD:
    case DT_AD_SUB:
      if (a->node != NULL && give(pass, a, reduce_to(site, view_as(site, g, g->rank, g->shape),
                                                     &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      if (n->op == DT_AD_ADD)
        return give(pass, b, reduce_to(site, view_as(site, g, g->rank, g->shape), &b->val));
      return give(pass, b, reduce_to(site, dt__prim_unary(site, DT_OP_NEG, g), &b->val));
    case DT_AD_MUL:
      if (a->node != NULL &&
          give(pass, a, reduce_to(site, dt__prim_binary(site, DT_OP_MUL, g, &b->val), &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      return give(pass, b, reduce_to(site, dt__prim_binary(site, DT_OP_MUL, g, &a->val), &b->val));
    case DT_AD_DIV: /* d(a/b) = g/b da - g*(a/b)/b db */
      if (a->node != NULL &&
          give(pass, a, reduce_to(site, dt__prim_binary(site, DT_OP_DIV, g, &b->val), &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      return give(pass, b,
                  reduce_to(site,
                            neg_own(site, binary_own(site, DT_OP_DIV,
                                                     dt__prim_binary(site, DT_OP_MUL, g, &n->out),
                                                     &b->val)),
                            &b->val));
    case DT_AD_MATMUL:
      return grad_matmul(pass, n, g);
    case DT_AD_ADD_SCALAR:
      return give(pass, a, view_as(site, g, g->rank, g->shape));
    case DT_AD_MUL_SCALAR:
      return give(pass, a, dt__prim_scalar(site, DT_OP_MUL_SCALAR, g, n->extra.scalar));
    case DT_AD_NEG:
      return give(pass, a, dt__prim_unary(site, DT_OP_NEG, g));
    case DT_AD_EXP:
      return give(pass, a, dt__prim_binary(site, DT_OP_MUL, g, &n->out));
    case DT_AD_LOG:
      return give(pass, a, dt__prim_binary(site, DT_OP_DIV, g, &a->val));
    case DT_AD_RELU:
      return grad_relu(pass, n, g);
    case DT_AD_SIGMOID: /* g*y*(1-y) */
      return give(pass, a, dt__prim_act_grad(site, DT_OP_SIGMOID_GRAD, &n->out, g));
    case DT_AD_TANH: /* g*(1-y^2) */
      return give(pass, a, dt__prim_act_grad(site, DT_OP_TANH_GRAD, &n->out, g));
    case DT_AD_SUM:
      return give(pass, a, expand(site, g, &a->val));
    case DT_AD_MEAN: {
      float inv = a->val.numel > 0 ? 1.0f / (float)a->val.numel : 0.0f;
      dt_tensor *s = dt__prim_scalar(site, DT_OP_MUL_SCALAR, g, inv);
      if (s == NULL) return -1;
      dt_tensor *r = expand(site, s, &a->val);
      dt__tensor_free(s);
      return give(pass, a, r);
    }
    case DT_AD_SUM_DIM:
      return grad_sum_dim(pass, n, g);
    case DT_AD_RESHAPE:
      return give(pass, a, view_as(site, g, a->val.rank, a->val.shape));
    case DT_AD_TRANSPOSE:
      return give(pass, a, dt__prim_transpose(site, g));
    case DT_AD_CAT: /* dt_cat */
      return grad_cat(pass, n, g);
    case DT_AD_WHERE:
      return grad_where(pass, n, g);
    case DT_AD_MSE:
      return grad_mse(pass, n, g);
    case DT_AD_TO_DEVICE:
      if (dt_device_equal(g->device, a->val.device))
        return give(pass, a, view_as(site, g, g->rank, g->shape));
      return give(pass, a, dt__prim_copy_to(site, g, a->val.device));
    case DT_AD_GREATER: /* bool results are never recorded */
    case DT_AD_LEAF:    /* a leaf keeps its gradient; nothing flows further */
      return 0;
  }
  dt__fail(site, DT_ERR_INVALID_ARGUMENT, "No gradient is defined for operation %d", (int)n->op);
  return -1;
}

/* ---- backward ---- */

/* Post-order of root's graph into pass->order (inputs before the nodes computed from them),
   without recursion. */
typedef struct dfs_frame {
  dt_ad_node *node;
  int next; /* the next input to visit */
} dfs_frame;

static int topo_order(ad_pass *pass, dt_ad_node *root) {
  dfs_frame *stack = NULL;
  size_t depth = 0, cap = 0;
  int rc = 0;
  if (pass_add(pass, root) != 0) goto oom;
  dt_ad_node *push = root;
  for (;;) {
    if (push != NULL) {
      if (depth == cap) {
        size_t nc = cap ? cap * 2 : 64;
        dfs_frame *ns = dt__alloc_should_fail() ? NULL : realloc(stack, nc * sizeof *ns);
        if (ns == NULL) goto oom;
        stack = ns;
        cap = nc;
      }
      stack[depth].node = push;
      stack[depth].next = 0;
      depth++;
      push = NULL;
    }
    if (depth == 0) break;
    dfs_frame *f = &stack[depth - 1];
    while (f->next < f->node->n_in) {
      dt_ad_node *c = f->node->in[f->next++].node;
      if (c != NULL && pass_find(pass, c) == NULL) {
        if (pass_add(pass, c) != 0) goto oom;
        push = c;
        break;
      }
    }
    if (push != NULL) continue;
    pass->order[pass->n_order++] = (uint32_t)(pass_find(pass, f->node) - pass->entry);
    depth--;
  }
  goto done;
oom:
  dt__fail(pass->site, DT_ERR_OUT_OF_MEMORY, "Out of host memory ordering the autodiff graph");
  rc = -1;
done:
  free(stack);
  return rc;
}

/* Adds g (owned) to a node's kept gradient, when its handle is still live. The node's lock is
   held across the sum: passes on other threads add to the same leaf one at a time. */
static int keep_grad(const dt_site *site, dt_ad_node *x, dt_tensor *g) {
  int rc = 0;
  dt_tensor *drop = g;
  pthread_mutex_lock(&x->lock);
  if (x->has_handle && x->grad == NULL) {
    x->grad = g;
    drop = NULL;
  } else if (x->has_handle) {
    dt_tensor *sum = dt__prim_binary(site, DT_OP_ADD, x->grad, g);
    if (sum == NULL) {
      rc = -1;
    } else {
      drop = x->grad;
      x->grad = sum;
      dt__tensor_free(g);
    }
  }
  pthread_mutex_unlock(&x->lock);
  dt__tensor_free(drop);
  return rc;
}

static dt_status run_backward(const dt_site *site, const dt_tensor *loss) {
  ad_pass pass = {.site = site};
  dt_status st = DT_OK;
  if (topo_order(&pass, loss->node) != 0) goto fail;
  pass_entry *root = pass_find(&pass, loss->node);
  root->pending = dt__prim_fill(site, dt_inner_device(loss->device), DT_FLOAT, 1.0f, loss->rank,
                                loss->shape);
  if (root->pending == NULL) goto fail;
  pass.seed = root->pending;
  /* Reverse post-order: every node after all the nodes computed from it. */
  for (size_t k = pass.n_order; k-- > 0;) {
    pass_entry *e = &pass.entry[pass.order[k]];
    dt_tensor *g = e->pending;
    e->pending = NULL;
    if (g == NULL) continue;
    if (e->node->n_in > 0 && node_backward(&pass, e->node, g) != 0) {
      dt__tensor_free(g);
      goto fail;
    }
    if (g == pass.seed) pass.seed = NULL; /* the root's alone: g may be freed below */
    if (keep_grad(site, e->node, g) != 0) goto fail;
  }
  goto done;
fail:
  st = dt_last_status();
  if (st == DT_OK) st = DT_ERR_OUT_OF_MEMORY;
done:
  pass_free(&pass);
  return st;
}

/* ---- public entry points ---- */

/* A successful call's result: DT_OK, and the caller's handle on r. */
static dt_tensor *handed_out(dt_tensor *r) {
  if (r == NULL) return NULL;
  dt__ok();
  return dt__handle_of(r);
}

dt_tensor *dt_from_inner_at(DT_SITE_PARAMS, dt_device ad, dt_tensor *inner_handle) {
  dt_site site = {dt_file_, dt_line_, "dt_from_inner"};
  const dt_tensor *inner = dt__resolve(&site, inner_handle, "The inner tensor");
  if (inner == NULL) return NULL;
  if (dt__check_wraps(&site, ad, inner) != DT_OK) return NULL;
  return handed_out(dt__tensor_view(&site, inner, ad, inner->rank, inner->shape));
}
dt_tensor *dt_from_inner(dt_device ad, dt_tensor *inner) { return dt_from_inner_at(NULL, 0, ad, inner); }

dt_tensor *dt_inner_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_inner"};
  const dt_tensor *t = dt__check_autodiff_required(&site, h);
  if (t == NULL) return NULL;
  return handed_out(dt__tensor_view(&site, t, dt_inner_device(t->device), t->rank, t->shape));
}
dt_tensor *dt_inner(const dt_tensor *t) { return dt_inner_at(NULL, 0, t); }

dt_tensor *dt_require_grad_at(DT_SITE_PARAMS, dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_require_grad"};
  dt_tensor *t = dt__check_autodiff_required(&site, h);
  if (t == NULL || dt__check_kinds(&site, 1, (const dt_tensor *const *)&t, DT_KINDS_FLOAT) != DT_OK)
    return NULL;
  if (t->node == NULL || t->node->op != DT_AD_LEAF) {
    /* A new leaf; a tensor that had a history is cut from it (it becomes trainable itself). */
    dt_ad_node *n = node_new(&site, 0);
    if (n == NULL) return NULL;
    describe(&n->out, t, 0);
    n->has_handle = 1;
    dt__ad_release(t);
    t->node = n;
  }
  t->requires_grad = 1;
  dt__ok();
  return h;
}
dt_tensor *dt_require_grad(dt_tensor *t) { return dt_require_grad_at(NULL, 0, t); }

dt_tensor *dt_detach_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_detach"};
  const dt_tensor *t = dt__resolve(&site, h, "The tensor");
  if (t == NULL) return NULL;
  return handed_out(dt__tensor_view(&site, t, t->device, t->rank, t->shape));
}
dt_tensor *dt_detach(const dt_tensor *t) { return dt_detach_at(NULL, 0, t); }

int dt_backward_at(DT_SITE_PARAMS, dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_backward"};
  const dt_tensor *loss = dt__check_autodiff_required(&site, h);
  if (loss == NULL) return (int)dt_last_status();
  dt_status st = dt__check_kinds(&site, 1, &loss, DT_KINDS_FLOAT);
  if (st == DT_OK && loss->numel != 1)
    st = dt__fail(&site, DT_ERR_SHAPE,
                  "The loss must have exactly one element (got %lld elements of rank %d)",
                  (long long)loss->numel, loss->rank);
  if (st == DT_OK && loss->node != NULL) st = run_backward(&site, loss);
  if (st == DT_OK) dt__ok();
  return (int)st;
}
int dt_backward(dt_tensor *loss) { return dt_backward_at(NULL, 0, loss); }

dt_tensor *dt_grad_at(DT_SITE_PARAMS, const dt_tensor *h) {
  dt_site site = {dt_file_, dt_line_, "dt_grad"};
  const dt_tensor *t = dt__check_autodiff_required(&site, h);
  if (t == NULL) return NULL;
  dt_tensor *r = NULL;
  dt_ad_node *n = t->node;
  if (n != NULL) {
    pthread_mutex_lock(&n->lock); /* a pass on another thread may be replacing grad */
    const dt_tensor *g = n->grad;
    if (g != NULL) r = dt__tensor_view(&site, g, g->device, t->rank, t->shape);
    pthread_mutex_unlock(&n->lock);
    if (g != NULL && r == NULL) return NULL;
  }
  dt__ok();
  return dt__handle_of(r);
}
dt_tensor *dt_grad(const dt_tensor *t) { return dt_grad_at(NULL, 0, t); }
