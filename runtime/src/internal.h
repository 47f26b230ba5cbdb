/* runtime/src/internal.h — what the runtime's modules share: the tensor object, storage, the
 * call site, the precheck, the primitive operations (no tag checks, no graph recording) and
 * the autodiff hooks. Not installed.
 *
 * Handles: the dt_tensor * a caller holds is an encoded handle (handle.c), not an object
 * address. Public entry points turn handles into objects (dt__resolve, or dt__precheck for
 * operands) and objects they return into handles (dt__handle_of); everything below them works
 * on objects only.
 *
 * Layering:
 *   api.c / ops.c   public entry points: set the site, run the precheck (check.c), call a
 *                   primitive, then dt__ad_record() when the result is a tracked autodiff tensor.
 *   prim.c          primitives: shape logic once, then a dt_op_desc dispatched to the backend.
 *                   They operate on storages and ignore autodiff-ness (an autodiff tensor's
 *                   storage IS its inner primitive's storage); the result gets `like`'s device.
 *   autodiff.c      graph nodes, backward, gradients (built from primitives on plain tensors).
 */
#ifndef DT_INTERNAL_H
#define DT_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "dt/backend.h"
#include "dt/dt.h"

/* The caller's site and the operation's public name, for messages. */
typedef struct dt_site {
  const char *file;
  int line;
  const char *op;
} dt_site;

/* Reference-counted device memory. Contiguous, row-major. */
typedef struct dt_storage {
  atomic_int refs;
  dt_backend backend;
  int ordinal;
  const dt_backend_iface *iface;
  void *data;
  size_t bytes;
} dt_storage;

struct dt_ad_node; /* autodiff.c */

struct dt_tensor {
  dt_device device; /* as dt_device_of reports it (autodiff flag included) */
  dt_kind kind;
  int rank;
  int64_t shape[DT_MAX_RANK];
  int64_t numel;
  dt_storage *storage;     /* on dt_inner_device(device) */
  struct dt_ad_node *node; /* tracked autodiff float tensors: their graph node (owned ref) */
  int requires_grad;       /* leaf marked by dt_require_grad */
};

/* ---- errors (error.c) ---- */
/* Records a failure for the calling thread: formats "file:line: op: message [rule-id]",
   stores status and message, prints and aborts in DT_ERRORS_ABORT mode. Returns status. */
