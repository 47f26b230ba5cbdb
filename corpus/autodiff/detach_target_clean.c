// provenance: blind round field4
// The same TD update done right: the reward lives on the autodiff device too (untracked), the
// detached target joins the tracked prediction in the loss. Gradients reach only the online net.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device ad; dt_tensor *w; } qnet;

static dt_tensor *q_values(const qnet *q, const dt_tensor *s) { return dt_matmul(s, q->w); }

int main(void) {
  qnet online = { dt_autodiff(dt_sim(0)), NULL };
  online.w = dt_require_grad(dt_randn(online.ad, 1, 2, (const int64_t[]){3, 2}));
  qnet target = { online.ad, dt_detach(online.w) };
  dt_tensor *s = dt_randn(online.ad, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *s2 = dt_randn(online.ad, 3, 2, (const int64_t[]){4, 3});
  dt_tensor *r = dt_ones(online.ad, DT_FLOAT, 2, (const int64_t[]){4, 2});
  for (int it = 0; it < 2; it++) {
    dt_tensor *q2 = dt_detach(q_values(&target, s2));
    dt_tensor *y = dt_add(r, dt_mul_scalar(q2, 0.99f));
    dt_tensor *q = q_values(&online, s);
    dt_tensor *loss = dt_mse_loss(q, y);
    dt_backward(loss);
    dt_tensor *g = dt_grad(online.w);
    dt_tensor *tg = dt_grad(target.w);
    printf("online grad %s, target grad %s\n", g ? "yes" : "no", tg ? "yes" : "no");
    dt_tensor *wi = dt_inner(online.w);
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, 0.05f));
    dt_free(online.w);
    online.w = dt_require_grad(dt_from_inner(online.ad, nw));
    dt_free(q2); dt_free(y); dt_free(q); dt_free(loss); dt_free(g); dt_free(wi); dt_free(nw);
  }
  return 0;
}
