/* corpus/ggml/ggml_api.h — the ggml / ggml-backend declarations the ggml corpus programs use:
 * API facts only (names, parameter lists, the ggml_type enum values of ggml.h, the public fields
 * of struct ggml_tensor that programs read); no ggml code. The programs are analyzed with
 * rules/ggml.json (tests/ggml), never linked. */
#ifndef TC_GGML_API_H
#define TC_GGML_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GGML_MAX_DIMS 4
#define GGML_MAX_NAME 64

enum ggml_type {
  GGML_TYPE_F32 = 0,
  GGML_TYPE_F16 = 1,
  GGML_TYPE_Q4_0 = 2,
  GGML_TYPE_Q4_1 = 3,
  GGML_TYPE_Q5_0 = 6,
  GGML_TYPE_Q5_1 = 7,
  GGML_TYPE_Q8_0 = 8,
  GGML_TYPE_Q8_1 = 9,
  GGML_TYPE_Q2_K = 10,
  GGML_TYPE_Q3_K = 11,
  GGML_TYPE_Q4_K = 12,
  GGML_TYPE_Q5_K = 13,
  GGML_TYPE_Q6_K = 14,
  GGML_TYPE_Q8_K = 15,
  GGML_TYPE_I8 = 24,
  GGML_TYPE_I16 = 25,
  GGML_TYPE_I32 = 26,
  GGML_TYPE_I64 = 27,
  GGML_TYPE_F64 = 28,
  GGML_TYPE_BF16 = 30
};

enum ggml_status {
  GGML_STATUS_ALLOC_FAILED = -2,
  GGML_STATUS_FAILED = -1,
  GGML_STATUS_SUCCESS = 0,
  GGML_STATUS_ABORTED = 1
};

struct ggml_context;
struct ggml_cgraph;
typedef struct ggml_backend *ggml_backend_t;
typedef struct ggml_backend_buffer *ggml_backend_buffer_t;
typedef struct ggml_backend_buffer_type *ggml_backend_buffer_type_t;
typedef struct ggml_gallocr *ggml_gallocr_t;

/* the public fields programs read (ggml.h has more) */
struct ggml_tensor {
  enum ggml_type type;
  struct ggml_backend_buffer *buffer;
  int64_t ne[GGML_MAX_DIMS];
  size_t nb[GGML_MAX_DIMS];
  struct ggml_tensor *view_src;
  size_t view_offs;
  void *data;
  char name[GGML_MAX_NAME];
};

struct ggml_init_params {
  size_t mem_size;
  void *mem_buffer;
  bool no_alloc;
};

/* ggml.h */
struct ggml_context *ggml_init(struct ggml_init_params params);
void ggml_free(struct ggml_context *ctx);
size_t ggml_tensor_overhead(void);
size_t ggml_graph_overhead(void);
struct ggml_tensor *ggml_new_tensor_1d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0);
struct ggml_tensor *ggml_new_tensor_2d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0,
                                       int64_t ne1);
struct ggml_tensor *ggml_new_tensor_3d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0,
                                       int64_t ne1, int64_t ne2);
struct ggml_tensor *ggml_dup_tensor(struct ggml_context *ctx, const struct ggml_tensor *src);
struct ggml_tensor *ggml_view_tensor(struct ggml_context *ctx, struct ggml_tensor *src);
struct ggml_tensor *ggml_set_name(struct ggml_tensor *tensor, const char *name);
int64_t ggml_nelements(const struct ggml_tensor *tensor);
size_t ggml_nbytes(const struct ggml_tensor *tensor);
void *ggml_get_data(const struct ggml_tensor *tensor);
float *ggml_get_data_f32(const struct ggml_tensor *tensor);
struct ggml_tensor *ggml_add(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
struct ggml_tensor *ggml_mul(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
struct ggml_tensor *ggml_mul_mat(struct ggml_context *ctx, struct ggml_tensor *a,
                                 struct ggml_tensor *b);
struct ggml_tensor *ggml_scale(struct ggml_context *ctx, struct ggml_tensor *a, float s);
struct ggml_tensor *ggml_relu(struct ggml_context *ctx, struct ggml_tensor *a);
struct ggml_tensor *ggml_gelu(struct ggml_context *ctx, struct ggml_tensor *a);
struct ggml_tensor *ggml_soft_max(struct ggml_context *ctx, struct ggml_tensor *a);
struct ggml_tensor *ggml_cast(struct ggml_context *ctx, struct ggml_tensor *a, enum ggml_type type);
struct ggml_tensor *ggml_cpy(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
struct ggml_tensor *ggml_concat(struct ggml_context *ctx, struct ggml_tensor *a,
                                struct ggml_tensor *b, int dim);
struct ggml_tensor *ggml_get_rows(struct ggml_context *ctx, struct ggml_tensor *a,
                                  struct ggml_tensor *b);
struct ggml_tensor *ggml_rope(struct ggml_context *ctx, struct ggml_tensor *a,
                              struct ggml_tensor *b, int n_dims, int mode);
struct ggml_cgraph *ggml_new_graph(struct ggml_context *ctx);
void ggml_build_forward_expand(struct ggml_cgraph *cgraph, struct ggml_tensor *tensor);
struct ggml_tensor *ggml_graph_node(struct ggml_cgraph *cgraph, int i);
enum ggml_status ggml_graph_compute_with_ctx(struct ggml_context *ctx, struct ggml_cgraph *cgraph,
                                             int n_threads);

/* ggml-backend.h */
ggml_backend_t ggml_backend_cpu_init(void);
bool ggml_backend_is_cpu(ggml_backend_t backend);
void ggml_backend_free(ggml_backend_t backend);
ggml_backend_buffer_type_t ggml_backend_get_default_buffer_type(ggml_backend_t backend);
ggml_backend_buffer_type_t ggml_backend_cpu_buffer_type(void);
ggml_backend_buffer_t ggml_backend_alloc_buffer(ggml_backend_t backend, size_t size);
ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors(struct ggml_context *ctx,
                                                     ggml_backend_t backend);
ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors_from_buft(struct ggml_context *ctx,
                                                               ggml_backend_buffer_type_t buft);
void ggml_backend_buffer_free(ggml_backend_buffer_t buffer);
bool ggml_backend_buffer_is_host(ggml_backend_buffer_t buffer);
void *ggml_backend_buffer_get_base(ggml_backend_buffer_t buffer);
void ggml_backend_tensor_set(struct ggml_tensor *tensor, const void *data, size_t offset,
                             size_t size);
void ggml_backend_tensor_get(const struct ggml_tensor *tensor, void *data, size_t offset,
                             size_t size);
void ggml_backend_tensor_memset(struct ggml_tensor *tensor, uint8_t value, size_t offset,
                                size_t size);
void ggml_backend_tensor_copy(struct ggml_tensor *src, struct ggml_tensor *dst);
enum ggml_status ggml_backend_graph_compute(ggml_backend_t backend, struct ggml_cgraph *cgraph);

/* ggml-alloc.h */
ggml_gallocr_t ggml_gallocr_new(ggml_backend_buffer_type_t buft);
void ggml_gallocr_free(ggml_gallocr_t galloc);
bool ggml_gallocr_alloc_graph(ggml_gallocr_t galloc, struct ggml_cgraph *graph);

/* ggml-cuda.h */
ggml_backend_t ggml_backend_cuda_init(int device);

#endif
