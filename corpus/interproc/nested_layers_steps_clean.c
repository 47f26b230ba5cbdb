// provenance: blind round field2
// Nested loops steps x layers with continue on frozen layers; updates on inner tensors.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { dt_tensor *w; int frozen; } layer;
typedef struct { dt_device ad; layer *ls; int n; } model;
static void add_layer(model *m, int frozen) {
  m->ls = realloc(m->ls, (size_t)(m->n + 1) * sizeof *m->ls);
  m->ls[m->n].w = dt_require_grad(dt_randn(m->ad, (uint64_t)m->n, 2, (const int64_t[]){3, 3}));
  m->ls[m->n].frozen = frozen;
  m->n++;
}
int main(int argc, char **argv) {
  model m = { dt_autodiff(argc > 2 ? dt_sim(1) : dt_cpu()), NULL, 0 };
  for (int i = 0; i < 4; i++) add_layer(&m, argc > 1 && i == 0);
  (void)argv;
  for (int step = 0; step < 2; step++) {
    dt_tensor *h = dt_ones(m.ad, DT_FLOAT, 2, (const int64_t[]){2, 3});
    for (int i = 0; i < m.n; i++) {
      dt_tensor *z = dt_matmul(h, m.ls[i].w);
      dt_free(h); h = dt_tanh(z); dt_free(z);
    }
    dt_tensor *loss = dt_mean(h);
    dt_backward(loss);
    for (int i = 0; i < m.n; i++) {
      if (m.ls[i].frozen) continue;
      dt_tensor *g = dt_grad(m.ls[i].w);
      if (!g) break;
      dt_tensor *wi = dt_inner(m.ls[i].w);
      dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, 0.05f));
      dt_free(m.ls[i].w);
      m.ls[i].w = dt_require_grad(dt_from_inner(m.ad, nw));
      dt_free(wi); dt_free(g);
    }
    float v; dt_read_floats(loss, &v, 1);
    printf("%d %f\n", step, v);
  }
  return 0;
}
