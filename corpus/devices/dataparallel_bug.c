// provenance: blind round field6
// Data-parallel training over two replicas: replica r holds a copy of a linear model on
// autodiff<sim:r> and trains on its own shard.  After each backward pass the gradients are
// all-reduced onto replica 0's device and averaged.  Two mistakes:
//  * the loss log concatenates the two replicas' (tracked) losses, which live on sim:0 and
//    sim:1;
//  * the averaged gradient is applied to both replicas without broadcasting it back, so
//    apply_update() fails for replica 1 (its weights are on sim:1, the average on sim:0).
// The bias gradient goes through broadcast() and is correct.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

#define NREP 2
#define IN 3
#define ROWS 2
#define STEPS 2

typedef struct replica {
  int rank;
  dt_device ad;     /* autodiff<sim:rank> */
  dt_device plain;  /* sim:rank */
  dt_tensor *w;     /* IN x 1 */
  dt_tensor *b;     /* 1 */
  dt_tensor *x, *y; /* this replica's shard, tracked */
} replica;

typedef struct reduced {
  dt_tensor *gw;
  dt_tensor *gb;
  dt_device home;
} reduced;

static const int64_t WS[2] = {IN, 1};
static const int64_t BS[1] = {1};
static const int64_t XS[2] = {ROWS, IN};
static const int64_t YS[2] = {ROWS, 1};
static const int64_t ONE[1] = {1};

static dt_tensor *leaf(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return dt_require_grad(t);
}

static dt_tensor *wrap(dt_device ad, dt_tensor *plain) {
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return t;
}

static void replica_init(replica *r, int rank, const float *w0) {
  memset(r, 0, sizeof *r);
  r->rank = rank;
  r->plain = dt_sim(rank);
  r->ad = dt_autodiff(r->plain);
  r->w = leaf(r->ad, dt_from_floats(r->plain, w0, 2, WS));
  r->b = leaf(r->ad, dt_zeros(r->plain, DT_FLOAT, 1, BS));
  float xv[ROWS * IN], yv[ROWS];
  for (int i = 0; i < ROWS * IN; i++)
    xv[i] = (float)((i + 2 * rank) % 4) * 0.5f;
  for (int i = 0; i < ROWS; i++)
    yv[i] = (float)(rank + i);
  r->x = wrap(r->ad, dt_from_floats(r->plain, xv, 2, XS));
  r->y = wrap(r->ad, dt_from_floats(r->plain, yv, 2, YS));
}

static void replica_free(replica *r) {
  dt_free(r->w);
  dt_free(r->b);
  dt_free(r->x);
  dt_free(r->y);
}

static dt_tensor *replica_loss(const replica *r) {
  dt_tensor *h = dt_matmul(r->x, r->w);
  dt_tensor *p = dt_add(h, r->b);
  dt_tensor *l = dt_mse_loss(p, r->y);
  dt_free(h);
  dt_free(p);
  return l;
}

static dt_tensor *sum_to(dt_tensor *const *parts, int n, dt_device home) {
  dt_tensor *acc = dt_to_device(parts[0], home);
  for (int i = 1; i < n; i++) {
    dt_tensor *moved = dt_to_device(parts[i], home);
    dt_tensor *s = dt_add(acc, moved);
    dt_free(acc);
    dt_free(moved);
    acc = s;
  }
  dt_tensor *mean = dt_mul_scalar(acc, 1.0f / (float)n);
  dt_free(acc);
  return mean;
}

static void allreduce(replica *reps, int n, reduced *out) {
  dt_tensor *gw[NREP], *gb[NREP];
  for (int r = 0; r < n; r++) {
    gw[r] = dt_grad(reps[r].w);
    gb[r] = dt_grad(reps[r].b);
  }
  out->home = reps[0].plain;
  out->gw = sum_to(gw, n, out->home);
  out->gb = sum_to(gb, n, out->home);
  for (int r = 0; r < n; r++) {
    dt_free(gw[r]);
    dt_free(gb[r]);
  }
}

