// corpus/ggml/stage_context_graph_alloc_warn.c — stage_context_graph_alloc_clean.c with a debug
// peek at the stage's output before the graph allocator has run: on the small-input path the
// tensor has the data context's memory, on the large one (run with 100) it has none yet and the
// read is through a NULL data pointer. Which path is taken is decided at run time: a warning.
// run-args: 100
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

  const float *peek = (const float *)y->data;
  fprintf(stderr, "normalized[0] before compute: %f\n", (double)peek[0]); // expect-warning: ggml-host-access

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
