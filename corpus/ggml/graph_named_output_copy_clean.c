/* corpus/ggml/graph_named_output_copy_clean.c — a token-embedding graph: rows of an f32 table
 * picked by i32 token ids (ggml_get_rows), scaled, and named "pooled". After
 * ggml_gallocr_alloc_graph places the graph, the caller finds the output again by its name and
 * copies it into an f32 mirror tensor in a CPU buffer. The lookup finds the named output, not
 * the i32 ids beside it: the graph still holds the tensors it was built from once they are
 * in memory. Correct. */
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define N_EMBD 4
#define N_VOCAB 6
#define N_TOK 3

int main(void) {
  ggml_backend_t backend = ggml_backend_cpu_init();
  struct ggml_init_params mp = {ggml_tensor_overhead(), NULL, true};
  struct ggml_context *ctx_m = ggml_init(mp);
  struct ggml_tensor *mirror = ggml_new_tensor_2d(ctx_m, GGML_TYPE_F32, N_EMBD, N_TOK);
  ggml_backend_buffer_t buf_m = ggml_backend_alloc_ctx_tensors_from_buft(ctx_m, ggml_backend_cpu_buffer_type());

  struct ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(gp);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_TOK);
  ggml_set_name(ids, "ids");
  ggml_set_input(ids);
  struct ggml_tensor *table = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  ggml_set_name(table, "table");
  ggml_set_input(table);
  struct ggml_tensor *rows = ggml_get_rows(ctx, table, ids);
  struct ggml_tensor *pooled = ggml_scale(ctx, rows, 0.5f);
  ggml_set_name(pooled, "pooled");
  ggml_set_output(pooled);
  ggml_build_forward_expand(gf, pooled);

  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  if (!ggml_gallocr_alloc_graph(galloc, gf)) return 1;
  float t[N_EMBD * N_VOCAB];
  for (int i = 0; i < N_EMBD * N_VOCAB; i++) t[i] = 0.1f * (float)i;
  int32_t tok[N_TOK] = {5, 0, 2};
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "table"), t, 0, sizeof t);
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "ids"), tok, 0, sizeof tok);
  if (ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) return 1;

  ggml_backend_tensor_copy(ggml_graph_get_tensor(gf, "pooled"), mirror);
  printf("first row: %.2f %.2f\n", (double)ggml_get_f32_1d(mirror, 0), (double)ggml_get_f32_1d(mirror, 1));

  ggml_gallocr_free(galloc);
  ggml_free(ctx);
  ggml_backend_buffer_free(buf_m);
  ggml_free(ctx_m);
  ggml_backend_free(backend);
  return 0;
}
