// corpus/ggml/reserve_only_compute_bug.c — a small regressor's evaluation loop: the graph
// allocator is sized with ggml_gallocr_reserve on the graph, the graph's size is logged through
// a helper (ggml_graph_n_nodes, ggml_graph_size: accessors that change nothing). Bug: the graph is
// never allocated (no ggml_gallocr_alloc_graph): reserving only sizes the allocator's buffer,
// so the graph's nodes have no buffer when it is computed.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

enum { N_IN = 8 };

struct regressor {
  ggml_backend_t backend;
  struct ggml_context *wctx;
  ggml_backend_buffer_t wbuf;
  struct ggml_tensor *w;
};

static void log_graph(struct ggml_cgraph *gf) {
  printf("graph: %d nodes of %d\n", ggml_graph_n_nodes(gf), ggml_graph_size(gf));
}

int main(void) {
  struct regressor r;
  r.backend = ggml_backend_cpu_init();
  struct ggml_init_params wp = {ggml_tensor_overhead() * 2, NULL, true};
  r.wctx = ggml_init(wp);
  r.w = ggml_new_tensor_1d(r.wctx, GGML_TYPE_F32, N_IN);
  r.wbuf = ggml_backend_alloc_ctx_tensors(r.wctx, r.backend);
  ggml_backend_tensor_memset(r.w, 0, 0, ggml_nbytes(r.w));

  struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *x = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, N_IN);
  ggml_set_input(x);
  struct ggml_tensor *y = ggml_sum(gctx, ggml_mul(gctx, x, r.w));
  ggml_set_output(y);
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, y);
  log_graph(gf);

  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(r.backend));
  if (!ggml_gallocr_reserve(galloc, gf)) {
    fprintf(stderr, "graph allocation failed\n");
    return 1;
  }
  float in[N_IN] = {1, 2, 3, 4, 5, 6, 7, 8};
  float out = 0.0f;
  (void)in;
  for (int step = 0; step < 2; step++) {
    ggml_backend_graph_compute(r.backend, gf); // expect-error: ggml-buffer-not-set
    ggml_backend_tensor_get(y, &out, 0, sizeof out);
  }
  printf("%f\n", out);
  ggml_gallocr_free(galloc);
  ggml_free(gctx);
  ggml_backend_buffer_free(r.wbuf);
  ggml_free(r.wctx);
  ggml_backend_free(r.backend);
  return 0;
}