dt_status dt__fail(const dt_site *site, dt_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void dt__ok(void); /* a call succeeded: status DT_OK, message "" */
/* Formats a tag for messages: "cpu", "autodiff<sim:1>", "float autodiff<cpu>" ... */
void dt__tag_string(const dt_tensor *t, char *buf, size_t n);
const char *dt__kind_name(dt_kind k);

/* Live-object counters (live.c), for tests that prove memory stays flat: per-thread shards,
   counted by dt__live_add (inline: a load and a store), summed by the readers. */
int64_t dt__live_tensors(void);
int64_t dt__live_storages(void);
enum { DT_LIVE_TENSORS, DT_LIVE_STORAGES, DT_LIVE_COUNTERS };
typedef struct dt_live_shard {
  _Atomic int64_t count[DT_LIVE_COUNTERS]; /* written by its thread only */
  struct dt_live_shard *next;              /* the registered shards (live.c, under its lock) */
  int registered;
} dt_live_shard;
extern _Thread_local dt_live_shard dt__tl_live;
void dt__live_register(dt_live_shard *s);
static inline void dt__live_add(int which, int64_t delta) {
  dt_live_shard *s = &dt__tl_live;
  if (!s->registered) dt__live_register(s);
  atomic_store_explicit(&s->count[which],
                        atomic_load_explicit(&s->count[which], memory_order_relaxed) + delta,
                        memory_order_relaxed);
}
/* Allocation-failure injection for tests (tensor.c): the n-th host or device allocation from
   now on fails (1 = the next one); 0 disables. Thread-local. Every allocation site asks
   dt__alloc_should_fail first (inline: one thread-local load when injection is off). */
void dt__fail_alloc_after(int64_t n);
extern _Thread_local int64_t dt__tl_fail_after;
static inline int dt__alloc_should_fail(void) {
  if (dt__tl_fail_after == 0) return 0;
  return --dt__tl_fail_after == 0;
}
/* Host scratch memory (an allocation site): NULL after recording out-of-memory against site. */
void *dt__host_alloc(const dt_site *site, size_t bytes);

/* Run-time findings as SARIF (report_sarif.c): when DT_REPORT=path.sarif is set, every
   recorded failure is kept and the log is written at exit, with the analyzer's rule ids and
   fingerprint scheme. Called by dt__fail with the formatted message text alone (no
   "file:line: op: " prefix, no " [rule-id]" suffix: site and status carry those). */
void dt__report_record(const dt_site *site, dt_status status, const char *message);

/* ---- devices and backends (device.c) ---- */
/* The registered, usable interface for a device's inner backend, or NULL after a
   backend-unavailable failure has been recorded against site. */
const dt_backend_iface *dt__backend_for(const dt_site *site, dt_device d);
int dt__device_valid(dt_device d); /* backend in range, ordinal >= 0 */

/* ---- tag-check messages (message.c), from the table shared with rules/dt.json ---- */
typedef enum dt_message {
#define DT_MESSAGE(name, status, key, template) name,
#include "dt/messages.def"
#undef DT_MESSAGE
  DT_MSG_COUNT
} dt_message;
/* What a template's placeholders are filled with (dt/messages.def says which is which). */
typedef struct dt_msg_args {
  dt_device expected, got;    /* {expected} {got} {expected_inner} {got_inner} */
  dt_kind kind;               /* {kind} */
  int index;                  /* {index}, 1-based */
  int n_all;                  /* {kinds}: the kinds of these operands */
  const dt_tensor *const *all;
  const char *backend, *why;  /* {backend} {why} */
} dt_msg_args;
const char *dt__message_template(dt_message m);
void dt__message_format(dt_message m, const dt_msg_args *a, char *buf, size_t len);
/* Records the failure: the template's rule (status) and the filled-in text. */
dt_status dt__fail_message(const dt_site *site, dt_message m, const dt_msg_args *a);

/* ---- the tag checks (check.c), named like the rules' checks (docs/rules.md) ---- */
typedef enum dt_kind_rule {
  DT_KINDS_ANY,        /* operands must share one kind, any kind (cat, reshape) */
  DT_KINDS_NUMERIC,    /* share one kind, float or int (add, matmul, neg, relu, sum, greater) */
  DT_KINDS_FLOAT,      /* float only (exp, log, sigmoid, tanh, mean, mse_loss) */
  DT_KINDS_WHERE,      /* operand 0 bool; operands 1 and 2 share one kind */
  DT_KINDS_INTEGRAL    /* int or bool only (dt_read_ints) */
} dt_kind_rule;
/* Resolves n operand handles into objs (NULL, freed and foreign handles first), then checks the
   objects against each other by SPEC §4's precedence (autodiff-nested … kind-mismatch).
   Returns DT_OK or the recorded failure. */
dt_status dt__precheck(const dt_site *site, int n, const dt_tensor *const *handles,
                       const dt_tensor **objs, dt_kind_rule kinds);
/* dt_to_device's check: live handle (resolved into *obj), valid target device, same
   autodiff-ness (autodiff-expected). Whether d's backend is available is decided when
   allocating on it. */
dt_status dt__precheck_transfer(const dt_site *site, const dt_tensor *handle, dt_device d,
                                const dt_tensor **obj);
/* The checks of the one-operand functions: autodiff_required (dt_inner, dt_grad,
   dt_require_grad, dt_backward: the object of a live autodiff handle, NULL after recording
   invalid-argument or autodiff-expected), plain_device (dt_autodiff: autodiff-nested) and
   wraps (dt_from_inner: autodiff-nested, autodiff-expected, autodiff-inner-backend,
   device-mismatch, in SPEC §4's order; invalid-argument for an invalid device first). */
/* The kinds check alone, on resolved objects (after another check of the same call). */
dt_status dt__check_kinds(const dt_site *site, int n, const dt_tensor *const *objs,
                          dt_kind_rule kinds);
dt_tensor *dt__check_autodiff_required(const dt_site *site, const dt_tensor *handle);
dt_status dt__check_plain_device(const dt_site *site, dt_device d);
dt_status dt__check_wraps(const dt_site *site, dt_device ad, const dt_tensor *inner);

/* ---- handles (handle.c) ---- */
/* dt__resolve(site, handle, what) and dt__resolve_fast(handle), inline in handle.h: the object
   a live handle names, or NULL — dt__resolve after recording why (dt__resolve_failed:
   invalid-argument, "%s is NULL", "%s is a freed tensor …", "%s is not a live dt tensor", with
   `what` for %s), dt__resolve_fast recording nothing. */
dt_tensor *dt__resolve_failed(const dt_site *site, const dt_tensor *handle, const char *what);
/* dt_free's step: makes a live handle stale atomically and returns its object, which the caller
   then releases and hands to dt__object_recycle; NULL after recording why it is not live. */
dt_tensor *dt__handle_take(const dt_site *site, dt_tensor *handle, const char *what);
/* The handle naming a live object (NULL for NULL): what public functions return. */
dt_tensor *dt__handle_of(const dt_tensor *obj);
/* A fresh object in a live slot (contents undefined), NULL when out of memory. */
dt_tensor *dt__object_new(void);
/* Makes obj's handle stale and its slot reusable (obj holds nothing any more). */
void dt__object_delete(dt_tensor *obj);
/* Makes the slot of an object already made stale by dt__handle_take reusable. */
void dt__object_recycle(dt_tensor *obj);

/* ---- tensors and storage (tensor.c) ---- */
dt_storage *dt__storage_new(const dt_site *site, const dt_backend_iface *iface, dt_device d,
                            size_t bytes);
void dt__storage_retain(dt_storage *s);
void dt__storage_release(dt_storage *s);
size_t dt__kind_size(dt_kind k); /* 0 for a value that is not a dt_kind */
int dt__kind_valid(dt_kind k);
/* A new tensor object (storage allocated on dt_inner_device(d)); contents undefined. */
dt_tensor *dt__tensor_new(const dt_site *site, dt_device d, dt_kind k, int rank,
                          const int64_t *shape);
/* A new handle sharing t's storage, with the given device tag and shape (same numel). */
dt_tensor *dt__tensor_view(const dt_site *site, const dt_tensor *t, dt_device d, int rank,
                           const int64_t *shape);
/* Frees an object (the internal dt_free): its node reference, storage reference and slot. */
void dt__tensor_free(dt_tensor *t);
/* Validates rank and shape (rank 0..DT_MAX_RANK, dims >= 0, no overflow); computes numel. */
dt_status dt__validate_shape(const dt_site *site, int rank, const int64_t *shape, int64_t *numel);

/* Standard normal values, a function of (seed, index) only (rng.c). */
void dt__randn_host(uint64_t seed, float *out, int64_t n);

/* Records DT_ERR_DEVICE for a failed backend call on storage s ("run add", "copy in"), with
   the backend's last_error text (prim.c). */
dt_status dt__device_failure(const dt_site *site, const dt_storage *s, const char *what,
                             dt_device d);

/* ---- primitives (prim.c): no tag checks, no recording; results take `like`'s device ---- */
dt_tensor *dt__prim_fill(const dt_site *site, dt_device d, dt_kind k, float value, int rank,
                         const int64_t *shape);
dt_tensor *dt__prim_binary(const dt_site *site, dt_op op, const dt_tensor *a,
                           const dt_tensor *b); /* ADD SUB MUL DIV GREATER, broadcasting */
dt_tensor *dt__prim_where(const dt_site *site, const dt_tensor *c, const dt_tensor *a,
                          const dt_tensor *b);
dt_tensor *dt__prim_scalar(const dt_site *site, dt_op op, const dt_tensor *a, float s);
dt_tensor *dt__prim_unary(const dt_site *site, dt_op op, const dt_tensor *a);
/* One of the activation gradients (DT_OP_RELU_GRAD, _SIGMOID_GRAD, _TANH_GRAD) in one pass: v is
   the activation's output (relu's input gives the same: both are > 0 at the same places), g the
   output's gradient, same shape. */
dt_tensor *dt__prim_act_grad(const dt_site *site, dt_op op, const dt_tensor *v, const dt_tensor *g);
dt_tensor *dt__prim_sum(const dt_site *site, const dt_tensor *a, float scale); /* rank 0 */
dt_tensor *dt__prim_sum_dim(const dt_site *site, const dt_tensor *a, int axis, int keepdim);
/* Sums a over the axes where it was broadcast to reach a's shape from `rank`/`shape`. */
dt_tensor *dt__prim_sum_to_shape(const dt_site *site, const dt_tensor *a, int rank,
                                 const int64_t *shape);
dt_tensor *dt__prim_matmul(const dt_site *site, const dt_tensor *a, const dt_tensor *b);
/* op(a) x op(b), op transposing where the flag is set (read in place, never copied). */
dt_tensor *dt__prim_matmul_t(const dt_site *site, const dt_tensor *a, int trans_a,
                             const dt_tensor *b, int trans_b);
dt_tensor *dt__prim_transpose(const dt_site *site, const dt_tensor *a);
dt_tensor *dt__prim_cat(const dt_site *site, int n, const dt_tensor *const *ts, int axis);
/* The part [start, start+len) of a along axis (cat's gradient). */
dt_tensor *dt__prim_narrow(const dt_site *site, const dt_tensor *a, int axis, int64_t start,
                           int64_t len);
dt_tensor *dt__prim_mse(const dt_site *site, const dt_tensor *a, const dt_tensor *b);
/* A copy of t on device d (plain or autodiff tag as given), through host memory when the two
   backends have no direct path. */
dt_tensor *dt__prim_copy_to(const dt_site *site, const dt_tensor *t, dt_device d);

/* ---- autodiff hooks (autodiff.c) ---- */
typedef struct dt_ad_extra {
  float scalar;    /* ADD_SCALAR / MUL_SCALAR */
  int axis;        /* SUM_DIM, CAT */
  int n_inputs;    /* CAT: number of inputs */
} dt_ad_extra;
/* The op each public operation records: dt_add..dt_div, dt_greater, dt_where, dt_matmul,
   dt_transpose, dt_mse_loss, dt_neg..dt_tanh: their DT_OP_*; dt_add_scalar / dt_mul_scalar:
   DT_OP_ADD_SCALAR / DT_OP_MUL_SCALAR (extra->scalar); dt_sum_dim: DT_OP_SUM_DIM (extra->axis,
   normalized to [0, rank)); dt_cat: DT_OP_COPY_SLICE (extra->axis normalized, extra->n_inputs);
   dt_sum / dt_mean: DT_AD_OP_SUM / DT_AD_OP_MEAN; dt_reshape: DT_AD_OP_RESHAPE;
   dt_to_device: DT_AD_OP_TO_DEVICE. It is called only when out is on an autodiff device.
   Called by a public operation after computing `out` from `inputs` (whatever their tags):
   when out is an autodiff float tensor and some input is tracked, gives out a graph node that
   remembers op, inputs and what its gradient needs. Returns out, or NULL after recording
   out-of-memory (out is freed). */
/* What a graph node computed, for its backward step: the backend op it ran (same value as
   the dt_op, so dt__ad_op_of is the identity), or an operation with no backend op of its
   own. The backward pass switches on it with no default. */
typedef enum dt_ad_op {
  DT_AD_ADD = DT_OP_ADD,
  DT_AD_SUB = DT_OP_SUB,
  DT_AD_MUL = DT_OP_MUL,
  DT_AD_DIV = DT_OP_DIV,
  DT_AD_GREATER = DT_OP_GREATER, /* bool out: never recorded */
  DT_AD_WHERE = DT_OP_WHERE,
  DT_AD_ADD_SCALAR = DT_OP_ADD_SCALAR,
  DT_AD_MUL_SCALAR = DT_OP_MUL_SCALAR,
  DT_AD_NEG = DT_OP_NEG,
  DT_AD_EXP = DT_OP_EXP,
  DT_AD_LOG = DT_OP_LOG,
  DT_AD_RELU = DT_OP_RELU,
  DT_AD_SIGMOID = DT_OP_SIGMOID,
  DT_AD_TANH = DT_OP_TANH,
  DT_AD_SUM_DIM = DT_OP_SUM_DIM,
  DT_AD_MATMUL = DT_OP_MATMUL,
  DT_AD_TRANSPOSE = DT_OP_TRANSPOSE,
  DT_AD_CAT = DT_OP_COPY_SLICE,
  DT_AD_MSE = DT_OP_MSE,
  DT_AD_LEAF = DT_OP_COUNT + 1, /* a dt_require_grad leaf: nothing to propagate */
  DT_AD_SUM,
  DT_AD_MEAN,
  DT_AD_RESHAPE,
  DT_AD_TO_DEVICE
} dt_ad_op;
static inline dt_ad_op dt__ad_op_of(dt_op op) { return (dt_ad_op)op; }
dt_tensor *dt__ad_record(const dt_site *site, dt_ad_op op, dt_tensor *out, int n_inputs,
                         const dt_tensor *const *inputs, const dt_ad_extra *extra);
/* Releases t's node reference (called from dt_free). */
void dt__ad_release(dt_tensor *t);
/* Whether t takes part in the graph (it has a node: a dt_require_grad leaf or a value computed
   from one). */
int dt__ad_is_tracked(const dt_tensor *t);

#include "handle.h" /* the handle encoding, for the inline dt__resolve_fast */

#endif /* DT_INTERNAL_H */
