// corpus/ggml/graph_unexpanded_output_bug.c — a feature extractor builds its graph in a helper:
// the normalized features are the graph's output, and a second output, the per-row maxima of
// the raw input, is made in the same context for logging. Bug: only the features are given to
// ggml_build_forward_expand, so ggml_gallocr_alloc_graph allocates the graph's nodes and leafs
// and never the maxima: reading them is "tensor buffer not set".
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define N_FEAT 8
#define N_ROWS 3

struct extractor {
  struct ggml_context *ctx;
  struct ggml_cgraph *gf;
  struct ggml_tensor *input;
  struct ggml_tensor *features;
  struct ggml_tensor *row_max;
};

static void extractor_build(struct extractor *x) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
  x->ctx = ggml_init(p);
  x->input = ggml_new_tensor_2d(x->ctx, GGML_TYPE_F32, N_FEAT, N_ROWS);
  ggml_set_input(x->input);
  x->features = ggml_norm(x->ctx, ggml_relu(x->ctx, x->input), 1e-5f);
  ggml_set_output(x->features);
  x->row_max = ggml_argmax(x->ctx, x->input);
  ggml_set_output(x->row_max);
  x->gf = ggml_new_graph(x->ctx);
  ggml_build_forward_expand(x->gf, x->features);
}

int main(void) {
  ggml_backend_t backend = ggml_backend_cpu_init();
  struct extractor x;
  extractor_build(&x);
  ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  if (!ggml_gallocr_alloc_graph(ga, x.gf)) {
    fprintf(stderr, "graph allocation failed\n");
    return 1;
  }
  float in[N_FEAT * N_ROWS];
  for (int i = 0; i < N_FEAT * N_ROWS; i++) in[i] = (float)((i * 7) % 11) - 5.0f;
  ggml_backend_tensor_set(x.input, in, 0, sizeof in);
  ggml_backend_graph_compute(backend, x.gf);
  float feat[N_FEAT * N_ROWS];
  ggml_backend_tensor_get(x.features, feat, 0, sizeof feat);
  int32_t best[N_ROWS];
  ggml_backend_tensor_get(x.row_max, best, 0, sizeof best); // expect-error: ggml-buffer-not-set
  printf("feat[0] %.3f, best[0] %d\n", feat[0], best[0]);
  ggml_gallocr_free(ga);
  ggml_free(x.ctx);
  ggml_backend_free(backend);
  return 0;
}
