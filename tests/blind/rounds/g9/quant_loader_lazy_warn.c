// provenance: blind round g9
// run-env: LOADER_LAZY=1
// A model loader for a small quantized MLP "file" (an in-memory blob with a tensor table, as
// gguf has): norms and biases in F32, matrices in Q4_0 / Q8_0. With LOADER_LAZY=1 the
// quantized tensors get their device buffer only when the first forward needs them
// (ensure_resident), so the eager upload pass is meant to skip them.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define MAX_TENSORS 16
#define N_IN 64
#define N_HID 128
#define N_OUT 32

enum tensor_group { GROUP_DENSE = 0, GROUP_QUANT = 1, N_GROUPS = 2 };

struct tensor_meta {
  char name[48];
  enum ggml_type type;
  int64_t ne0, ne1;
  size_t offs, size;
  int deferred; /* lazy mode: uploaded by ensure_resident */
};

struct blob {
  unsigned char *data;
  size_t size, cap;
  struct tensor_meta meta[MAX_TENSORS];
  int n_tensors;
};

struct loader {
  struct blob *file;
  int lazy;
};

struct mlp_model {
  ggml_backend_t backend;
  struct ggml_context *ctx[N_GROUPS];
  ggml_backend_buffer_t buf[N_GROUPS];
  struct ggml_tensor *t[MAX_TENSORS];
  int n_tensors;
  ggml_gallocr_t galloc;
};

static void blob_add(struct blob *b, const char *name, enum ggml_type type, int64_t ne0, int64_t ne1, uint32_t seed) {
  struct tensor_meta *m = &b->meta[b->n_tensors++];
  snprintf(m->name, sizeof m->name, "%s", name);
  m->type = type;
  m->ne0 = ne0;
  m->ne1 = ne1;
  m->size = ggml_row_size(type, ne0) * (size_t)ne1;
  if (b->size + m->size > b->cap) {
    b->cap = (b->size + m->size) * 2;
    b->data = realloc(b->data, b->cap);
  }
  m->offs = b->size;
  float *f = malloc((size_t)(ne0 * ne1) * sizeof(float));
  for (int64_t i = 0; i < ne0 * ne1; i++) {
    seed = seed * 1664525u + 1013904223u;
    f[i] = ((float)(seed >> 16) / 65536.0f - 0.5f) * 0.2f;
  }
  if (type == GGML_TYPE_F32) memcpy(b->data + m->offs, f, m->size);
  else ggml_quantize_chunk(type, f, b->data + m->offs, 0, ne1, ne0, NULL);
  free(f);
  b->size += m->size;
}

static void write_model_file(struct blob *b) {
  memset(b, 0, sizeof *b);
  blob_add(b, "in_norm.weight", GGML_TYPE_F32, N_IN, 1, 1);
  blob_add(b, "fc1.weight", GGML_TYPE_Q8_0, N_IN, N_HID, 2);
  blob_add(b, "fc1.bias", GGML_TYPE_F32, N_HID, 1, 3);
  blob_add(b, "fc2.weight", GGML_TYPE_Q4_0, N_HID, N_HID, 4);
  blob_add(b, "fc2.bias", GGML_TYPE_F32, N_HID, 1, 5);
  blob_add(b, "out.weight", GGML_TYPE_Q8_0, N_HID, N_OUT, 6);
}

static enum tensor_group group_of(enum ggml_type type) {
  return ggml_is_quantized(type) ? GROUP_QUANT : GROUP_DENSE;
}

static void upload_tensor(struct ggml_tensor *t, const unsigned char *src, size_t size) {
  ggml_backend_tensor_set(t, src, 0, size); // expect-warning: ggml-buffer-not-set
}

static int alloc_group(struct mlp_model *m, enum tensor_group g) {
  if (m->buf[g]) return 1;
  m->buf[g] = ggml_backend_alloc_ctx_tensors(m->ctx[g], m->backend);
  return m->buf[g] != NULL;
}

