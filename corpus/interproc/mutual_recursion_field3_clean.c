// provenance: blind round field3
// Mutually recursive encoder for an expression tree (sum nodes / product nodes); the device is
// threaded through both functions and every leaf is created on it.
#include <dt/dt.h>
#include <stdio.h>
typedef struct expr { char op; float v; const struct expr *a, *b; } expr;
static dt_tensor *enc_prod(const expr *e, dt_device d);
static dt_tensor *enc_sum(const expr *e, dt_device d) {
  if (e->op == 'v') return dt_full(d, e->v, 1, (const int64_t[]){2});
  dt_tensor *l = enc_prod(e->a, d), *r = enc_prod(e->b, d);
  dt_tensor *s = dt_add(l, r);
  dt_free(l); dt_free(r);
  return s;
}
static dt_tensor *enc_prod(const expr *e, dt_device d) {
  if (e->op == 'v') return dt_full(d, e->v, 1, (const int64_t[]){2});
  dt_tensor *l = enc_sum(e->a, d), *r = enc_sum(e->b, d);
  dt_tensor *p = dt_mul(l, r);
  dt_free(l); dt_free(r);
  return p;
}
int main(int argc, char **argv) {
  (void)argv;
  expr v1 = {'v', 1, NULL, NULL}, v2 = {'v', 2, NULL, NULL}, v3 = {'v', 3, NULL, NULL};
  expr p = {'*', 0, &v1, &v2};
  expr root = {'+', 0, &p, &v3};
  dt_device d = argc > 1 ? dt_sim(1) : dt_sim(0);
  dt_tensor *o = enc_sum(&root, d);
  dt_tensor *host = dt_to_device(o, dt_cpu());
  float out[2]; dt_read_floats(host, out, 2);
  printf("%f\n", out[0]);
  return 0;
}
