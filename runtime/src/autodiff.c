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
 * releases it. */
#include <stdlib.h>

#include "internal.h"

/* One input of a node. */
typedef struct ad_input {
  struct dt_ad_node *node; /* the input's node (owned reference), NULL when untracked */
  dt_tensor val;           /* plain descriptor on the input's inner device: shape always; a
                              storage reference only when the gradient needs the value */
} ad_input;

typedef struct dt_ad_node {
  atomic_int refs;
  int op;        /* a dt_op or a DT_AD_OP_* value; -1 for a leaf */
  int has_handle; /* the tensor handle that owns this node is still live */
  dt_ad_extra extra;
  dt_tensor out;      /* plain descriptor of the value; storage only when the gradient needs it */
  dt_tensor *grad;    /* accumulated gradient (plain, inner device), kept while has_handle */
  dt_tensor *pending; /* this backward pass's gradient, summed over the node's consumers */
  unsigned mark;      /* visit mark of the latest backward pass */
  struct dt_ad_node *link; /* work list while freeing */
  int n_in;
  ad_input in[];
} dt_ad_node;

#define AD_LEAF (-1)

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

static dt_ad_node *node_new(const dt_site *site, int n_in) {
  dt_ad_node *n = NULL;
  if (!dt__alloc_should_fail())
    n = calloc(1, sizeof(dt_ad_node) + (size_t)n_in * sizeof(ad_input));
  if (n == NULL) {
    dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory for an autodiff graph node");
    return NULL;
  }
  atomic_init(&n->refs, 1);
  n->op = AD_LEAF;
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
    dt_free(x->grad);
    dt_free(x->pending);
    free(x);
  }
}

/* Which values an operation's gradient reads: bit i for input i, bit 3 for the output. Values
   are only kept for the partial derivatives some tracked input needs. */
#define NEED_OUT 8u
static unsigned ad_needs(int op, const dt_tensor *const *inputs) {
  int t0 = inputs[0] != NULL && inputs[0]->node != NULL;
  int t1 = 0;
  switch (op) {
    case DT_OP_MUL:
    case DT_OP_MATMUL:
      t1 = inputs[1]->node != NULL;
      return (t1 ? 1u : 0u) | (t0 ? 2u : 0u);
    case DT_OP_DIV:
      t1 = inputs[1]->node != NULL;
      return 2u | (t1 ? NEED_OUT : 0u);
    case DT_OP_LOG:
    case DT_OP_RELU:
    case DT_OP_WHERE:
      return 1u;
    case DT_OP_EXP:
    case DT_OP_SIGMOID:
    case DT_OP_TANH:
      return NEED_OUT;
    case DT_OP_MSE:
      return 3u;
    default:
      return 0u;
  }
}

