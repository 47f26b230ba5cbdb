// corpus/ggml/stage_context_graph_alloc_clean.c — a preprocessing stage whose output tensor is
// made in one of two contexts, picked at run time: the data context (which gives its tensors
// memory of its own) when the input is small, the graph's no_alloc context otherwise. The graph
// allocator then gives memory to every node of the graph that has none, whichever context made
// it, so the host reads the output on either path: no finding.
#include <stdio.h>
#include <stdlib.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct stage_contexts {
  struct ggml_context *by_place[2]; /* 0: own memory, 1: placed by the graph allocator */
};

static struct ggml_tensor *normalize_stage(struct stage_contexts *sc, int big, struct ggml_tensor *x) {
  struct ggml_context *ctx = sc->by_place[big];
  struct ggml_tensor *y = ggml_scale(ctx, x, 1.0f / 8.0f);
  ggml_set_name(y, "normalized");
  return y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  if (n < 1 || n > 4096) n = 8;
  struct ggml_init_params data_params = {1u << 20, NULL, false};
  struct ggml_context *data_ctx = ggml_init(data_params);
  struct ggml_tensor *x = ggml_new_tensor_1d(data_ctx, GGML_TYPE_F32, n);
  float *xd = ggml_get_data_f32(x);
  for (int i = 0; i < n; i++) xd[i] = (float)i;

  struct ggml_init_params graph_params = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL,
                                          true};
  struct ggml_context *ctx0 = ggml_init(graph_params);
  struct stage_contexts sc = {{data_ctx, ctx0}};
  struct ggml_tensor *y = normalize_stage(&sc, n > 64, x);
  struct ggml_tensor *out = ggml_sqr(ctx0, y);
  struct ggml_cgraph *gf = ggml_new_graph(ctx0);
  ggml_build_forward_expand(gf, out);

  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_cpu_buffer_type());
  if (!ggml_gallocr_alloc_graph(galloc, gf)) {
    fprintf(stderr, "graph allocation failed\n");
    return 1;
  }
  ggml_backend_t cpu = ggml_backend_cpu_init();
  ggml_backend_graph_compute(cpu, gf);

  const float *yd = (const float *)y->data;
  const float *od = ggml_get_data_f32(out);
  printf("y[last] %f out[last] %f\n", (double)yd[n - 1], (double)od[n - 1]);

  ggml_backend_free(cpu);
  ggml_gallocr_free(galloc);
  ggml_free(ctx0);
  ggml_free(data_ctx);
  return 0;
}
