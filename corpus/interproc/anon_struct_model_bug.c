// provenance: blind round field3
// An encoder/decoder model with C11 anonymous nested structs; the decoder bias was created on
// the host by a copy-paste of the logging code.
#include <dt/dt.h>
#include <stdio.h>
typedef struct {
  struct { dt_device dev; int hidden; };
  struct { dt_tensor *w, *b; } enc, dec;
} autoenc;
static void init(autoenc *m, dt_device d) {
  m->dev = d;
  m->hidden = 3;
  m->enc.w = dt_randn(m->dev, 1, 2, (const int64_t[]){6, 3});
  m->enc.b = dt_zeros(m->dev, DT_FLOAT, 1, (const int64_t[]){3});
  m->dec.w = dt_randn(m->dev, 2, 2, (const int64_t[]){3, 6});
  m->dec.b = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){6});
}
static dt_tensor *forward(const autoenc *m, const dt_tensor *x) {
  dt_tensor *z = dt_matmul(x, m->enc.w);
  dt_tensor *h = dt_add(z, m->enc.b);
  dt_tensor *a = dt_relu(h);
  dt_tensor *r = dt_matmul(a, m->dec.w);
  dt_tensor *o = dt_add(r, m->dec.b); // expect-error: backend-mismatch
  dt_free(z); dt_free(h); dt_free(a); dt_free(r);
  return o;
}
int main(void) {
  autoenc m;
  init(&m, dt_sim(0));
  dt_tensor *x = dt_randn(m.dev, 5, 2, (const int64_t[]){2, 6});
  dt_tensor *o = forward(&m, x);
  printf("%p\n", (void *)o);
  return 0;
}
