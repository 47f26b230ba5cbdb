/* dt/dt.h — the public API of dt, the dispatch tensor runtime (SPEC §3).
 *
 * Every tensor carries a device tag (backend, ordinal, autodiff-ness) and a kind; every
 * operation checks its operands' tags before it touches data and fails with one of the rule ids
 * of dt/rules.def. Failures print "file:line: op: message [rule-id]" and abort by default;
 * DT_ON_ERROR=return (or dt_set_error_mode(DT_ERRORS_RETURN)) makes them return NULL / non-zero
 * and leave the status in dt_last_status() / dt_last_error().
 *
 * Each fallible public name is also a variadic macro that passes the caller's __FILE__ and
 * __LINE__ to a *_at twin, so messages name the caller's line. The plain names remain real
 * functions (&dt_add works). Define DT_NO_CALLSITE before including this header to turn the
 * macros off; the analyzer (tagcheck) defines __TAGCHECK__, which does the same. */
#ifndef DT_DT_H
#define DT_DT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DT_VERSION_MAJOR 0
#define DT_VERSION_MINOR 1
#define DT_VERSION_PATCH 0
#define DT_VERSION_STRING "0.1.0"

/* The largest rank a tensor may have. */
#define DT_MAX_RANK 8

typedef enum dt_backend { DT_BACKEND_CPU = 1, DT_BACKEND_SIM = 2, DT_BACKEND_CUDA = 3 } dt_backend;
typedef enum dt_kind { DT_FLOAT = 1, DT_INT = 2, DT_BOOL = 3 } dt_kind; /* f32, i64, bool (1 byte) */
typedef struct dt_device {
  dt_backend backend;
  int ordinal;
  int autodiff;
} dt_device;
typedef struct dt_tensor dt_tensor; /* opaque */

typedef enum dt_status {
  DT_OK = 0,
  DT_ERR_BACKEND_MISMATCH,
  DT_ERR_AUTODIFF_INNER_BACKEND,
  DT_ERR_AUTODIFF_EXPECTED,
  DT_ERR_AUTODIFF_NESTED,
  DT_ERR_DEVICE_MISMATCH,
  DT_ERR_KIND_MISMATCH,
  DT_ERR_BACKEND_UNAVAILABLE,
  DT_ERR_SHAPE,
  DT_ERR_INVALID_ARGUMENT,
  DT_ERR_OUT_OF_MEMORY,
  DT_ERR_DEVICE
} dt_status;
typedef enum dt_error_mode { DT_ERRORS_ABORT = 0, DT_ERRORS_RETURN = 1 } dt_error_mode;

/* ---- devices (never fail, but dt_autodiff of an autodiff device: autodiff-nested) ---- */
dt_device dt_cpu(void);
dt_device dt_sim(int ordinal);
dt_device dt_cuda(int ordinal);
dt_device dt_autodiff(dt_device inner);
dt_device dt_inner_device(dt_device d);
int dt_device_equal(dt_device a, dt_device b);
/* Writes "cpu", "sim:1", "autodiff<cuda:0>" (NUL-terminated, truncated to n); returns the
   length the full name needs, like snprintf. */
int dt_device_name(dt_device d, char *buf, size_t n);
int dt_backend_available(dt_backend b);

/* ---- creation ---- */
dt_tensor *dt_zeros(dt_device d, dt_kind k, int rank, const int64_t *shape);
dt_tensor *dt_ones(dt_device d, dt_kind k, int rank, const int64_t *shape);
dt_tensor *dt_full(dt_device d, float value, int rank, const int64_t *shape);
dt_tensor *dt_from_floats(dt_device d, const float *data, int rank, const int64_t *shape);
dt_tensor *dt_from_ints(dt_device d, const int64_t *data, int rank, const int64_t *shape);
dt_tensor *dt_randn(dt_device d, uint64_t seed, int rank, const int64_t *shape);
void dt_free(dt_tensor *t); /* NULL is a no-op */

/* ---- queries and host access ---- */
dt_device dt_device_of(const dt_tensor *t);
dt_kind dt_kind_of(const dt_tensor *t);
int dt_rank(const dt_tensor *t);
int64_t dt_dim(const dt_tensor *t, int axis);
int64_t dt_numel(const dt_tensor *t);
int dt_read_floats(const dt_tensor *t, float *out, int64_t n);
int dt_read_ints(const dt_tensor *t, int64_t *out, int64_t n);

/* ---- transfer ---- */
dt_tensor *dt_to_device(const dt_tensor *t, dt_device d);

/* ---- autodiff ---- */
dt_tensor *dt_from_inner(dt_device ad, dt_tensor *inner);
dt_tensor *dt_inner(const dt_tensor *t);
dt_tensor *dt_require_grad(dt_tensor *t);
dt_tensor *dt_detach(const dt_tensor *t);
int dt_backward(dt_tensor *loss);
dt_tensor *dt_grad(const dt_tensor *t);

