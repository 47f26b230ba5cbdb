// blind round d15 — PPO: rollouts from a vectorised environment simulated on sim:0, a policy
// and value head learned on autodiff<cpu>. Observations and rewards come back to the host as
// plain tensors; the update wraps observations, actions and old log-probabilities with
// dt_from_inner — but multiplies the ratio by the plain advantages (forgot to wrap them), and
// the episode statistics multiply float rewards by the environment's int "alive" flags.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_ENV 4
#define OBS 3
#define ACT 2
#define HORIZON 5

typedef struct {
  dt_device dev;   /* sim:0 */
  dt_tensor *state; /* [N_ENV, OBS] */
  dt_tensor *a, *b; /* dynamics: [OBS, OBS], [ACT, OBS] */
  int64_t alive[N_ENV];
} vec_env;

typedef struct {
  dt_device dev;   /* autodiff<cpu> */
  dt_tensor *w_pi; /* [OBS, ACT] */
  dt_tensor *w_v;  /* [OBS, 1] */
} actor_critic;

typedef struct {
  dt_tensor *obs[HORIZON];      /* [N_ENV, OBS] plain cpu */
  dt_tensor *act[HORIZON];      /* [N_ENV, ACT] one-hot, plain cpu */
  dt_tensor *rew[HORIZON];      /* [N_ENV] plain cpu */
  dt_tensor *old_logp[HORIZON]; /* [N_ENV] plain cpu */
  dt_tensor *value[HORIZON];    /* [N_ENV] plain cpu */
  float done[HORIZON][N_ENV];
} rollout;

static void env_init(vec_env *e, dt_device dev) {
  e->dev = dev;
  e->state = dt_randn(dev, 3, 2, (const int64_t[]){N_ENV, OBS});
  dt_tensor *a = dt_randn(dev, 4, 2, (const int64_t[]){OBS, OBS});
  e->a = dt_mul_scalar(a, 0.6f);
  e->b = dt_randn(dev, 5, 2, (const int64_t[]){ACT, OBS});
  for (int i = 0; i < N_ENV; i++) e->alive[i] = 1;
  dt_free(a);
}

/* Steps every environment; returns the rewards on the env device. */
static dt_tensor *env_step(vec_env *e, const dt_tensor *act_host) {
  dt_tensor *act = dt_to_device(act_host, e->dev);
  dt_tensor *sa = dt_matmul(e->state, e->a);
  dt_tensor *ab = dt_matmul(act, e->b);
  dt_tensor *pre = dt_add(sa, ab);
  dt_tensor *next = dt_tanh(pre);
  dt_tensor *sq = dt_mul(next, next);
  dt_tensor *cost = dt_sum_dim(sq, 1);
  dt_tensor *rew = dt_neg(cost);
  dt_free(e->state);
  e->state = next;
  dt_free(act);
  dt_free(sa);
  dt_free(ab);
  dt_free(pre);
  dt_free(sq);
  dt_free(cost);
  return rew;
}

static void ac_init(actor_critic *ac, dt_device ad) {
  ac->dev = ad;
  dt_tensor *p = dt_randn(dt_inner_device(ad), 8, 2, (const int64_t[]){OBS, ACT});
  dt_tensor *v = dt_randn(dt_inner_device(ad), 9, 2, (const int64_t[]){OBS, 1});
  ac->w_pi = dt_require_grad(dt_from_inner(ad, p));
  ac->w_v = dt_require_grad(dt_from_inner(ad, v));
  dt_free(p);
  dt_free(v);
}

/* Row-wise log-softmax of [N_ENV, ACT]: works on plain and autodiff tensors alike. */
static dt_tensor *log_softmax_rows(const dt_tensor *logits) {
  dt_tensor *e = dt_exp(logits);
  dt_tensor *z = dt_sum_dim(e, 1);
  dt_tensor *z2 = dt_reshape(z, 2, (const int64_t[]){N_ENV, 1});
  dt_tensor *lz = dt_log(z2);
  dt_tensor *r = dt_sub(logits, lz);
  dt_free(e);
  dt_free(z);
  dt_free(z2);
  dt_free(lz);
  return r;
}

