// provenance: blind round field4
// Target network for a TD-style update: the author assumes dt_detach gives a plain tensor and
// combines it with a plain reward vector. dt_detach stays on the autodiff device.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device ad; dt_tensor *w; } qnet;

static dt_tensor *q_values(const qnet *q, const dt_tensor *s) { return dt_matmul(s, q->w); }

static dt_tensor *td_target(const qnet *target, const dt_tensor *s2, const dt_tensor *reward, float gamma) {
  dt_tensor *q2 = q_values(target, s2);
  dt_tensor *q2d = dt_detach(q2);
  dt_tensor *disc = dt_mul_scalar(q2d, gamma);
  dt_tensor *y = dt_add(reward, disc); // expect-error: autodiff-expected
  dt_free(q2); dt_free(q2d); dt_free(disc);
  return y;
}

int main(void) {
  qnet online = { dt_autodiff(dt_sim(0)), NULL };
  online.w = dt_require_grad(dt_randn(online.ad, 1, 2, (const int64_t[]){3, 2}));
  qnet target = { online.ad, dt_detach(online.w) };
  dt_tensor *s2 = dt_randn(online.ad, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *r = dt_ones(dt_inner_device(online.ad), DT_FLOAT, 2, (const int64_t[]){4, 2});
  dt_tensor *y = td_target(&target, s2, r, 0.99f);
  printf("%p\n", (void *)y);
  return 0;
}