static dt_tensor *broadcast(const dt_tensor *g, const replica *r) {
  return dt_to_device(g, r->plain);
}

static void apply_update(replica *r, const reduced *g, float lr) {
  dt_tensor *wi = dt_inner(r->w);
  dt_tensor *sw = dt_mul_scalar(g->gw, lr);
  dt_tensor *nw = dt_sub(wi, sw); // expect-error: device-mismatch
  dt_tensor *gb_here = broadcast(g->gb, r);
  dt_tensor *bi = dt_inner(r->b);
  dt_tensor *sb = dt_mul_scalar(gb_here, lr);
  dt_tensor *nb = dt_sub(bi, sb);
  dt_free(r->w);
  dt_free(r->b);
  r->w = leaf(r->ad, nw);
  r->b = leaf(r->ad, nb);
  dt_free(wi);
  dt_free(sw);
  dt_free(gb_here);
  dt_free(bi);
  dt_free(sb);
}

static void log_losses(dt_tensor *const *losses, int n) {
  dt_tensor *flat[NREP];
  for (int r = 0; r < n; r++)
    flat[r] = dt_reshape(losses[r], 1, ONE);
  dt_tensor *all = dt_cat(n, flat, 0); // expect-error: device-mismatch
  float v[NREP] = {0};
  if (all != NULL)
    dt_read_floats(all, v, n);
  printf("losses %.4f %.4f\n", (double)v[0], (double)v[1]);
  dt_free(all);
  for (int r = 0; r < n; r++)
    dt_free(flat[r]);
}

/* global gradient-norm clipping, computed on the reduction's home device */
static float grad_norm(const reduced *g) {
  dt_tensor *w2 = dt_mul(g->gw, g->gw);
  dt_tensor *b2 = dt_mul(g->gb, g->gb);
  dt_tensor *sw = dt_sum(w2);
  dt_tensor *sb = dt_sum(b2);
  dt_tensor *tot = dt_add(sw, sb);
  float v = 0.0f;
  dt_read_floats(tot, &v, 1);
  dt_tensor *all[] = {w2, b2, sw, sb, tot};
  for (int i = 0; i < 5; i++)
    dt_free(all[i]);
  return v;
}

static void clip(reduced *g, float max_norm2) {
  float n2 = grad_norm(g);
  if (n2 <= max_norm2)
    return;
  float f = max_norm2 / n2;
  dt_tensor *cw = dt_mul_scalar(g->gw, f);
  dt_tensor *cb = dt_mul_scalar(g->gb, f);
  dt_free(g->gw);
  dt_free(g->gb);
  g->gw = cw;
  g->gb = cb;
}

static void train_step(replica *reps, float lr) {
  dt_tensor *losses[NREP];
  for (int r = 0; r < NREP; r++) {
    losses[r] = replica_loss(&reps[r]);
    dt_backward(losses[r]);
  }
  log_losses(losses, NREP);
  reduced g;
  allreduce(reps, NREP, &g);
  clip(&g, 4.0f);
  apply_update(&reps[0], &g, lr);
  apply_update(&reps[1], &g, lr);
  dt_free(g.gw);
  dt_free(g.gb);
  for (int r = 0; r < NREP; r++)
    dt_free(losses[r]);
}

static int replicas_agree(const replica *reps) {
  float a[IN], b[IN];
  dt_tensor *w0 = dt_inner(reps[0].w);
  dt_tensor *w1 = dt_inner(reps[1].w);
  dt_read_floats(w0, a, IN);
  dt_read_floats(w1, b, IN);
  dt_free(w0);
  dt_free(w1);
  for (int i = 0; i < IN; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

int main(void) {
  const float w0[IN] = {0.1f, 0.2f, 0.3f};
  replica reps[NREP];
  for (int r = 0; r < NREP; r++)
    replica_init(&reps[r], r, w0);
  for (int s = 0; s < STEPS; s++)
    train_step(reps, 0.05f);
  printf("replicas agree: %d\n", replicas_agree(reps));
  for (int r = 0; r < NREP; r++)
    replica_free(&reps[r]);
  return 0;
}