static dt_tensor *chosen_logp(const dt_tensor *logp, const dt_tensor *onehot) {
  dt_tensor *m = dt_mul(logp, onehot);
  dt_tensor *s = dt_sum_dim(m, 1);
  dt_free(m);
  return s;
}

static void collect(vec_env *env, const actor_critic *ac, rollout *ro) {
  dt_tensor *pi = dt_inner(ac->w_pi);
  dt_tensor *vw = dt_inner(ac->w_v);
  for (int t = 0; t < HORIZON; t++) {
    dt_tensor *obs = dt_to_device(env->state, dt_cpu());
    dt_tensor *logits = dt_matmul(obs, pi);
    dt_tensor *logp = log_softmax_rows(logits);
    float lp[N_ENV * ACT], onehot[N_ENV * ACT];
    dt_read_floats(logp, lp, N_ENV * ACT);
    for (int i = 0; i < N_ENV; i++) {
      int a = lp[i * ACT + 1] > lp[i * ACT] ? 1 : 0;
      if ((t + i) % 3 == 0) a = 1 - a; /* a little exploration */
      onehot[i * ACT] = a == 0;
      onehot[i * ACT + 1] = a == 1;
    }
    ro->obs[t] = obs;
    ro->act[t] = dt_from_floats(dt_cpu(), onehot, 2, (const int64_t[]){N_ENV, ACT});
    ro->old_logp[t] = chosen_logp(logp, ro->act[t]);
    dt_tensor *v = dt_matmul(obs, vw);
    ro->value[t] = dt_reshape(v, 1, (const int64_t[]){N_ENV});
    dt_tensor *r = env_step(env, ro->act[t]);
    ro->rew[t] = dt_to_device(r, dt_cpu());
    float rh[N_ENV];
    dt_read_floats(ro->rew[t], rh, N_ENV);
    for (int i = 0; i < N_ENV; i++) {
      ro->done[t][i] = (t == HORIZON - 1 || rh[i] < -2.5f) ? 1.0f : 0.0f;
      if (rh[i] < -2.5f) env->alive[i] = 0;
    }
    dt_free(logits);
    dt_free(logp);
    dt_free(v);
    dt_free(r);
  }
  dt_free(pi);
  dt_free(vw);
}

/* Discounted returns and advantages, on the host. */
static void returns_and_adv(const rollout *ro, float gamma, dt_tensor *ret[HORIZON],
                            dt_tensor *adv[HORIZON]) {
  dt_tensor *next = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){N_ENV});
  for (int t = HORIZON - 1; t >= 0; t--) {
    float keep[N_ENV];
    for (int i = 0; i < N_ENV; i++) keep[i] = 1.0f - ro->done[t][i];
    dt_tensor *k = dt_from_floats(dt_cpu(), keep, 1, (const int64_t[]){N_ENV});
    dt_tensor *carried = dt_mul(next, k);
    dt_tensor *disc = dt_mul_scalar(carried, gamma);
    ret[t] = dt_add(ro->rew[t], disc);
    adv[t] = dt_sub(ret[t], ro->value[t]);
    dt_free(next);
    next = dt_add_scalar(ret[t], 0.0f);
    dt_free(k);
    dt_free(carried);
    dt_free(disc);
  }
  dt_free(next);
}

