// provenance: blind round field
// DQN-style update: a detached target network on the same autodiff device as the online one.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; } qnet;

static dt_tensor *q_values(const qnet *q, const dt_tensor *s) { return dt_matmul(s, q->w); }

int main(void) {
  dt_device dev = dt_autodiff(dt_sim(0));
  qnet online = { dt_require_grad(dt_full(dev, 0.2f, 2, (const int64_t[]){3, 2})) };
  qnet target = { dt_detach(online.w) };
  dt_tensor *s = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *s2 = dt_full(dev, 0.5f, 2, (const int64_t[]){4, 3});
  dt_tensor *r = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
  dt_tensor *qn = q_values(&target, s2);               /* 0.3 each */
  dt_tensor *qmax = dt_sum_dim(qn, 1);                 /* 0.6, shape [4] */
  dt_tensor *qm2 = dt_reshape(qmax, 2, (const int64_t[]){4, 1});
  dt_tensor *disc = dt_mul_scalar(qm2, 0.9f);
  dt_tensor *y = dt_add(r, disc);                       /* 1.54 */
  dt_tensor *q = q_values(&online, s);                  /* 0.6 */
  dt_tensor *loss = dt_mse_loss(q, y);                  /* (0.6-1.54)^2 = 0.8836 */
  dt_backward(loss);
  float l;
  dt_read_floats(loss, &l, 1);
  dt_tensor *gt = dt_grad(target.w);
  printf("loss %.4f (expect 0.8836), target grad %s\n", l, gt ? "present" : "none");
  int ok = l > 0.8835f && l < 0.8837f && gt == NULL;
  dt_free(online.w); dt_free(target.w); dt_free(s); dt_free(s2); dt_free(r); dt_free(qn);
  dt_free(qmax); dt_free(qm2); dt_free(disc); dt_free(y); dt_free(q); dt_free(loss);
  return ok ? 0 : 1;
}
