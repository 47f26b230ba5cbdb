// provenance: blind round field5
// Data-parallel replicas on autodiff<sim:0> and autodiff<sim:1>: each computes a gradient,
// then the gradients are summed without moving replica 1's to sim:0: device-mismatch.
#include <dt/dt.h>
#include <stdio.h>

#define R 2
typedef struct { dt_device ad; dt_tensor *w; dt_tensor *x; } replica;

static dt_tensor *local_grad(replica *r) {
  dt_tensor *p = dt_matmul(r->x, r->w);
  dt_tensor *l = dt_mean(p);
  dt_backward(l);
  dt_tensor *g = dt_grad(r->w);
  dt_free(l); dt_free(p);
  return g;
}

int main(void) {
  replica reps[R];
  for (int i = 0; i < R; i++) {
    reps[i].ad = dt_autodiff(dt_sim(i));
    reps[i].w = dt_require_grad(dt_full(reps[i].ad, 0.1f, 2, (const int64_t[]){3, 1}));
    reps[i].x = dt_full(reps[i].ad, (float)(i + 1), 2, (const int64_t[]){4, 3});
  }
  dt_tensor *g0 = local_grad(&reps[0]);
  dt_tensor *g1 = local_grad(&reps[1]);
  dt_tensor *sum = dt_add(g0, g1); // expect-error: device-mismatch
  dt_tensor *avg = dt_mul_scalar(sum, 1.0f / R);
  dt_free(avg); dt_free(sum); dt_free(g0); dt_free(g1);
  for (int i = 0; i < R; i++) { dt_free(reps[i].w); dt_free(reps[i].x); }
  puts("ok");
  return 0;
}
