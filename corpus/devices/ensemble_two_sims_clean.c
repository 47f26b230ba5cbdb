// provenance: blind round field
// Ensemble of two linear models on sim:0 and sim:1; predictions gathered on the host and averaged.
#include <dt/dt.h>
#include <stdio.h>

#define NMEMBERS 2

typedef struct { dt_tensor *w, *b; dt_device dev; } member;

static void member_init(member *m, dt_device dev, uint64_t seed) {
  m->dev = dev;
  m->w = dt_randn(dev, seed, 2, (const int64_t[]){4, 2});
  m->b = dt_full(dev, 0.1f, 1, (const int64_t[]){2});
}

static dt_tensor *member_predict(const member *m, const dt_tensor *host_x) {
  dt_tensor *x = dt_to_device(host_x, m->dev);
  dt_tensor *h = dt_matmul(x, m->w);
  dt_tensor *y = dt_add(h, m->b);
  dt_tensor *out = dt_to_device(y, dt_cpu());
  dt_free(x); dt_free(h); dt_free(y);
  return out;
}

int main(void) {
  member ens[NMEMBERS];
  for (int i = 0; i < NMEMBERS; i++) member_init(&ens[i], dt_sim(i), 10 + (uint64_t)i);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 4});
  dt_tensor *acc = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 2});
  for (int i = 0; i < NMEMBERS; i++) {
    dt_tensor *p = member_predict(&ens[i], x);
    dt_tensor *n = dt_add(acc, p);
    dt_free(acc); dt_free(p);
    acc = n;
  }
  dt_tensor *avg = dt_mul_scalar(acc, 1.0f / NMEMBERS);
  float out[6];
  dt_read_floats(avg, out, 6);
  printf("avg row0 = %.3f %.3f\n", out[0], out[1]);
  for (int i = 0; i < NMEMBERS; i++) { dt_free(ens[i].w); dt_free(ens[i].b); }
  dt_free(x); dt_free(acc); dt_free(avg);
  return 0;
}