/* ---- operations ---- */
dt_tensor *dt_add(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_sub(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_mul(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_div(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_matmul(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_add_scalar(const dt_tensor *a, float s);
dt_tensor *dt_mul_scalar(const dt_tensor *a, float s);
dt_tensor *dt_neg(const dt_tensor *a);
dt_tensor *dt_exp(const dt_tensor *a);
dt_tensor *dt_log(const dt_tensor *a);
dt_tensor *dt_relu(const dt_tensor *a);
dt_tensor *dt_sigmoid(const dt_tensor *a);
dt_tensor *dt_tanh(const dt_tensor *a);
dt_tensor *dt_sum(const dt_tensor *a);
dt_tensor *dt_mean(const dt_tensor *a);
dt_tensor *dt_sum_dim(const dt_tensor *a, int axis);
dt_tensor *dt_reshape(const dt_tensor *a, int rank, const int64_t *shape);
dt_tensor *dt_transpose(const dt_tensor *a);
dt_tensor *dt_cat(int n, dt_tensor *const *ts, int axis);
dt_tensor *dt_greater(const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_where(const dt_tensor *cond, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_mse_loss(const dt_tensor *pred, const dt_tensor *target);

/* ---- matrix-product precision (process-wide; exact by default, so results stay exact) ----
   DT_MATMUL_FAST lets a backend use a faster, less precise float product where it has one:
   TF32 tensor cores on cuda (inputs rounded to 10 mantissa bits, FP32 accumulation); cpu and
   sim stay exact. Applies to products started after the call, forward and backward. */
typedef enum dt_matmul_precision { DT_MATMUL_EXACT = 0, DT_MATMUL_FAST = 1 } dt_matmul_precision;
void dt_set_matmul_precision(dt_matmul_precision p);
dt_matmul_precision dt_get_matmul_precision(void);

/* ---- errors ---- */
void dt_set_error_mode(dt_error_mode m);
dt_error_mode dt_get_error_mode(void);
dt_status dt_last_status(void); /* thread-local; DT_OK after a call that succeeded */
const char *dt_last_error(void); /* thread-local; "" when the last call succeeded */
const char *dt_status_rule_id(dt_status s); /* "backend-mismatch", …; "ok" for DT_OK */

/* ---- call-site twins: the same functions with the caller's file and line ---- */
#define DT_SITE_PARAMS const char *dt_file_, int dt_line_
dt_device dt_autodiff_at(DT_SITE_PARAMS, dt_device inner);
dt_tensor *dt_zeros_at(DT_SITE_PARAMS, dt_device d, dt_kind k, int rank, const int64_t *shape);
dt_tensor *dt_ones_at(DT_SITE_PARAMS, dt_device d, dt_kind k, int rank, const int64_t *shape);
dt_tensor *dt_full_at(DT_SITE_PARAMS, dt_device d, float value, int rank, const int64_t *shape);
dt_tensor *dt_from_floats_at(DT_SITE_PARAMS, dt_device d, const float *data, int rank,
                             const int64_t *shape);
dt_tensor *dt_from_ints_at(DT_SITE_PARAMS, dt_device d, const int64_t *data, int rank,
                           const int64_t *shape);
dt_tensor *dt_randn_at(DT_SITE_PARAMS, dt_device d, uint64_t seed, int rank, const int64_t *shape);
dt_device dt_device_of_at(DT_SITE_PARAMS, const dt_tensor *t);
dt_kind dt_kind_of_at(DT_SITE_PARAMS, const dt_tensor *t);
int dt_rank_at(DT_SITE_PARAMS, const dt_tensor *t);
int64_t dt_dim_at(DT_SITE_PARAMS, const dt_tensor *t, int axis);
int64_t dt_numel_at(DT_SITE_PARAMS, const dt_tensor *t);
int dt_read_floats_at(DT_SITE_PARAMS, const dt_tensor *t, float *out, int64_t n);
int dt_read_ints_at(DT_SITE_PARAMS, const dt_tensor *t, int64_t *out, int64_t n);
dt_tensor *dt_to_device_at(DT_SITE_PARAMS, const dt_tensor *t, dt_device d);
dt_tensor *dt_from_inner_at(DT_SITE_PARAMS, dt_device ad, dt_tensor *inner);
dt_tensor *dt_inner_at(DT_SITE_PARAMS, const dt_tensor *t);
dt_tensor *dt_require_grad_at(DT_SITE_PARAMS, dt_tensor *t);
dt_tensor *dt_detach_at(DT_SITE_PARAMS, const dt_tensor *t);
int dt_backward_at(DT_SITE_PARAMS, dt_tensor *loss);
dt_tensor *dt_grad_at(DT_SITE_PARAMS, const dt_tensor *t);
dt_tensor *dt_add_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_sub_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_mul_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_div_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_matmul_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_add_scalar_at(DT_SITE_PARAMS, const dt_tensor *a, float s);
dt_tensor *dt_mul_scalar_at(DT_SITE_PARAMS, const dt_tensor *a, float s);
dt_tensor *dt_neg_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_exp_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_log_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_relu_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_sigmoid_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_tanh_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_sum_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_mean_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_sum_dim_at(DT_SITE_PARAMS, const dt_tensor *a, int axis);
dt_tensor *dt_reshape_at(DT_SITE_PARAMS, const dt_tensor *a, int rank, const int64_t *shape);
dt_tensor *dt_transpose_at(DT_SITE_PARAMS, const dt_tensor *a);
dt_tensor *dt_cat_at(DT_SITE_PARAMS, int n, dt_tensor *const *ts, int axis);
dt_tensor *dt_greater_at(DT_SITE_PARAMS, const dt_tensor *a, const dt_tensor *b);
dt_tensor *dt_where_at(DT_SITE_PARAMS, const dt_tensor *cond, const dt_tensor *a,
                       const dt_tensor *b);
dt_tensor *dt_mse_loss_at(DT_SITE_PARAMS, const dt_tensor *pred, const dt_tensor *target);

#if !defined(DT_NO_CALLSITE) && !defined(__TAGCHECK__) && !defined(DT_BUILDING_LIBRARY)
#define DT_AT_(name, ...) name##_at(__FILE__, __LINE__, __VA_ARGS__)
#define dt_autodiff(...) DT_AT_(dt_autodiff, __VA_ARGS__)
#define dt_zeros(...) DT_AT_(dt_zeros, __VA_ARGS__)
#define dt_ones(...) DT_AT_(dt_ones, __VA_ARGS__)
#define dt_full(...) DT_AT_(dt_full, __VA_ARGS__)
#define dt_from_floats(...) DT_AT_(dt_from_floats, __VA_ARGS__)
#define dt_from_ints(...) DT_AT_(dt_from_ints, __VA_ARGS__)
#define dt_randn(...) DT_AT_(dt_randn, __VA_ARGS__)
#define dt_device_of(...) DT_AT_(dt_device_of, __VA_ARGS__)
#define dt_kind_of(...) DT_AT_(dt_kind_of, __VA_ARGS__)
#define dt_rank(...) DT_AT_(dt_rank, __VA_ARGS__)
#define dt_dim(...) DT_AT_(dt_dim, __VA_ARGS__)
#define dt_numel(...) DT_AT_(dt_numel, __VA_ARGS__)
#define dt_read_floats(...) DT_AT_(dt_read_floats, __VA_ARGS__)
#define dt_read_ints(...) DT_AT_(dt_read_ints, __VA_ARGS__)
#define dt_to_device(...) DT_AT_(dt_to_device, __VA_ARGS__)
#define dt_from_inner(...) DT_AT_(dt_from_inner, __VA_ARGS__)
#define dt_inner(...) DT_AT_(dt_inner, __VA_ARGS__)
#define dt_require_grad(...) DT_AT_(dt_require_grad, __VA_ARGS__)
#define dt_detach(...) DT_AT_(dt_detach, __VA_ARGS__)
#define dt_backward(...) DT_AT_(dt_backward, __VA_ARGS__)
#define dt_grad(...) DT_AT_(dt_grad, __VA_ARGS__)
#define dt_add(...) DT_AT_(dt_add, __VA_ARGS__)
#define dt_sub(...) DT_AT_(dt_sub, __VA_ARGS__)
#define dt_mul(...) DT_AT_(dt_mul, __VA_ARGS__)
#define dt_div(...) DT_AT_(dt_div, __VA_ARGS__)
#define dt_matmul(...) DT_AT_(dt_matmul, __VA_ARGS__)
#define dt_add_scalar(...) DT_AT_(dt_add_scalar, __VA_ARGS__)
#define dt_mul_scalar(...) DT_AT_(dt_mul_scalar, __VA_ARGS__)
#define dt_neg(...) DT_AT_(dt_neg, __VA_ARGS__)
#define dt_exp(...) DT_AT_(dt_exp, __VA_ARGS__)
#define dt_log(...) DT_AT_(dt_log, __VA_ARGS__)
#define dt_relu(...) DT_AT_(dt_relu, __VA_ARGS__)
#define dt_sigmoid(...) DT_AT_(dt_sigmoid, __VA_ARGS__)
#define dt_tanh(...) DT_AT_(dt_tanh, __VA_ARGS__)
#define dt_sum(...) DT_AT_(dt_sum, __VA_ARGS__)
#define dt_mean(...) DT_AT_(dt_mean, __VA_ARGS__)
#define dt_sum_dim(...) DT_AT_(dt_sum_dim, __VA_ARGS__)
#define dt_reshape(...) DT_AT_(dt_reshape, __VA_ARGS__)
#define dt_transpose(...) DT_AT_(dt_transpose, __VA_ARGS__)
#define dt_cat(...) DT_AT_(dt_cat, __VA_ARGS__)
#define dt_greater(...) DT_AT_(dt_greater, __VA_ARGS__)
#define dt_where(...) DT_AT_(dt_where, __VA_ARGS__)
#define dt_mse_loss(...) DT_AT_(dt_mse_loss, __VA_ARGS__)
#endif

#ifdef __cplusplus
}
#endif

#endif /* DT_DT_H */
