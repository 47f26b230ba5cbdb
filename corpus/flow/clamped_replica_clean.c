// A worker's replica and its number of warm-up rounds come from the environment, each clamped
// to a small range (`r < 0 || r > 1`, `1 <= rounds <= 4`) and then used consistently: model and
// data on the same sim:r, every round on it, and a guard the clamp decides (`r > 1` can no
// longer hold). Every value the clamps allow runs clean, so nothing may be reported.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define FEATURES 4

static int env_int(const char *name, int fallback) {
  const char *s = getenv(name);
  return s ? atoi(s) : fallback;
}

static dt_tensor *warm_up(dt_device dev, dt_tensor *w, int rounds) {
  for (int i = 0; i < rounds; i++) {
    dt_tensor *x = dt_randn(dev, 11 + (uint64_t)i, 2, (const int64_t[]){FEATURES, 1});
    dt_tensor *next = dt_add(w, x);
    dt_free(x);
    dt_free(w);
    w = next;
  }
  return w;
}

int main(void) {
  int replica = env_int("REPLICA", 0);
  if (replica < 0 || replica > 1) replica = 0;
  int rounds = env_int("ROUNDS", 2);
  if (rounds < 1) rounds = 1;
  if (rounds > 4) rounds = 4;
  dt_device dev = dt_sim(replica);
  if (replica > 1) dev = dt_cpu(); /* never taken after the clamp */
  dt_tensor *w = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){FEATURES, 1});
  w = warm_up(dev, w, rounds);
  dt_tensor *x = dt_randn(dt_sim(replica), 5, 2, (const int64_t[]){3, FEATURES});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *s = dt_sum(y);
  float v = 0.0f;
  if (s) dt_read_floats(s, &v, 1);
  printf("replica %d after %d rounds: %.3f\n", replica, rounds, v);
  dt_free(s);
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
