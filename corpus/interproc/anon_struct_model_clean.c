// provenance: blind round field3
// Same anonymous-struct model, everything on the model's device; a host copy of the output is
// taken for logging only after moving it.
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
  m->dec.b = dt_zeros(m->dev, DT_FLOAT, 1, (const int64_t[]){6});
}
int main(void) {
  autoenc m;
  init(&m, dt_sim(1));
  dt_tensor *x = dt_randn(m.dev, 5, 2, (const int64_t[]){2, 6});
  dt_tensor *h = dt_relu(dt_add(dt_matmul(x, m.enc.w), m.enc.b));
  dt_tensor *o = dt_add(dt_matmul(h, m.dec.w), m.dec.b);
  dt_tensor *host = dt_to_device(o, dt_cpu());
  dt_tensor *ref = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 6});
  dt_tensor *l = dt_mse_loss(host, ref);
  float v; dt_read_floats(l, &v, 1);
  printf("%f\n", v);
  return 0;
}