dt_tensor *dt__ad_record(const dt_site *site, int op, dt_tensor *out, int n_inputs,
                         const dt_tensor *const *inputs, const dt_ad_extra *extra) {
  if (out == NULL || !out->device.autodiff || out->kind != DT_FLOAT || n_inputs <= 0) return out;
  int tracked = 0;
  for (int i = 0; i < n_inputs; i++)
    if (inputs[i] != NULL && inputs[i]->node != NULL) tracked = 1;
  if (!tracked) return out;

  dt_ad_node *n = node_new(site, n_inputs);
  if (n == NULL) {
    dt_free(out);
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
  n->has_handle = 0;
  dt_free(n->grad); /* nobody can ask for it any more */
  n->grad = NULL;
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
  dt_free(own);
  return r;
}

/* g broadcast to like's shape. */
static dt_tensor *expand(const dt_site *site, const dt_tensor *g, const dt_tensor *like) {
  if (same_shape(g, like)) return view_as(site, g, g->rank, g->shape);
  dt_tensor *z = dt__prim_fill(site, like->device, DT_FLOAT, 0.0f, like->rank, like->shape);
  if (z == NULL) return NULL;
  dt_tensor *r = dt__prim_binary(site, DT_OP_ADD, z, g);
  dt_free(z);
  return r;
}

static dt_tensor *binary_own(const dt_site *site, dt_op op, dt_tensor *own, const dt_tensor *b) {
  if (own == NULL) return NULL;
  dt_tensor *r = dt__prim_binary(site, op, own, b);
  dt_free(own);
  return r;
}

static dt_tensor *neg_own(const dt_site *site, dt_tensor *own) {
  if (own == NULL) return NULL;
  dt_tensor *r = dt__prim_unary(site, DT_OP_NEG, own);
  dt_free(own);
  return r;
}

/* Adds own (the gradient for input i, shaped like it) to the input node's pending gradient.
   Returns 0, or -1 when a primitive failed (the failure is recorded). */
static int give(const dt_site *site, ad_input *in, dt_tensor *own) {
  if (own == NULL) return -1;
  dt_ad_node *p = in->node;
  if (p->pending == NULL) {
    p->pending = own;
    return 0;
  }
  dt_tensor *sum = dt__prim_binary(site, DT_OP_ADD, p->pending, own);
  dt_free(own);
  if (sum == NULL) return -1;
  dt_free(p->pending);
  p->pending = sum;
  return 0;
}

/* A zero of rank 0 on g's device (for masks and one-sided where). */
static dt_tensor *zero_like(const dt_site *site, const dt_tensor *g) {
  return dt__prim_fill(site, g->device, DT_FLOAT, 0.0f, 0, NULL);
}

static int grad_where(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  const dt_tensor *c = &n->in[0].val;
  dt_tensor *zero = zero_like(site, g);
  if (zero == NULL) return -1;
  int rc = 0;
  if (n->in[1].node != NULL)
    rc = give(site, &n->in[1], reduce_to(site, dt__prim_where(site, c, g, zero), &n->in[1].val));
  if (rc == 0 && n->in[2].node != NULL)
    rc = give(site, &n->in[2], reduce_to(site, dt__prim_where(site, c, zero, g), &n->in[2].val));
  dt_free(zero);
  return rc;
}

static int grad_relu(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  dt_tensor *zero = zero_like(site, g);
  if (zero == NULL) return -1;
  dt_tensor *mask = dt__prim_binary(site, DT_OP_GREATER, &n->in[0].val, zero);
  dt_tensor *r = mask == NULL ? NULL : dt__prim_where(site, mask, g, zero);
  dt_free(mask);
  dt_free(zero);
  return give(site, &n->in[0], r);
}

static int grad_matmul(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  if (n->in[0].node != NULL) { /* dA = G x B^T */
    dt_tensor *bt = dt__prim_transpose(site, &n->in[1].val);
    dt_tensor *r = bt == NULL ? NULL : dt__prim_matmul(site, g, bt);
    dt_free(bt);
    if (give(site, &n->in[0], r) != 0) return -1;
  }
  if (n->in[1].node != NULL) { /* dB = A^T x G */
    dt_tensor *at = dt__prim_transpose(site, &n->in[0].val);
    dt_tensor *r = at == NULL ? NULL : dt__prim_matmul(site, at, g);
    dt_free(at);
    if (give(site, &n->in[1], r) != 0) return -1;
  }
  return 0;
}

static int grad_cat(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  int axis = n->extra.axis;
  if (axis < 0) axis += g->rank;
  int64_t start = 0;
  for (int i = 0; i < n->n_in; i++) {
    int64_t len = n->in[i].val.shape[axis];
    if (n->in[i].node != NULL &&
        give(site, &n->in[i], dt__prim_narrow(site, g, axis, start, len)) != 0)
      return -1;
    start += len;
  }
  return 0;
}

static int grad_sum_dim(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  const dt_tensor *x = &n->in[0].val;
  int axis = n->extra.axis;
  if (axis < 0) axis += x->rank;
  /* g with the summed axis put back as length 1, then broadcast along it. */
  dt_tensor keep = *g;
  keep.rank = x->rank;
  for (int i = 0; i < x->rank; i++) keep.shape[i] = i == axis ? 1 : x->shape[i];
  return give(site, &n->in[0], expand(site, &keep, x));
}

static int grad_mse(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  const dt_tensor *p = &n->in[0].val, *t = &n->in[1].val;
  dt_tensor *d = dt__prim_binary(site, DT_OP_SUB, p, t);
  if (d == NULL) return -1;
  float scale = d->numel > 0 ? 2.0f / (float)d->numel : 0.0f;
  dt_tensor *dg = binary_own(site, DT_OP_MUL, d, g);
  dt_tensor *s = NULL;
  if (dg != NULL) {
    s = dt__prim_scalar(site, DT_OP_MUL_SCALAR, dg, scale);
    dt_free(dg);
  }
  if (s == NULL) return -1;
  if (n->in[1].node != NULL) {
    dt_tensor *st = dt__prim_unary(site, DT_OP_NEG, s);
    if (give(site, &n->in[1], reduce_to(site, st, t)) != 0) {
      dt_free(s);
      return -1;
    }
  }
  if (n->in[0].node != NULL) return give(site, &n->in[0], reduce_to(site, s, p));
  dt_free(s);
  return 0;
}

/* Runs n's gradient: gives each tracked input its share of g (borrowed). */
static int node_backward(const dt_site *site, dt_ad_node *n, const dt_tensor *g) {
  ad_input *a = &n->in[0];
  ad_input *b = n->n_in > 1 ? &n->in[1] : NULL;
  switch (n->op) {
    case DT_OP_ADD:
    case DT_OP_SUB:
      if (a->node != NULL && give(site, a, reduce_to(site, view_as(site, g, g->rank, g->shape),
                                                     &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      if (n->op == DT_OP_ADD)
        return give(site, b, reduce_to(site, view_as(site, g, g->rank, g->shape), &b->val));
      return give(site, b, reduce_to(site, dt__prim_unary(site, DT_OP_NEG, g), &b->val));
    case DT_OP_MUL:
      if (a->node != NULL &&
          give(site, a, reduce_to(site, dt__prim_binary(site, DT_OP_MUL, g, &b->val), &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      return give(site, b, reduce_to(site, dt__prim_binary(site, DT_OP_MUL, g, &a->val), &b->val));
    case DT_OP_DIV: /* d(a/b) = g/b da - g*(a/b)/b db */
      if (a->node != NULL &&
          give(site, a, reduce_to(site, dt__prim_binary(site, DT_OP_DIV, g, &b->val), &a->val)) != 0)
        return -1;
      if (b->node == NULL) return 0;
      return give(site, b,
                  reduce_to(site,
                            neg_own(site, binary_own(site, DT_OP_DIV,
                                                     dt__prim_binary(site, DT_OP_MUL, g, &n->out),
                                                     &b->val)),
                            &b->val));
    case DT_OP_MATMUL:
      return grad_matmul(site, n, g);
    case DT_OP_ADD_SCALAR:
      return give(site, a, view_as(site, g, g->rank, g->shape));
    case DT_OP_MUL_SCALAR:
      return give(site, a, dt__prim_scalar(site, DT_OP_MUL_SCALAR, g, n->extra.scalar));
    case DT_OP_NEG:
      return give(site, a, dt__prim_unary(site, DT_OP_NEG, g));
    case DT_OP_EXP:
      return give(site, a, dt__prim_binary(site, DT_OP_MUL, g, &n->out));
    case DT_OP_LOG:
      return give(site, a, dt__prim_binary(site, DT_OP_DIV, g, &a->val));
    case DT_OP_RELU:
      return grad_relu(site, n, g);
    case DT_OP_SIGMOID: { /* g*y*(1-y) = g*y - (g*y)*y */
      dt_tensor *gy = dt__prim_binary(site, DT_OP_MUL, g, &n->out);
      if (gy == NULL) return -1;
      dt_tensor *gyy = dt__prim_binary(site, DT_OP_MUL, gy, &n->out);
      dt_tensor *r = gyy == NULL ? NULL : dt__prim_binary(site, DT_OP_SUB, gy, gyy);
      dt_free(gy);
      dt_free(gyy);
      return give(site, a, r);
    }
    case DT_OP_TANH: { /* g*(1-y^2) = g - g*y*y */
      dt_tensor *yy = dt__prim_binary(site, DT_OP_MUL, &n->out, &n->out);
      dt_tensor *gyy = binary_own(site, DT_OP_MUL, yy, g);
      dt_tensor *r = gyy == NULL ? NULL : dt__prim_binary(site, DT_OP_SUB, g, gyy);
      dt_free(gyy);
      return give(site, a, r);
    }
    case DT_AD_OP_SUM:
      return give(site, a, expand(site, g, &a->val));
    case DT_AD_OP_MEAN: {
      float inv = a->val.numel > 0 ? 1.0f / (float)a->val.numel : 0.0f;
      dt_tensor *s = dt__prim_scalar(site, DT_OP_MUL_SCALAR, g, inv);
      if (s == NULL) return -1;
      dt_tensor *r = expand(site, s, &a->val);
      dt_free(s);
      return give(site, a, r);
    }
    case DT_OP_SUM_DIM:
      return grad_sum_dim(site, n, g);
    case DT_AD_OP_RESHAPE:
      return give(site, a, view_as(site, g, a->val.rank, a->val.shape));
    case DT_OP_TRANSPOSE:
      return give(site, a, dt__prim_transpose(site, g));
    case DT_OP_COPY_SLICE: /* dt_cat */
      return grad_cat(site, n, g);
    case DT_OP_WHERE:
      return grad_where(site, n, g);
    case DT_OP_MSE:
      return grad_mse(site, n, g);
    case DT_AD_OP_TO_DEVICE:
      if (dt_device_equal(g->device, a->val.device))
        return give(site, a, view_as(site, g, g->rank, g->shape));
      return give(site, a, dt__prim_copy_to(site, g, a->val.device));
    default:
      dt__fail(site, DT_ERR_INVALID_ARGUMENT, "No gradient is defined for operation %d", n->op);
      return -1;
  }
}

/* ---- backward ---- */

typedef struct node_vec {
  dt_ad_node **v;
  size_t n, cap;
} node_vec;

static int vec_push(node_vec *s, dt_ad_node *x) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    dt_ad_node **v = dt__alloc_should_fail() ? NULL : realloc(s->v, cap * sizeof *v);
    if (v == NULL) return -1;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = x;
  return 0;
}

/* Post-order of root's graph (inputs before the nodes computed from them), without recursion. */
typedef struct dfs_frame {
  dt_ad_node *node;
  int next; /* the next input to visit */
} dfs_frame;

static int topo_order(const dt_site *site, dt_ad_node *root, node_vec *order) {
  static atomic_uint epoch_counter;
  unsigned epoch = 0;
  while (epoch == 0) epoch = atomic_fetch_add_explicit(&epoch_counter, 1, memory_order_relaxed) + 1;
  dfs_frame *stack = NULL;
  size_t depth = 0, cap = 0;
  int rc = 0;
  root->mark = epoch;
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
      if (c != NULL && c->mark != epoch) {
        c->mark = epoch;
        push = c;
        break;
      }
    }
    if (push != NULL) continue;
    if (vec_push(order, f->node) != 0) goto oom;
    depth--;
  }
  goto done;
oom:
  dt__fail(site, DT_ERR_OUT_OF_MEMORY, "Out of host memory ordering the autodiff graph");
  rc = -1;
done:
  free(stack);
  return rc;
}

/* Adds g (owned) to a node's kept gradient, when its handle is still live. */
static int keep_grad(const dt_site *site, dt_ad_node *x, dt_tensor *g) {
  if (!x->has_handle) {
    dt_free(g);
    return 0;
  }
  if (x->grad == NULL) {
    x->grad = g;
    return 0;
  }
  dt_tensor *sum = dt__prim_binary(site, DT_OP_ADD, x->grad, g);
  dt_free(g);
  if (sum == NULL) return -1;
  dt_free(x->grad);
  x->grad = sum;
  return 0;
}

static dt_status run_backward(const dt_site *site, const dt_tensor *loss) {
  node_vec order = {0};
  dt_status st = DT_OK;
  dt_ad_node *root = loss->node;
  if (topo_order(site, root, &order) != 0) goto fail;
  root->pending = dt__prim_fill(site, dt_inner_device(loss->device), DT_FLOAT, 1.0f, loss->rank,
                                loss->shape);
  if (root->pending == NULL) goto fail;
  /* Reverse post-order: every node after all the nodes computed from it. */
  for (size_t k = order.n; k-- > 0;) {
    dt_ad_node *x = order.v[k];
    dt_tensor *g = x->pending;
    x->pending = NULL;
    if (g == NULL) continue;
    if (x->n_in > 0 && node_backward(site, x, g) != 0) {
      dt_free(g);
      goto fail;
    }
    if (keep_grad(site, x, g) != 0) goto fail;
  }
  goto done;
fail:
  st = dt_last_status();
  if (st == DT_OK) st = DT_ERR_OUT_OF_MEMORY;
  for (size_t k = 0; k < order.n; k++) {
    dt_free(order.v[k]->pending);
    order.v[k]->pending = NULL;
  }
done:
  free(order.v);
  return st;
}

/* ---- public entry points ---- */

/* autodiff-expected for functions that need an autodiff tensor. */
static dt_status need_autodiff(const dt_site *site, const dt_tensor *t) {
  dt_status st = dt__check_live(site, t, "The tensor");
  if (st != DT_OK || t->device.autodiff) return st;
  char dev[64];
  dt_device_name(t->device, dev, sizeof dev);
  return dt__fail(site, DT_ERR_AUTODIFF_EXPECTED, "Expected autodiff-wrapped %s tensor, got %s",
                  dt__kind_name(t->kind), dev);
}

static dt_status need_float(const dt_site *site, const dt_tensor *t, const char *what) {
  if (t->kind == DT_FLOAT) return DT_OK;
  char tag[96];
  dt__tag_string(t, tag, sizeof tag);
  return dt__fail(site, DT_ERR_KIND_MISMATCH, "%s needs a float tensor (got %s)", what, tag);
}

/* dt_from_inner's failure, with both tags named (formatted only when failing). */
static dt_tensor *from_inner_fail(const dt_site *site, dt_status st, dt_device ad,
                                  const dt_tensor *inner) {
  char want[64], got[64];
  dt_device_name(ad, want, sizeof want);
  dt_device_name(inner->device, got, sizeof got);
  switch (st) {
    case DT_ERR_INVALID_ARGUMENT:
      dt__fail(site, st, "Invalid device %s (unknown backend or negative ordinal)", want);
      break;
    case DT_ERR_AUTODIFF_NESTED:
      dt__fail(site, st, "Autodiff should not wrap an autodiff tensor (got %s for %s)", got, want);
      break;
    case DT_ERR_AUTODIFF_EXPECTED:
      dt__fail(site, st, "Expected an autodiff device to wrap the tensor in, got %s", want);
      break;
    case DT_ERR_AUTODIFF_INNER_BACKEND:
      dt_device_name(dt_inner_device(ad), want, sizeof want);
      dt__fail(site, st, "Autodiff %s tensor is on the wrong backend (expected %s, got %s)",
               dt__kind_name(inner->kind), want, got);
      break;
    case DT_ERR_DEVICE_MISMATCH:
      dt_device_name(dt_inner_device(ad), want, sizeof want);
      dt__fail(site, st, "Input tensor is on the wrong device (expected %s, got %s)", want, got);
      break;
    case DT_OK:
    case DT_ERR_BACKEND_MISMATCH:
    case DT_ERR_KIND_MISMATCH:
    case DT_ERR_BACKEND_UNAVAILABLE:
    case DT_ERR_SHAPE:
    case DT_ERR_OUT_OF_MEMORY:
    case DT_ERR_DEVICE:
      dt__fail(site, st, "Cannot wrap %s in %s", got, want);
      break;
  }
  return NULL;
}

dt_tensor *dt_from_inner_at(DT_SITE_PARAMS, dt_device ad, dt_tensor *inner) {
  dt_site site = {dt_file_, dt_line_, "dt_from_inner"};
  if (dt__check_live(&site, inner, "The inner tensor") != DT_OK) return NULL;
  /* SPEC §4's precedence: invalid arguments, autodiff-nested, autodiff-expected,
     autodiff-inner-backend, device-mismatch. */
  dt_device expect = dt_inner_device(ad);
  if (!dt__device_valid(ad))
    return from_inner_fail(&site, DT_ERR_INVALID_ARGUMENT, ad, inner);
  if (inner->device.autodiff) return from_inner_fail(&site, DT_ERR_AUTODIFF_NESTED, ad, inner);
  if (!ad.autodiff) return from_inner_fail(&site, DT_ERR_AUTODIFF_EXPECTED, ad, inner);
  if (inner->device.backend != expect.backend)
    return from_inner_fail(&site, DT_ERR_AUTODIFF_INNER_BACKEND, ad, inner);
  if (inner->device.ordinal != expect.ordinal)
    return from_inner_fail(&site, DT_ERR_DEVICE_MISMATCH, ad, inner);
  dt_tensor *r = dt__tensor_view(&site, inner, ad, inner->rank, inner->shape);
  if (r != NULL) dt__ok();
  return r;
}
dt_tensor *dt_from_inner(dt_device ad, dt_tensor *inner) { return dt_from_inner_at(NULL, 0, ad, inner); }

dt_tensor *dt_inner_at(DT_SITE_PARAMS, const dt_tensor *t) {
  dt_site site = {dt_file_, dt_line_, "dt_inner"};
  if (need_autodiff(&site, t) != DT_OK) return NULL;
  dt_tensor *r = dt__tensor_view(&site, t, dt_inner_device(t->device), t->rank, t->shape);
  if (r != NULL) dt__ok();
  return r;
}
dt_tensor *dt_inner(const dt_tensor *t) { return dt_inner_at(NULL, 0, t); }

dt_tensor *dt_require_grad_at(DT_SITE_PARAMS, dt_tensor *t) {
  dt_site site = {dt_file_, dt_line_, "dt_require_grad"};
  if (need_autodiff(&site, t) != DT_OK || need_float(&site, t, "dt_require_grad") != DT_OK)
    return NULL;
  if (t->node == NULL || t->node->op != AD_LEAF) {
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
  return t;
}
dt_tensor *dt_require_grad(dt_tensor *t) { return dt_require_grad_at(NULL, 0, t); }

dt_tensor *dt_detach_at(DT_SITE_PARAMS, const dt_tensor *t) {
  dt_site site = {dt_file_, dt_line_, "dt_detach"};
  if (dt__check_live(&site, t, "The tensor") != DT_OK) return NULL;
  dt_tensor *r = dt__tensor_view(&site, t, t->device, t->rank, t->shape);
  if (r != NULL) dt__ok();
  return r;
}
dt_tensor *dt_detach(const dt_tensor *t) { return dt_detach_at(NULL, 0, t); }

int dt_backward_at(DT_SITE_PARAMS, dt_tensor *loss) {
  dt_site site = {dt_file_, dt_line_, "dt_backward"};
  dt_status st = need_autodiff(&site, loss);
  if (st == DT_OK) st = need_float(&site, loss, "dt_backward");
  if (st == DT_OK && loss->numel != 1)
    st = dt__fail(&site, DT_ERR_SHAPE,
                  "The loss must have exactly one element (got %lld elements of rank %d)",
                  (long long)loss->numel, loss->rank);
  if (st == DT_OK && loss->node != NULL) st = run_backward(&site, loss);
  if (st == DT_OK) dt__ok();
  return (int)st;
}
int dt_backward(dt_tensor *loss) { return dt_backward_at(NULL, 0, loss); }

dt_tensor *dt_grad_at(DT_SITE_PARAMS, const dt_tensor *t) {
  dt_site site = {dt_file_, dt_line_, "dt_grad"};
  if (need_autodiff(&site, t) != DT_OK) return NULL;
  dt_tensor *r = NULL;
  if (t->node != NULL && t->node->grad != NULL) {
    const dt_tensor *g = t->node->grad;
    r = dt__tensor_view(&site, g, g->device, t->rank, t->shape);
    if (r == NULL) return NULL;
  }
  dt__ok();
  return r;
}
dt_tensor *dt_grad(const dt_tensor *t) { return dt_grad_at(NULL, 0, t); }
