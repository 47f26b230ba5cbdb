// corpus/ggml/tensor_alloc_host_clean.c — the host side of tensor_alloc_device_bug.c done
// right: the tensors are placed one at a time (ggml_backend_tensor_alloc) in a CPU buffer made
// over the program's own memory (ggml_backend_cpu_buffer_from_ptr), so filling them through
// t->data is host access; a graph over them is computed on the CPU backend.
#include <stdint.h>
#include <stdlib.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct arena {
  void *memory;
  ggml_backend_buffer_t buffer;
  size_t offset;
};

static void place(struct arena *a, struct ggml_tensor *t) {
  ggml_backend_tensor_alloc(a->buffer, t, (char *)a->memory + a->offset);
  a->offset += (ggml_nbytes(t) + 63) / 64 * 64;
}

static void fill(struct ggml_tensor *t, float value) {
  float *p = (float *)t->data;
  for (int64_t i = 0; i < ggml_nelements(t); i++) p[i] = value;
}

int main(void) {
  struct arena a = {aligned_alloc(64, 4096), NULL, 0};
  if (!a.memory) return 1;
  a.buffer = ggml_backend_cpu_buffer_from_ptr(a.memory, 4096);
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  struct ggml_tensor *y = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  place(&a, x);
  place(&a, y);
  fill(x, 2.0f);
  fill(y, 3.0f);

  ggml_backend_t cpu = ggml_backend_cpu_init();
  struct ggml_init_params gparams = {ggml_tensor_overhead() * 4 + ggml_graph_overhead(), NULL,
                                     true};
  struct ggml_context *gctx = ggml_init(gparams);
  struct ggml_tensor *z = ggml_mul(gctx, x, y);
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, z);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_cpu_buffer_type());
  float out = 0.0f;
  if (ggml_gallocr_alloc_graph(galloc, gf)) {
    ggml_backend_graph_compute(cpu, gf);
    out = ((float *)z->data)[0];
  }
  ggml_gallocr_free(galloc);
  ggml_free(gctx);
  ggml_backend_free(cpu);
  ggml_backend_buffer_free(a.buffer);
  ggml_free(ctx);
  free(a.memory);
  return out == 6.0f ? 0 : 1;
}
