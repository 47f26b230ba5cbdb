// corpus/ggml/graph_dump_then_alloc_clean.c — a tool that dumps its graph (ggml_graph_dump_dot,
// a call the rules do not describe: what it does to the graph is not known) before allocating
// it with ggml_gallocr_alloc_graph, then uploads the input and computes. The unknown call does
// not change which context the graph belongs to, so the allocation still places its tensors.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

enum { N = 8 };

int main(void) {
  ggml_backend_t be = ggml_backend_cpu_init();
  struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *x = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, N);
  ggml_set_input(x);
  struct ggml_tensor *y = ggml_tanh(gctx, ggml_scale(gctx, x, 0.5f));
  ggml_set_output(y);
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, y);
  ggml_graph_dump_dot(gf, NULL, "/dev/null");
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(be));
  if (!ggml_gallocr_alloc_graph(galloc, gf)) return 1;
  float in[N] = {1, 2, 3, 4, 5, 6, 7, 8}, out[N];
  ggml_backend_tensor_set(x, in, 0, sizeof in);
  ggml_backend_graph_compute(be, gf);
  ggml_backend_tensor_get(y, out, 0, sizeof out);
  printf("%f\n", out[N - 1]);
  ggml_gallocr_free(galloc);
  ggml_free(gctx);
  ggml_backend_free(be);
  return 0;
}
