// provenance: blind round field5
// Data-parallel: replicas in an array of structs of arrays; gradients gathered on sim:0,
// averaged, broadcast back with dt_to_device, applied to the inner tensor and re-wrapped.
#include <dt/dt.h>
#include <stdio.h>

#define R 2
#define NP 2
typedef struct { dt_device ad; dt_tensor *p[NP]; } replica;
static const int64_t SHP[NP][2] = {{3, 4}, {4, 1}};

static dt_tensor *forward(const replica *r, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, r->p[0]);
  dt_tensor *a = dt_sigmoid(h);
  dt_tensor *o = dt_matmul(a, r->p[1]);
  dt_free(h); dt_free(a);
  return o;
}

int main(void) {
  replica reps[R];
  for (int i = 0; i < R; i++) {
    reps[i].ad = dt_autodiff(dt_sim(i));
    for (int k = 0; k < NP; k++)
      reps[i].p[k] = dt_require_grad(dt_randn(reps[i].ad, (uint64_t)k, 2, SHP[k]));
  }
  for (int step = 0; step < 2; step++) {
    dt_tensor *g[R][NP];
    for (int i = 0; i < R; i++) {
      dt_tensor *x = dt_full(reps[i].ad, 0.5f * (float)(i + 1), 2, (const int64_t[]){2, 3});
      dt_tensor *t = dt_zeros(reps[i].ad, DT_FLOAT, 2, (const int64_t[]){2, 1});
      dt_tensor *o = forward(&reps[i], x);
      dt_tensor *l = dt_mse_loss(o, t);
      dt_backward(l);
      for (int k = 0; k < NP; k++) g[i][k] = dt_grad(reps[i].p[k]);
      dt_free(l); dt_free(o); dt_free(t); dt_free(x);
    }
    for (int k = 0; k < NP; k++) {
      dt_tensor *acc = dt_to_device(g[0][k], dt_sim(0));
      for (int i = 1; i < R; i++) {
        dt_tensor *gi = dt_to_device(g[i][k], dt_sim(0));
        dt_tensor *s = dt_add(acc, gi);
        dt_free(acc); dt_free(gi);
        acc = s;
      }
      dt_tensor *avg = dt_mul_scalar(acc, 1.0f / R);
      dt_free(acc);
      for (int i = 0; i < R; i++) {
        dt_device inner = dt_inner_device(reps[i].ad);
        dt_tensor *ga = dt_to_device(avg, inner);
        dt_tensor *cur = dt_inner(reps[i].p[k]);
        dt_tensor *step_t = dt_mul_scalar(ga, 0.1f);
        dt_tensor *nw = dt_sub(cur, step_t);
        dt_free(reps[i].p[k]);
        reps[i].p[k] = dt_require_grad(dt_from_inner(reps[i].ad, nw));
        dt_free(nw); dt_free(step_t); dt_free(cur); dt_free(ga);
        dt_free(g[i][k]);
      }
      dt_free(avg);
    }
  }
  for (int i = 0; i < R; i++) for (int k = 0; k < NP; k++) dt_free(reps[i].p[k]);
  puts("synced");
  return 0;
}
