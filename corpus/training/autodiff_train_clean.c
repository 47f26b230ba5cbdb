// provenance: blind round field7
/* autodiff_train_clean.c — a two-tower model trained with autodiff across two accelerators:
 * the user tower lives on autodiff<sim:1>, the item tower on autodiff<sim:0>; user embeddings
 * are moved to autodiff<sim:0> (tracked moves keep the graph), the loss is computed there, and
 * gradients flow back to both towers. Int ids and bool masks of the autodiff context are used
 * only with operations that accept them. Updates go through dt_inner / dt_from_inner on each
 * tower's own device. Correct on every input. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define E 4
#define U 3
#define I 3

typedef struct {
  dt_device ad;
  dt_tensor *table; /* [n, E] */
  dt_tensor *proj;  /* [E, E] */
} tower;

typedef struct {
  tower user, item;
  float lr;
  int steps;
} twotower;

static dt_tensor *tracked_param(dt_device ad, uint64_t seed, int r, int c) {
  const int64_t s[] = {r, c};
  dt_tensor *raw = dt_randn(ad, seed, 2, s);
  dt_tensor *p = dt_mul_scalar(raw, 0.5f);
  dt_free(raw);
  return dt_require_grad(p);
}

static void tower_init(tower *t, dt_device ad, int n, uint64_t seed) {
  t->ad = ad;
  t->table = tracked_param(ad, seed, n, E);
  t->proj = tracked_param(ad, seed + 100u, E, E);
}

static void tower_free(tower *t) {
  dt_free(t->table);
  dt_free(t->proj);
}

static dt_tensor *tower_encode(const tower *t) {
  dt_tensor *h = dt_matmul(t->table, t->proj);
  dt_tensor *a = dt_tanh(h);
  dt_free(h);
  return a;
}

static void sgd_param(dt_tensor **p, dt_device ad, float lr) {
  dt_tensor *g = dt_grad(*p);
  if (!g) return;
  dt_tensor *v = dt_inner(*p);
  dt_tensor *gs = dt_mul_scalar(g, lr);
  dt_tensor *nv = dt_sub(v, gs);
  dt_free(*p);
  *p = dt_require_grad(dt_from_inner(ad, nv));
  dt_free(v);
  dt_free(gs);
  dt_free(g);
}

static void tower_step(tower *t, float lr) {
  sgd_param(&t->table, t->ad, lr);
  sgd_param(&t->proj, t->ad, lr);
}

/* affinity targets: 1 where user id == item id (as float on the loss device) */
static dt_tensor *targets(dt_device ad) {
  float buf[U * I];
  for (int u = 0; u < U; ++u)
    for (int i = 0; i < I; ++i) buf[u * I + i] = u == i ? 1.0f : 0.0f;
  const int64_t s[] = {U, I};
  dt_tensor *h = dt_from_floats(dt_inner_device(ad), buf, 2, s);
  dt_tensor *t = dt_from_inner(ad, h);
  dt_free(h);
  return t;
}

static float step(twotower *m, const dt_tensor *y) {
  dt_tensor *ue = tower_encode(&m->user);
  dt_tensor *ie = tower_encode(&m->item);
  dt_tensor *ue0 = dt_to_device(ue, m->item.ad);
  dt_tensor *iet = dt_transpose(ie);
  dt_tensor *scores = dt_matmul(ue0, iet);
  dt_tensor *loss = dt_mse_loss(scores, y);
  dt_backward(loss);
  tower_step(&m->user, m->lr);
  tower_step(&m->item, m->lr);
  float v = 0.0f;
  dt_read_floats(loss, &v, 1);
  dt_free(ue);
  dt_free(ie);
  dt_free(ue0);
  dt_free(iet);
  dt_free(scores);
  dt_free(loss);
  return v;
}

/* ranking metric: how many users score their own item above the mean score */
static int hits(const twotower *m) {
  dt_tensor *ue = tower_encode(&m->user);
  dt_tensor *ie = tower_encode(&m->item);
  dt_tensor *ue0 = dt_to_device(ue, m->item.ad);
  dt_tensor *frozen = dt_detach(ue0);
  dt_tensor *iet = dt_transpose(ie);
  dt_tensor *scores = dt_matmul(frozen, iet);
  dt_tensor *avg = dt_mean(scores);
  dt_tensor *above = dt_greater(scores, avg);
  const int64_t s[] = {U, I};
  dt_tensor *one = dt_ones(m->item.ad, DT_FLOAT, 2, s);
  dt_tensor *zero = dt_zeros(m->item.ad, DT_FLOAT, 2, s);
  dt_tensor *flag = dt_where(above, one, zero);
  int64_t ids[U * I];
  for (int k = 0; k < U * I; ++k) ids[k] = (k / I == k % I) ? 1 : 0;
  dt_tensor *diag = dt_from_ints(m->item.ad, ids, 2, s);
  dt_tensor *diag2 = dt_add(diag, diag);
  dt_tensor *nd = dt_sum(diag2);
  int64_t two_u = 0;
  dt_read_ints(nd, &two_u, 1);
  float f[U * I] = {0};
  dt_read_floats(flag, f, U * I);
  int h = 0;
  for (int u = 0; u < U; ++u) h += f[u * I + u] > 0.5f;
  printf("diagonal check %lld (expected %d)\n", (long long)two_u, 2 * U);
  dt_free(ue);
  dt_free(ie);
  dt_free(ue0);
  dt_free(frozen);
  dt_free(iet);
  dt_free(scores);
  dt_free(avg);
  dt_free(above);
  dt_free(one);
  dt_free(zero);
  dt_free(flag);
  dt_free(diag);
  dt_free(diag2);
  dt_free(nd);
  return h;
}

int main(int argc, char **argv) {
  twotower m;
  m.lr = 0.2f;
  m.steps = argc > 1 ? atoi(argv[1]) : 12;
  if (m.steps < 0) m.steps = 0;
  tower_init(&m.user, dt_autodiff(dt_sim(1)), U, 1u);
  tower_init(&m.item, dt_autodiff(dt_sim(0)), I, 2u);
  dt_tensor *y = targets(m.item.ad);
  float l = 0.0f;
  for (int s = 0; s < m.steps; ++s) l = step(&m, y);
  printf("loss after %d steps: %.5f, hits %d/%d\n", m.steps, l, hits(&m), U);
  dt_free(y);
  tower_free(&m.user);
  tower_free(&m.item);
  return 0;
}