static float ppo_update(actor_critic *ac, const rollout *ro, dt_tensor *ret[HORIZON],
                        dt_tensor *adv[HORIZON], float lr) {
  float total = 0.0f;
  for (int t = 0; t < HORIZON; t++) {
    dt_tensor *obs = dt_from_inner(ac->dev, ro->obs[t]);
    dt_tensor *act = dt_from_inner(ac->dev, ro->act[t]);
    dt_tensor *old = dt_from_inner(ac->dev, ro->old_logp[t]);
    dt_tensor *rt = dt_from_inner(ac->dev, ret[t]);
    dt_tensor *logits = dt_matmul(obs, ac->w_pi);
    dt_tensor *logp = log_softmax_rows(logits);
    dt_tensor *cur = chosen_logp(logp, act);
    dt_tensor *diff = dt_sub(cur, old);
    dt_tensor *ratio = dt_exp(diff);
    dt_tensor *surr = dt_mul(ratio, adv[t]); // expect-error: autodiff-expected
    dt_tensor *pol = dt_mean(surr);
    dt_tensor *pol_loss = dt_neg(pol);
    dt_tensor *v = dt_matmul(obs, ac->w_v);
    dt_tensor *v1 = dt_reshape(v, 1, (const int64_t[]){N_ENV});
    dt_tensor *vloss = dt_mse_loss(v1, rt);
    dt_tensor *vl = dt_mul_scalar(vloss, 0.5f);
    dt_tensor *loss = dt_add(pol_loss, vl);
    float lv = 0.0f;
    if (loss && dt_read_floats(loss, &lv, 1) == 0 && dt_backward(loss) == 0) {
      dt_tensor **ws[2] = {&ac->w_pi, &ac->w_v};
      for (int i = 0; i < 2; i++) {
        dt_tensor *g = dt_grad(*ws[i]);
        if (!g) continue;
        dt_tensor *w = dt_inner(*ws[i]);
        dt_tensor *d = dt_mul_scalar(g, lr);
        dt_tensor *wn = dt_sub(w, d);
        dt_free(*ws[i]);
        *ws[i] = dt_require_grad(dt_from_inner(ac->dev, wn));
        dt_free(g);
        dt_free(w);
        dt_free(d);
        dt_free(wn);
      }
    }
    total += lv;
    dt_tensor *tmp[] = {obs, act, old, rt, logits, logp, cur, diff, ratio, surr,
                        pol, pol_loss, v, v1, vloss, vl, loss};
    for (size_t i = 0; i < sizeof tmp / sizeof tmp[0]; i++) dt_free(tmp[i]);
  }
  return total / HORIZON;
}

static float alive_reward(const vec_env *env, const rollout *ro) {
  dt_tensor *sum = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){N_ENV});
  for (int t = 0; t < HORIZON; t++) {
    dt_tensor *s = dt_add(sum, ro->rew[t]);
    dt_free(sum);
    sum = s;
  }
  dt_tensor *alive = dt_from_ints(dt_cpu(), env->alive, 1, (const int64_t[]){N_ENV});
  dt_tensor *counted = dt_mul(sum, alive); // expect-error: kind-mismatch
  dt_tensor *total = counted ? dt_sum(counted) : NULL;
  float v = 0.0f;
  if (total) dt_read_floats(total, &v, 1);
  dt_free(sum);
  dt_free(alive);
  dt_free(counted);
  dt_free(total);
  return v;
}

int main(void) {
  vec_env env;
  env_init(&env, dt_sim(0));
  actor_critic ac;
  ac_init(&ac, dt_autodiff(dt_cpu()));
  rollout ro;
  memset(&ro, 0, sizeof ro);
  collect(&env, &ac, &ro);
  dt_tensor *ret[HORIZON], *adv[HORIZON];
  returns_and_adv(&ro, 0.95f, ret, adv);
  float loss = ppo_update(&ac, &ro, ret, adv, 0.05f);
  printf("ppo loss %.4f, alive reward %.4f\n", loss, alive_reward(&env, &ro));
  for (int t = 0; t < HORIZON; t++) {
    dt_free(ro.obs[t]);
    dt_free(ro.act[t]);
    dt_free(ro.rew[t]);
    dt_free(ro.old_logp[t]);
    dt_free(ro.value[t]);
    dt_free(ret[t]);
    dt_free(adv[t]);
  }
  dt_free(env.state);
  dt_free(env.a);
  dt_free(env.b);
  dt_free(ac.w_pi);
  dt_free(ac.w_v);
  return 0;
}
