// corpus/ggml/tensor_alloc_device_bug.c — a loader that places one tensor at a time at an
// address of its own choosing (ggml_backend_tensor_alloc) in a buffer of the backend it gets
// from the registry by device type (ggml_backend_init_by_type(GPU)). Bug: the tensor is then
// filled through t->data, device memory; ggml_backend_tensor_set is the copy that works.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

struct loader {
  ggml_backend_t backend;
  ggml_backend_buffer_t buffer;
  size_t offset;
};

static void place(struct loader *ld, struct ggml_tensor *t) {
  char *base = ggml_backend_buffer_get_base(ld->buffer);
  ggml_backend_tensor_alloc(ld->buffer, t, base + ld->offset);
  ld->offset += ggml_backend_buffer_get_alloc_size(ld->buffer, t);
}

static void fill(struct ggml_tensor *t, float value) {
  float *p = (float *)t->data;
  p[0] = value; // expect-error: ggml-host-access
}

int main(void) {
  struct loader ld = {NULL, NULL, 0};
  ld.backend = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
  if (!ld.backend) {
    fprintf(stderr, "no GPU backend\n");
    return 1;
  }
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *scale = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  ld.buffer = ggml_backend_alloc_buffer(ld.backend, 4096);
  place(&ld, scale);
  fill(scale, 2.0f);
  ggml_backend_buffer_free(ld.buffer);
  ggml_free(ctx);
  ggml_backend_free(ld.backend);
  return 0;
}
