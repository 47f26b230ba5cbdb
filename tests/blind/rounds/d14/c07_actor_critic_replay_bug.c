// Off-policy actor-critic with a host replay buffer: policy and value nets trained on
// autodiff<device>, a Polyak-averaged target critic kept plain on the inner device, TD targets
// computed without a graph, advantage-weighted policy gradient.
// run-args: sim1 40 8
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SD 4
#define HID 8
#define BATCH 6
#define CAP 64

typedef struct Transition { float s[SD], s2[SD]; float a, r, done; } Transition;

typedef struct Replay {
  Transition buf[CAP];
  int size, head;
  uint64_t rng;
} Replay;

typedef struct Mlp { dt_tensor *w1, *w2; } Mlp; /* plain weights */

typedef struct Agent {
  dt_device ad;
  Mlp actor, critic, target; /* target: plain copy of critic, never tracked */
  float gamma, tau, lr;
} Agent;

static dt_device parse_device(const char *s) {
  if (!strcmp(s, "sim0")) return dt_sim(0);
  if (!strcmp(s, "sim1")) return dt_sim(1);
  if (!strcmp(s, "cuda")) return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_cpu();
  return dt_cpu();
}

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }

static void replay_push(Replay *rb, const Transition *t) {
  rb->buf[rb->head] = *t;
  rb->head = (rb->head + 1) % CAP;
  if (rb->size < CAP) rb->size++;
}

static void replay_sample(Replay *rb, float *s, float *s2, float *a, float *r, float *nd) {
  for (int i = 0; i < BATCH; i++) {
    const Transition *t = &rb->buf[lcg(&rb->rng) % (uint64_t)rb->size];
    memcpy(s + i * SD, t->s, sizeof t->s);
    memcpy(s2 + i * SD, t->s2, sizeof t->s2);
    a[i] = t->a; r[i] = t->r; nd[i] = 1.0f - t->done;
  }
}

static void mlp_init(Mlp *m, dt_device d, uint64_t seed) {
  int64_t s1[2] = {SD, HID}, s2[2] = {HID, 1};
  m->w1 = dt_mul_scalar(dt_randn(d, seed, 2, s1), 0.3f);
  m->w2 = dt_mul_scalar(dt_randn(d, seed + 1, 2, s2), 0.3f);
}

static dt_tensor *mlp_apply(dt_tensor *w1, dt_tensor *w2, dt_tensor *x) {
  dt_tensor *h = dt_tanh(dt_matmul(x, w1));
  dt_tensor *y = dt_matmul(h, w2);
  dt_free(h);
  return y;
}

static void sgd(dt_tensor **w, dt_tensor *tracked, float lr) {
  dt_tensor *g = dt_grad(tracked);
  if (!g) return;
  dt_tensor *n = dt_sub(*w, dt_mul_scalar(g, lr));
  dt_free(*w); dt_free(g);
  *w = n;
}

static dt_tensor *td_target(const Agent *ag, dt_tensor *s2, dt_tensor *r, dt_tensor *nd) {
  dt_tensor *v2 = mlp_apply(ag->target.w1, ag->target.w2, s2);
  dt_tensor *y = dt_add(r, dt_mul(dt_mul_scalar(v2, ag->gamma), nd));
  dt_free(v2);
  return y;
}

static dt_tensor *critic_loss(const Agent *ag, dt_tensor *w1, dt_tensor *w2, dt_tensor *s, dt_tensor *y) {
  dt_tensor *xs = dt_from_inner(ag->ad, s);
  dt_tensor *v = mlp_apply(w1, w2, xs);
  dt_tensor *loss = dt_mse_loss(v, y); // expect-error: autodiff-expected
  dt_free(xs); dt_free(v);
  return loss;
}

static void polyak(Mlp *tgt, const Mlp *src, float tau) {
  dt_tensor *a = dt_add(dt_mul_scalar(tgt->w1, 1.0f - tau), dt_mul_scalar(src->w1, tau));
  dt_tensor *b = dt_add(dt_mul_scalar(tgt->w2, 1.0f - tau), dt_mul_scalar(src->w2, tau));
  dt_free(tgt->w1); dt_free(tgt->w2);
  tgt->w1 = a; tgt->w2 = b;
}

