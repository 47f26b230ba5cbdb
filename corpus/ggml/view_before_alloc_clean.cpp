// corpus/ggml/view_before_alloc_clean.cpp — the fix of view_before_alloc_bug.cpp: the context
// is allocated on the backend (the GPU when one is asked for and present, else the CPU) first,
// then the view of the table's first rows is written and read back through the backend API,
// and a reshaped, transposed copy of it is computed on the same backend.
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

int main(int argc, char **argv) {
  (void)argv;
  ggml_backend_t backend = argc > 1 ? ggml_backend_cuda_init(0) : nullptr;
  if (!backend) backend = ggml_backend_cpu_init();
  ggml_init_params params = {ggml_tensor_overhead() * 4, nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *table = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 8, 32);
  ggml_tensor *rows = ggml_view_2d(ctx, table, 8, 4, table->nb[1], 0);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, backend);
  std::vector<float> in(8 * 4, 0.5f), out(8 * 4);
  ggml_backend_tensor_set(rows, in.data(), 0, in.size() * sizeof(float));

  ggml_init_params gparams = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
  ggml_context *gctx = ggml_init(gparams);
  ggml_tensor *t = ggml_cont(gctx, ggml_transpose(gctx, ggml_reshape_2d(gctx, rows, 4, 8)));
  ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, t);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  if (!ggml_gallocr_alloc_graph(galloc, gf)) return 1;
  ggml_backend_graph_compute(backend, gf);
  ggml_backend_tensor_get(t, out.data(), 0, out.size() * sizeof(float));
  ggml_gallocr_free(galloc);
  ggml_free(gctx);
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(backend);
  return out[0] == 0.5f ? 0 : 1;
}
