// provenance: blind round field4
// Activation table of function pointers with known targets, chosen by a compile-time index.
// One entry is "gated": it multiplies by a gate tensor made on the host, whatever x's device.
#include <dt/dt.h>
#include <stdio.h>

typedef dt_tensor *(*act_fn)(const dt_tensor *);

static dt_tensor *act_relu(const dt_tensor *x) { return dt_relu(x); }
static dt_tensor *act_tanh(const dt_tensor *x) { return dt_tanh(x); }
static dt_tensor *act_gated(const dt_tensor *x) {
  dt_tensor *g = dt_full(dt_cpu(), 0.5f, 1, (const int64_t[]){dt_dim(x, -1)});
  dt_tensor *r = dt_mul(x, g); // expect-error: backend-mismatch
  dt_free(g);
  return r;
}

enum { ACT_RELU, ACT_TANH, ACT_GATED };
static const act_fn ACTS[] = { [ACT_RELU] = act_relu, [ACT_TANH] = act_tanh, [ACT_GATED] = act_gated };

typedef struct { dt_tensor *w; int act; } layer;

static dt_tensor *layer_fwd(const layer *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  dt_tensor *y = ACTS[l->act](h);
  dt_free(h);
  return y;
}

int main(void) {
  dt_device d = dt_sim(0);
  layer ls[3] = {
    { dt_randn(d, 1, 2, (const int64_t[]){3, 3}), ACT_RELU },
    { dt_randn(d, 2, 2, (const int64_t[]){3, 3}), ACT_TANH },
    { dt_randn(d, 3, 2, (const int64_t[]){3, 3}), ACT_GATED },
  };
  dt_tensor *x = dt_randn(d, 4, 2, (const int64_t[]){2, 3});
  for (int i = 0; i < 3; i++) {
    dt_tensor *y = layer_fwd(&ls[i], x);
    dt_free(x);
    x = y;
  }
  printf("%lld\n", (long long)dt_numel(x));
  return 0;
}
