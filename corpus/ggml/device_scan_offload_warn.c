// corpus/ggml/device_scan_offload_warn.c — the device scan applications do before they offload
// (llama.cpp's model loader walks the registry the same way): every device of the registry,
// `ggml_backend_dev_type` compared with GGML_BACKEND_DEVICE_TYPE_GPU, the first GPU kept. With
// --offload the embedding table goes to that device, else to the CPU device the same scan
// finds. The table is then filled with memset on t->data: right for the CPU, device memory
// for the GPU. Which device the scan finds is decided at run time: a warning.
// run-args: --offload
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

struct embedder {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *tok_embd;
};

static ggml_backend_dev_t find_device(enum ggml_backend_dev_type want) {
  for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    if (ggml_backend_dev_type(dev) == want) return dev;
  }
  return NULL;
}

static int embedder_init(struct embedder *em, int offload, int n_vocab, int n_embd) {
  ggml_backend_dev_t dev = offload ? find_device(GGML_BACKEND_DEVICE_TYPE_GPU) : NULL;
  if (!dev) dev = find_device(GGML_BACKEND_DEVICE_TYPE_CPU);
  if (!dev) return 0;
  printf("embedding table on %s\n", ggml_backend_dev_name(dev));
  em->backend = ggml_backend_dev_init(dev, NULL);
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  em->ctx = ggml_init(params);
  em->tok_embd = ggml_new_tensor_2d(em->ctx, GGML_TYPE_F32, n_embd, n_vocab);
  em->buffer = ggml_backend_alloc_ctx_tensors(em->ctx, em->backend);
  return em->buffer != NULL;
}

static void embedder_reset(struct embedder *em) {
  memset(em->tok_embd->data, 0, ggml_nbytes(em->tok_embd)); // expect-warning: ggml-host-access
}

int main(int argc, char **argv) {
  int offload = argc > 1 && strcmp(argv[1], "--offload") == 0;
  struct embedder em;
  if (!embedder_init(&em, offload, 32, 16)) return 1;
  embedder_reset(&em);
  ggml_backend_buffer_free(em.buffer);
  ggml_free(em.ctx);
  ggml_backend_free(em.backend);
  return 0;
}