static float learn(Agent *ag, Replay *rb) {
  float s[BATCH * SD], s2[BATCH * SD], a[BATCH], r[BATCH], nd[BATCH];
  int64_t xs[2] = {BATCH, SD}, cs[2] = {BATCH, 1};
  dt_device dev = dt_inner_device(ag->ad);
  replay_sample(rb, s, s2, a, r, nd);
  dt_tensor *ts = dt_from_floats(dev, s, 2, xs), *ts2 = dt_from_floats(dev, s2, 2, xs);
  dt_tensor *tr = dt_from_floats(dev, r, 2, cs), *tnd = dt_from_floats(dev, nd, 2, cs);
  dt_tensor *y = td_target(ag, ts2, tr, tnd);
  /* critic */
  dt_tensor *c1 = dt_require_grad(dt_from_inner(ag->ad, ag->critic.w1));
  dt_tensor *c2 = dt_require_grad(dt_from_inner(ag->ad, ag->critic.w2));
  dt_tensor *lc = critic_loss(ag, c1, c2, ts, y);
  float lv = 0.0f;
  dt_read_floats(lc, &lv, 1);
  dt_backward(lc);
  sgd(&ag->critic.w1, c1, ag->lr);
  sgd(&ag->critic.w2, c2, ag->lr);
  /* actor: advantage from the updated critic, without a graph */
  dt_tensor *adv = dt_sub(y, mlp_apply(ag->critic.w1, ag->critic.w2, ts));
  dt_tensor *p1 = dt_require_grad(dt_from_inner(ag->ad, ag->actor.w1));
  dt_tensor *p2 = dt_require_grad(dt_from_inner(ag->ad, ag->actor.w2));
  dt_tensor *prob = dt_sigmoid(mlp_apply(p1, p2, dt_from_inner(ag->ad, ts)));
  dt_tensor *act = dt_from_floats(ag->ad, a, 2, cs);
  dt_tensor *lp = dt_add(dt_mul(act, dt_log(prob)), dt_mul(dt_add_scalar(dt_neg(act), 1.0f), dt_log(dt_add_scalar(dt_neg(prob), 1.0f))));
  dt_tensor *la = dt_neg(dt_mean(dt_mul(lp, dt_from_inner(ag->ad, adv))));
  dt_backward(la);
  sgd(&ag->actor.w1, p1, ag->lr);
  sgd(&ag->actor.w2, p2, ag->lr);
  polyak(&ag->target, &ag->critic, ag->tau);
  dt_free(ts); dt_free(ts2); dt_free(tr); dt_free(tnd); dt_free(y); dt_free(lc); dt_free(adv);
  dt_free(prob); dt_free(act); dt_free(lp); dt_free(la); dt_free(c1); dt_free(c2); dt_free(p1); dt_free(p2);
  return lv;
}

/* acts greedily from a host read of the policy's probability */
static float act(const Agent *ag, const float *state) {
  int64_t xs[2] = {1, SD};
  dt_tensor *x = dt_from_floats(dt_inner_device(ag->ad), state, 2, xs);
  dt_tensor *p = dt_sigmoid(mlp_apply(ag->actor.w1, ag->actor.w2, x));
  float pv = 0.0f;
  dt_read_floats(p, &pv, 1);
  dt_free(x); dt_free(p);
  return pv > 0.5f ? 1.0f : 0.0f;
}

int main(int argc, char **argv) {
  dt_device dev = parse_device(argc > 1 ? argv[1] : "cpu");
  int steps = argc > 2 ? atoi(argv[2]) : 30;
  int learn_start = argc > 3 ? atoi(argv[3]) : BATCH;
  if (learn_start < 1) learn_start = 1;
  static Replay rb;
  rb.rng = 12345;
  Agent ag = {dt_autodiff(dev), {0, 0}, {0, 0}, {0, 0}, 0.9f, 0.1f, 0.05f};
  mlp_init(&ag.actor, dev, 1);
  mlp_init(&ag.critic, dev, 3);
  mlp_init(&ag.target, dev, 3);
  float state[SD] = {0.1f, 0.0f, -0.1f, 0.2f}, ret = 0.0f;
  for (int t = 0; t < steps; t++) {
    Transition tr;
    memcpy(tr.s, state, sizeof state);
    tr.a = (lcg(&rb.rng) % 4 == 0) ? (float)(lcg(&rb.rng) % 2) : act(&ag, state);
    for (int i = 0; i < SD; i++) state[i] = 0.8f * state[i] + (tr.a > 0.5f ? 0.1f : -0.1f) * (float)(i + 1) / SD;
    tr.r = state[0] > 0.0f ? 1.0f : -0.1f;
    tr.done = (t + 1) % 10 == 0;
    memcpy(tr.s2, state, sizeof state);
    replay_push(&rb, &tr);
    ret += tr.r;
    if (tr.done) for (int i = 0; i < SD; i++) state[i] = 0.05f * (float)(i - 1);
    if (rb.size >= learn_start && rb.size >= BATCH && t % 2 == 0) printf("t %d critic %.4f\n", t, learn(&ag, &rb));
  }
  printf("return %.2f\n", ret);
  dt_free(ag.actor.w1); dt_free(ag.actor.w2); dt_free(ag.critic.w1); dt_free(ag.critic.w2);
  dt_free(ag.target.w1); dt_free(ag.target.w2);
  return 0;
}