static int load_model(struct loader *ld, struct mlp_model *m) {
  struct ggml_init_params p = {ggml_tensor_overhead() * MAX_TENSORS, NULL, true};
  for (int g = 0; g < N_GROUPS; g++) m->ctx[g] = ggml_init(p);
  m->n_tensors = ld->file->n_tensors;
  for (int i = 0; i < m->n_tensors; i++) {
    const struct tensor_meta *meta = &ld->file->meta[i];
    struct ggml_context *ctx = m->ctx[group_of(meta->type)];
    m->t[i] = meta->ne1 > 1 ? ggml_new_tensor_2d(ctx, meta->type, meta->ne0, meta->ne1) : ggml_new_tensor_1d(ctx, meta->type, meta->ne0);
    ggml_set_name(m->t[i], meta->name);
  }
  if (!alloc_group(m, GROUP_DENSE)) return 0;
  if (!ld->lazy && !alloc_group(m, GROUP_QUANT)) return 0;

  /* eager pass: everything that already has memory */
  for (int i = 0; i < m->n_tensors; i++) {
    struct tensor_meta *meta = &ld->file->meta[i];
    meta->deferred = ld->lazy && meta->type == GGML_TYPE_Q4_0;
    if (meta->deferred) continue;
    upload_tensor(m->t[i], ld->file->data + meta->offs, meta->size);
  }
  m->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->backend));
  return 1;
}

static int ensure_resident(struct loader *ld, struct mlp_model *m) {
  if (!alloc_group(m, GROUP_QUANT)) return 0;
  for (int i = 0; i < m->n_tensors; i++) {
    struct tensor_meta *meta = &ld->file->meta[i];
    if (!meta->deferred) continue;
    upload_tensor(m->t[i], ld->file->data + meta->offs, meta->size);
    meta->deferred = 0;
  }
  return 1;
}

static struct ggml_tensor *find(struct mlp_model *m, const char *name) {
  for (int i = 0; i < m->n_tensors; i++)
    if (strcmp(m->t[i]->name, name) == 0) return m->t[i];
  return NULL;
}

static int forward(struct loader *ld, struct mlp_model *m, const float *x_host, int n_batch, float *y_host) {
  if (!ensure_resident(ld, m)) return 0;
  struct ggml_init_params p = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_IN, n_batch);
  ggml_set_input(x);
  struct ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), find(m, "in_norm.weight"));
  h = ggml_gelu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, find(m, "fc1.weight"), h), find(m, "fc1.bias")));
  h = ggml_gelu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, find(m, "fc2.weight"), h), find(m, "fc2.bias")));
  struct ggml_tensor *y = ggml_mul_mat(ctx, find(m, "out.weight"), h);
  ggml_set_output(y);
  ggml_build_forward_expand(gf, y);
  int ok = ggml_gallocr_alloc_graph(m->galloc, gf);
  if (ok) {
    ggml_backend_tensor_set(x, x_host, 0, ggml_nbytes(x));
    ok = ggml_backend_graph_compute(m->backend, gf) == GGML_STATUS_SUCCESS;
  }
  if (ok) ggml_backend_tensor_get(y, y_host, 0, ggml_nbytes(y));
  ggml_free(ctx);
  return ok;
}

int main(void) {
  struct blob file;
  write_model_file(&file);
  const char *lazy = getenv("LOADER_LAZY");
  struct loader ld = {&file, lazy != NULL && strcmp(lazy, "1") == 0};

  struct mlp_model m;
  memset(&m, 0, sizeof m);
  m.backend = ggml_backend_cuda_init(0);
  if (!m.backend || !load_model(&ld, &m)) return 1;

  enum { BATCH = 4 };
  float x[N_IN * BATCH], y[N_OUT * BATCH];
  for (int i = 0; i < N_IN * BATCH; i++) x[i] = sinf(0.1f * (float)i);
  for (int rep = 0; rep < 2; rep++) {
    if (!forward(&ld, &m, x, BATCH, y)) return 1;
    double s = 0;
    for (int i = 0; i < N_OUT * BATCH; i++) s += fabs(y[i]);
    printf("%s pass %d: mean |y| = %.5f\n", ld.lazy ? "lazy" : "eager", rep, s / (N_OUT * BATCH));
  }

  ggml_gallocr_free(m.galloc);
  for (int g = 0; g < N_GROUPS; g++) {
    if (m.buf[g]) ggml_backend_buffer_free(m.buf[g]);
    ggml_free(m.ctx[g]);
  }
  ggml_backend_free(m.backend);
  free(file.data);
  return 0;
}
