// Mixture of experts with top-1 routing: a softmax gate on autodiff<sim:0>, experts placed
// round-robin on their own autodiff devices (sim:0, sim:1, cpu), tokens dispatched to each
// expert's device and gathered back, plus a load-balancing auxiliary loss.
// run-args: 3 4
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define DM 6
#define TOK 8
#define MAXE 4

typedef struct Expert {
  dt_device ad;
  dt_tensor *w; /* plain [DM, DM] on the expert's inner device */
  int routed;
} Expert;

typedef struct Moe {
  dt_device ad; /* the gate's (and the residual stream's) device */
  dt_tensor *gate; /* plain [DM, E] */
  Expert experts[MAXE];
  int n;
} Moe;

static dt_device expert_home(int i) {
  switch (i % 3) {
  case 0: return dt_autodiff(dt_sim(0));
  case 1: return dt_autodiff(dt_sim(1));
  default: return dt_autodiff(dt_cpu());
  }
}

static void moe_init(Moe *m, int n) {
  int64_t gs[2] = {DM, n}, ws[2] = {DM, DM};
  m->ad = dt_autodiff(dt_sim(0));
  m->n = n;
  m->gate = dt_mul_scalar(dt_randn(dt_inner_device(m->ad), 3, 2, gs), 0.5f);
  for (int i = 0; i < n; i++) {
    m->experts[i].ad = expert_home(i);
    m->experts[i].w = dt_mul_scalar(dt_randn(dt_inner_device(m->experts[i].ad), 10 + (uint64_t)i, 2, ws), 0.3f);
    m->experts[i].routed = 0;
  }
}

static dt_tensor *softmax_rows(dt_tensor *logits, int cols) {
  int64_t cs[2] = {TOK, 1};
  (void)cols;
  dt_tensor *e = dt_exp(logits);
  dt_tensor *z = dt_reshape(dt_sum_dim(e, 1), 2, cs);
  dt_tensor *p = dt_div(e, z);
  dt_free(e); dt_free(z);
  return p;
}

/* host-side top-1: the expert index of each token */
static void top1(dt_tensor *probs, int n, int *choice) {
  float host[TOK * MAXE];
  dt_read_floats(probs, host, TOK * MAXE);
  for (int t = 0; t < TOK; t++) {
    int best = 0;
    for (int e = 1; e < n; e++)
      if (host[t * n + e] > host[t * n + best]) best = e;
    choice[t] = best;
  }
}

/* the gate probability of expert e for the tokens routed to it, zero elsewhere: [TOK, 1] */
static dt_tensor *route_weight(const Moe *m, dt_tensor *probs, const int *choice, int e) {
  float sel[MAXE] = {0};
  int64_t routed[TOK];
  int64_t ss[2] = {m->n, 1}, ms[2] = {TOK, 1};
  sel[e] = 1.0f;
  for (int t = 0; t < TOK; t++) routed[t] = choice[t] == e;
  dt_tensor *pick = dt_from_floats(m->ad, sel, 2, ss);
  dt_tensor *col = dt_matmul(probs, pick);
  dt_tensor *mask = dt_from_ints(m->ad, routed, 2, ms);
  dt_tensor *w = dt_mul(col, mask); // expect-error: kind-mismatch
  dt_free(pick); dt_free(col); dt_free(mask);
  return w;
}

static dt_tensor *expert_forward(const Expert *ex, dt_tensor *w_tracked, dt_tensor *x, dt_device home) {
  dt_tensor *xe = dt_to_device(x, ex->ad);
  dt_tensor *y = dt_relu(dt_matmul(xe, w_tracked));
  dt_tensor *back = dt_to_device(y, home);
  dt_free(xe); dt_free(y);
  return back;
}

static float moe_step(Moe *m, const float *tokens, const float *target, float lr, float aux_coef) {
  int64_t xs[2] = {TOK, DM};
  int choice[TOK];
  dt_tensor *gate = dt_require_grad(dt_from_inner(m->ad, m->gate));
  dt_tensor *ew[MAXE];
  for (int e = 0; e < m->n; e++) ew[e] = dt_require_grad(dt_from_inner(m->experts[e].ad, m->experts[e].w));
  dt_tensor *x = dt_from_floats(m->ad, tokens, 2, xs);
  dt_tensor *probs = softmax_rows(dt_matmul(x, gate), m->n);
  top1(probs, m->n, choice);
  dt_tensor *out = dt_zeros(m->ad, DT_FLOAT, 2, xs);
  for (int e = 0; e < m->n; e++) {
    dt_tensor *w = route_weight(m, probs, choice, e);
    dt_tensor *y = expert_forward(&m->experts[e], ew[e], x, m->ad);
    dt_tensor *acc = dt_add(out, dt_mul(y, w));
    dt_free(out); dt_free(w); dt_free(y);
    out = acc;
    for (int t = 0; t < TOK; t++) m->experts[e].routed += choice[t] == e;
  }
  dt_tensor *res = dt_add(out, x);
  dt_tensor *y_t = dt_from_floats(m->ad, target, 2, xs);
  dt_tensor *importance = dt_mean(dt_mul(probs, probs));
  dt_tensor *loss = dt_add(dt_mse_loss(res, y_t), dt_mul_scalar(importance, aux_coef));
  float lv = 0.0f;
  dt_read_floats(loss, &lv, 1);
  dt_backward(loss);
  dt_tensor *gg = dt_grad(gate);
  if (gg) { dt_tensor *n = dt_sub(m->gate, dt_mul_scalar(gg, lr)); dt_free(m->gate); m->gate = n; dt_free(gg); }
  for (int e = 0; e < m->n; e++) {
    dt_tensor *g = dt_grad(ew[e]);
    if (!g) continue; /* an expert no token reached */
    dt_tensor *n = dt_sub(m->experts[e].w, dt_mul_scalar(g, lr));
    dt_free(m->experts[e].w);
    m->experts[e].w = n;
    dt_free(g);
  }
  dt_free(x); dt_free(probs); dt_free(out); dt_free(res); dt_free(y_t); dt_free(importance); dt_free(loss);
  return lv;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  int steps = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1) n = 1;
  if (n > MAXE) n = MAXE;
  Moe m;
  moe_init(&m, n);
  float tokens[TOK * DM], target[TOK * DM];
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < TOK * DM; i++) {
      tokens[i] = (float)(((i * 5 + s) % 9) - 4) / 4.0f;
      target[i] = tokens[i] * (i % 2 ? 0.5f : -0.5f);
    }
    float l = moe_step(&m, tokens, target, 0.05f, s < 2 ? 0.0f : 0.01f);
    printf("step %d loss %.4f\n", s, l);
  }
  for (int e = 0; e < n; e++) printf("expert %d tokens %d\n", e, m.experts[e].routed);
  dt_free(m.gate);
  for (int e = 0; e < n; e++) dt_free(m.experts[e].w);
  return 0;
}
