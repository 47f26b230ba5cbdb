// provenance: blind round field3
// Model-parallel MLP: a static per-layer device table (spelled as initializers); the forward
// moves activations at stage boundaries, but the loss target stays on the first stage.
#include <dt/dt.h>
#include <stdio.h>
#define NL 4
static const dt_device stage_dev[NL] = {
  {DT_BACKEND_SIM, 0, 0}, {DT_BACKEND_SIM, 0, 0}, {DT_BACKEND_SIM, 1, 0}, {DT_BACKEND_SIM, 1, 0}};
typedef struct { dt_tensor *w[NL]; } mlp;
static dt_tensor *forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_to_device(x, stage_dev[0]);
  for (int i = 0; i < NL; i++) {
    if (i > 0 && !dt_device_equal(stage_dev[i], stage_dev[i - 1])) {
      dt_tensor *moved = dt_to_device(h, stage_dev[i]);
      dt_free(h);
      h = moved;
    }
    dt_tensor *z = dt_matmul(h, m->w[i]);
    dt_free(h);
    h = dt_tanh(z);
    dt_free(z);
  }
  return h;
}
int main(void) {
  mlp m;
  for (int i = 0; i < NL; i++) m.w[i] = dt_randn(stage_dev[i], (uint64_t)i, 2, (const int64_t[]){4, 4});
  dt_tensor *x = dt_randn(dt_cpu(), 11, 2, (const int64_t[]){2, 4});
  dt_tensor *y = dt_zeros(stage_dev[0], DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *out = forward(&m, x);
  dt_tensor *l = dt_mse_loss(out, y); // expect-error: device-mismatch
  printf("%p\n", (void *)l);
  return 0;
}
