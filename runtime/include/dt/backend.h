/* dt/backend.h — the device interface, for backend authors.
 *
 * A backend is a struct of function pointers (like ggml's ggml_backend_i) registered with the
 * runtime under an API version. The runtime owns tensors, tags, shapes, checks and autodiff;
 * a backend only owns device memory and executes fully resolved operation descriptors
 * (dt_op_desc): every shape, stride and broadcast has been worked out before `run` is called,
 * and every pointer in a descriptor is a device pointer returned by the same backend's `alloc`
 * on the same ordinal. Data is contiguous and row-major. Element types: DT_FLOAT = float,
 * DT_INT = int64_t, DT_BOOL = uint8_t (0 or 1). */
#ifndef DT_BACKEND_H
#define DT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "dt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DT_BACKEND_API_VERSION 2 /* 2: the activation gradients (DT_OP_*_GRAD) */

typedef enum dt_op {
  DT_OP_FILL,       /* out[i] = u.scalar.value, converted to out_kind */
  DT_OP_ADD,        /* broadcast binary: out = in0 op in1 (u.bcast); kind float or int */
  DT_OP_SUB,
  DT_OP_MUL,
  DT_OP_DIV,        /* int division truncates; division by zero in int gives 0 */
  DT_OP_GREATER,    /* broadcast binary: out (bool) = in0 > in1 */
  DT_OP_WHERE,      /* broadcast ternary: out = in0 (bool) ? in1 : in2; kind = kind of in1/in2 */
  DT_OP_ADD_SCALAR, /* out = in0 + u.scalar.value (float) */
  DT_OP_MUL_SCALAR, /* out = in0 * u.scalar.value (float) */
  DT_OP_NEG,        /* unary, same kind in and out (float or int) */
  DT_OP_EXP,        /* unary float */
  DT_OP_LOG,
  DT_OP_RELU,       /* float or int */
  DT_OP_SIGMOID,
  DT_OP_TANH,
  DT_OP_SUM_DIM,    /* in0 viewed as [outer, len, inner] -> out [outer, inner],
                       out = scale * sum over len (u.reduce); a full sum is outer = inner = 1;
                       mean is scale = 1/len. For int, scale is ignored. */
  DT_OP_MATMUL,     /* op(in0) [m, k] x op(in1) [k, n] -> out [m, n] (u.matmul); float or int.
                       op(x) is x, or x transposed when u.matmul.trans_a (in0 stored [k, m]) or
                       trans_b (in1 stored [n, k]) is set: backward products read transposed
                       operands in place, never copied. Every backend honours both flags. */
  DT_OP_TRANSPOSE,  /* in0 [rows, cols] -> out [cols, rows] (u.transpose); any kind */
  DT_OP_COPY_SLICE, /* for cat and its gradient (u.slice), any kind: for o < outer, j < len:
                         out[(o*dst_len + dst_start + j)*inner + i] =
                         in0[(o*src_len + src_start + j)*inner + i]
                       Elements of out outside the slice are left untouched. */
  DT_OP_MSE,        /* out (one float) = mean over n of (in0[i] - in1[i])^2; same n elements.
                       Here desc.n counts the INPUT elements (the runtime also sets u.reduce to
                       outer = inner = 1, len = n, scale = 1/n); n = 0 gives NaN. */
  DT_OP_RELU_GRAD,    /* float map of two same-shape inputs (the backward pass's fused kernels):
                         out = in0 > 0 ? in1 : 0 -- in0 relu's output (or input: both are
                         > 0 at the same places), in1 its output's gradient */
  DT_OP_SIGMOID_GRAD, /* out = in1 * in0 * (1 - in0) -- in0 sigmoid's output */
  DT_OP_TANH_GRAD,    /* out = in1 * (1 - in0 * in0) -- in0 tanh's output */
  DT_OP_COUNT
} dt_op;

typedef struct dt_op_desc {
  dt_op op;
  dt_kind kind;     /* element kind of the data inputs (for WHERE: of in[1] and in[2]) */
  dt_kind out_kind; /* element kind of out */
  const void *in[3];
  void *out;
  int64_t n; /* number of output elements */
  union {
    struct {
      int rank;                            /* output rank (0 for one element) */
      int64_t shape[DT_MAX_RANK];          /* output shape */
      int64_t strides[3][DT_MAX_RANK];     /* element strides of in[i] over the output's axes;
                                              0 on broadcast axes */
      int contiguous;                      /* 1 when every input has the output's shape */
    } bcast;
    struct {
      float value;
    } scalar;
    struct {
      int64_t outer, len, inner;
      float scale;
    } reduce;
    struct {
      int64_t m, k, n;
      int trans_a, trans_b; /* 0 or 1: in0 / in1 read transposed */
      int precision;        /* a dt_matmul_precision: DT_MATMUL_EXACT (0) unless asked */
    } matmul;
    struct {
      int64_t rows, cols;
    } transpose;
    struct {
      int64_t outer, inner, len;
      int64_t src_len, src_start;
      int64_t dst_len, dst_start;
    } slice;
  } u;
} dt_op_desc;

typedef struct dt_backend_iface {
  int api_version; /* DT_BACKEND_API_VERSION */
  dt_backend backend;
  const char *name; /* "cpu", "sim", "cuda" */

  /* 0 when the backend can be used on this machine; otherwise writes the reason into why. */
  int (*probe)(char *why, size_t why_len);
  int (*device_count)(void);

  void *(*alloc)(int ordinal, size_t bytes); /* NULL on failure; bytes may be 0 */
  void (*free)(int ordinal, void *ptr);
  int (*copy_in)(int ordinal, void *dst, const void *host_src, size_t bytes);
  int (*copy_out)(int ordinal, void *host_dst, const void *src, size_t bytes);
  /* Optional (NULL: the runtime goes through host memory). Copies within one ordinal. */
  int (*copy_device)(int ordinal, void *dst, const void *src, size_t bytes);

  int (*run)(int ordinal, const dt_op_desc *op); /* 0 on success */
  int (*synchronize)(int ordinal);               /* optional */
  /* Optional: text of the last failure on the calling thread, for DT_ERR_DEVICE messages. */
  const char *(*last_error)(void);
} dt_backend_iface;

/* Registers (or replaces) the interface for iface->backend. Returns 0, or -1 when the API
   version differs or the struct is incomplete. */
int dt_register_backend(const dt_backend_iface *iface);

/* The symbol a backend plugin (a shared object opened with dlopen, such as libdt_cuda.so)
   exports; it returns the plugin's interface. */
#define DT_BACKEND_PLUGIN_ENTRY "dt_backend_plugin_entry"
typedef const dt_backend_iface *(*dt_backend_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* DT_BACKEND_H */
