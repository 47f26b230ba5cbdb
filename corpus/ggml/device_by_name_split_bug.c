// corpus/ggml/device_by_name_split_bug.c — an application that picks its devices by name, as
// a command line would give them: the weights go to the device named for weights ("CUDA1"),
// the graph runs on the backend named for compute ("CUDA0"). Bug: without a scheduler to split
// the graph, CUDA0's kernels read the weights in CUDA1's memory.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

struct model {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *w;
};

static int model_load(struct model *m, ggml_backend_dev_t dev, int n) {
  if (!dev) return 0;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  m->ctx = ggml_init(params);
  m->w = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, n);
  m->buf = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx, ggml_backend_dev_buffer_type(dev));
  if (!m->buf) return 0;
  ggml_backend_tensor_memset(m->w, 0, 0, ggml_nbytes(m->w));
  return 1;
}

int main(void) {
  struct model m;
  if (!model_load(&m, ggml_backend_dev_by_name("CUDA1"), 16)) {
    fprintf(stderr, "no weights device\n");
    return 1;
  }
  ggml_backend_t compute = ggml_backend_init_by_name("CUDA0", NULL);
  if (!compute) return 1;
  struct ggml_init_params params = {ggml_tensor_overhead() * 4 + ggml_graph_overhead(), NULL,
                                    true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *out = ggml_scale(ctx, ggml_sqr(ctx, m.w), 0.5f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(compute));
  if (ggml_gallocr_alloc_graph(galloc, gf)) ggml_backend_graph_compute(compute, gf); // expect-error: ggml-backend-mismatch
  ggml_gallocr_free(galloc);
  ggml_free(ctx);
  ggml_backend_free(compute);
  ggml_backend_buffer_free(m.buf);
  ggml_free(m.ctx);
  return 0;
}
