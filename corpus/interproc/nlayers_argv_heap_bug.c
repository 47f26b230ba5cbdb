// provenance: blind round field3
// Depth from the command line; layers in a calloc'd array, all made on autodiff<sim:0> by
// model_init. The input batch is made plain on sim:0 and fed in: the first layer fails on
// every run that reaches it.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { int depth; dt_device dev; dt_tensor **w; } mlp;
static void model_init(mlp *m, int depth) {
  m->depth = depth;
  m->dev = dt_autodiff(dt_sim(0));
  m->w = calloc((size_t)depth, sizeof *m->w);
  for (int i = 0; i < depth; i++) m->w[i] = dt_require_grad(dt_randn(m->dev, (uint64_t)i, 2, (const int64_t[]){4, 4}));
}
int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 3;
  if (depth < 1) depth = 1;
  mlp m;
  model_init(&m, depth);
  dt_tensor *h = dt_randn(dt_sim(0), 9, 2, (const int64_t[]){2, 4});
  for (int i = 0; i < m.depth; i++) {
    dt_tensor *z = dt_matmul(h, m.w[i]); // expect-error: autodiff-expected
    dt_free(h);
    h = dt_tanh(z);
    dt_free(z);
  }
  printf("%p\n", (void *)h);
  free(m.w);
  return 0;
}
