/* analyzer/src/rules/rules.h — the API description loaded from rules files (docs/rules.md):
 * backends, kinds, device and tensor types, and per function the checks its run-time tag check
 * makes and the tag its result gets. The engine applies these; it knows no API by name.
 * Loading (tc_rules_load, declared in engine/engine.h) validates everything and reports
 * "FILE:LINE:COL: what is wrong". */
#ifndef TC_RULES_H
#define TC_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "tag.h"

/* The tag rules an API can break, in the precedence order of SPEC §4. Each maps to a rule id
   string given by the rules file ("rule_ids"). */
typedef enum tc_rule_slot {
  TC_RULE_AUTODIFF_NESTED = 0,
  TC_RULE_AUTODIFF_EXPECTED,
  TC_RULE_AUTODIFF_INNER_BACKEND,
  TC_RULE_BACKEND_MISMATCH,
  TC_RULE_DEVICE_MISMATCH,
  TC_RULE_KIND_MISMATCH,
  TC_RULE_BACKEND_UNAVAILABLE,
  /* Optional slots (an API whose tensors live in buffers, docs/rules.md "Buffers and host
     memory"): required in "rule_ids" only when a check or a tensor field uses them. */
  TC_RULE_BUFFER_NOT_SET, /* a tensor that is in no backend buffer where one is needed */
  TC_RULE_HOST_ACCESS,    /* memory that is not host memory used as host memory */
  TC_RULE_COUNT
} tc_rule_slot;

#define TC_RULE_REQUIRED_COUNT 7 /* the slots every rules set must name */

/* Message templates, one per way a check can fail (placeholders in docs/rules.md). */
typedef enum tc_msg_slot {
  TC_MSG_AUTODIFF_NESTED_DEVICE = 0, /* plain_device check: wrapping an autodiff device */
  TC_MSG_AUTODIFF_NESTED_TENSOR,     /* wraps check: the inner tensor is autodiff */
  TC_MSG_AUTODIFF_MIXED,             /* agree: an autodiff operand, then a plain one */
  TC_MSG_AUTODIFF_MIXED_PLAIN,       /* agree: a plain operand, then an autodiff one */
  TC_MSG_AUTODIFF_REQUIRED,          /* autodiff_required: a plain tensor */
  TC_MSG_AUTODIFF_MOVE,              /* same_autodiff: moving across autodiff-ness */
  TC_MSG_AUTODIFF_PLAIN_DEVICE,      /* wraps: the device is not autodiff */
  TC_MSG_INNER_BACKEND,              /* agree / wraps among autodiff operands */
  TC_MSG_BACKEND,                    /* agree among plain operands */
  TC_MSG_DEVICE,                     /* agree / wraps: same backend, other ordinal */
  TC_MSG_KIND,                       /* kinds not accepted together */
  TC_MSG_UNAVAILABLE,                /* allocates on an unavailable backend */
  TC_MSG_BUFFER_NOT_SET,             /* buffer_set: the tensor is in no buffer */
  TC_MSG_HOST_ACCESS,                /* host_pointer / dereference: device memory */
  TC_MSG_NULL_DATA,                  /* host_pointer / dereference: data of an unallocated tensor */
  TC_MSG_COUNT
} tc_msg_slot;

typedef enum tc_check_kind {
  TC_CHECK_AGREE = 1,        /* tensor args must share autodiff-ness, backend, ordinal */
  TC_CHECK_AGREE_ARRAY,      /* the same over the elements of an array argument */
  TC_CHECK_AUTODIFF_REQUIRED,/* a tensor arg must be autodiff */
  TC_CHECK_PLAIN_DEVICE,     /* a device arg must not be autodiff (autodiff-nested) */
  TC_CHECK_SAME_AUTODIFF,    /* a tensor arg and a device arg agree in autodiff-ness */
  TC_CHECK_WRAPS,            /* device arg autodiff, tensor arg plain, on the inner device */
  TC_CHECK_KINDS,            /* the kinds of tensor args (or array elements) are accepted */
  TC_CHECK_ALLOCATES,        /* allocates on a device arg: its backend must be available */
  TC_CHECK_BUFFER_SET,       /* a tensor arg must be in a backend buffer */
  TC_CHECK_HOST_POINTER,     /* a pointer arg must not be a tensor's non-host data */
  TC_CHECK_HOST_TENSOR       /* the host touches a tensor arg's data: it must be host memory */
} tc_check_kind;

#define TC_RULES_MAX_ARGS 8

typedef struct tc_check {
  tc_check_kind kind;
  int args[TC_RULES_MAX_ARGS]; /* AGREE, KINDS: tensor args */
  int n_args;
  int arg;        /* AUTODIFF_REQUIRED, PLAIN_DEVICE */
  int tensor_arg; /* SAME_AUTODIFF, WRAPS */
  int device_arg; /* SAME_AUTODIFF, WRAPS, ALLOCATES */
  int array_arg;  /* AGREE_ARRAY, KINDS over an array; -1 none */
  int count_arg;  /* AGREE_ARRAY, KINDS over an array; -1: every element known */
  int same;       /* KINDS over an array: all elements of one kind */
  int8_t *accept; /* KINDS: n_accept rows of n_args kind indices */
  int n_accept;
} tc_check;

typedef enum tc_result_kind {
  TC_RES_NONE = 0,         /* nothing known about the result */
  TC_RES_DEVICE,           /* a device value */
  TC_RES_TENSOR,           /* a tensor handle */
  TC_RES_SAME_AS_ARG,      /* returns one of its arguments */
  TC_RES_KIND_OF,          /* the kind's enum value of a tensor arg */
  TC_RES_DEVICES_EQUAL,    /* 1 when two device args are equal, else 0 */
  TC_RES_BACKEND_AVAILABLE,/* whether the backend arg is available */
  TC_RES_NEW_OBJECT,       /* a pointer to fresh memory (allocators); maybe a context object */
  TC_RES_DATA_OF,          /* the data pointer of a tensor arg (remembers where it lives) */
  TC_RES_IS_HOST,          /* 1 when a handle arg's memory is host memory, else 0 */
  TC_RES_RECORDS,          /* a struct value that records a handle arg (an allocator over a
                              buffer): a call given its address reads that handle */
  TC_RES_ELEMENT_OF,       /* the address of the elements of the container arg points to (a
                              summary of them all), or of their field elem_field */
  TC_RES_VALUE_AT          /* what the object arg points to holds (an iterator's element) */
} tc_result_kind;

/* The longest field name an element result or a store effect may name. */
#define TC_RULES_FIELD_MAX 32

/* Where a result device comes from. */
typedef enum tc_dev_src {
  TC_DEV_FIXED = 0,   /* backend (and maybe ordinal) named in the rules */
  TC_DEV_FROM_DEVICE, /* from a device arg (autodiff set or stripped) */
  TC_DEV_OF_TENSOR,   /* the device of a tensor arg */
  TC_DEV_BACKEND_ARG  /* backend from an int arg */
} tc_dev_src;

typedef struct tc_result_spec {
  tc_result_kind what;
  /* DEVICE */
  tc_dev_src dev_src;
  int backend;     /* FIXED: backend index */
  int ordinal;     /* fixed ordinal, or -1 */
  int ordinal_arg; /* or -1 */
  int autodiff;    /* 0, 1, or -1: keep */
  int arg;         /* FROM_DEVICE/OF_TENSOR/BACKEND_ARG: the arg; SAME_AS_ARG; KIND_OF;
                      BACKEND_AVAILABLE */
  int arg2;        /* DEVICES_EQUAL: the second device arg */
  /* TENSOR: the device from device_arg, like_arg (a tensor) or like_array_arg (its first
     element); the kind fixed, from kind_arg (an enum value) or kind_of_arg (a tensor) */
  int device_arg, like_arg, like_array_arg;
  int tkind;       /* fixed kind index or -1 */
  int kind_arg, kind_of_arg;
  int strip_autodiff; /* TENSOR: the result is on the inner (plain) device */
  /* TENSOR on a fixed backend (with ordinal / ordinal_arg): fixed_device set, backend used */
  int fixed_device;
  int backend_arg; /* TENSOR on a fixed device: the backend from this enum arg, or -1 */
  /* TENSOR made in a context object: context_arg points to it; the device is the first of
     device_like_args that is in a buffer, else the context's placement */
  int context_arg;
  int device_like_args[TC_RULES_MAX_ARGS];
  int n_device_like;
  /* NEW_OBJECT as a context: its placement is a backend index (placement >= 0), or read from
     an integer field of a struct argument (placement_arg, placement_field: nonzero gives
     placement_nonzero, zero placement_zero); object_context_arg: the object remembers the
     context that argument points to (a graph made in a context) */
  int placement, placement_arg;
  char *placement_field;
  int placement_nonzero, placement_zero;
  int object_context_arg;
  /* ELEMENT_OF: the field of each element it addresses ("" the elements themselves) */
  char elem_field[TC_RULES_FIELD_MAX];
  int elem_lookup; /* ELEMENT_OF: the one element a key picks (unknown when they differ) */
} tc_result_spec;

/* What a function does to memory through its pointer arguments. */
typedef enum tc_effect_kind {
  TC_EFFECT_COPY = 1, /* *to_arg := *from_arg (memcpy) */
  TC_EFFECT_FILL,     /* every byte of *arg := value_arg (memset): zero, else unknown */
  TC_EFFECT_WRITES,   /* *arg and what it reaches become unknown */
  TC_EFFECT_BIND_CONTEXT, /* the tensors of a context (arg, or the context an object
                             remembers) not yet in a buffer move to arg2's device (-1: unknown) */
  TC_EFFECT_RECORD,   /* object *arg records tensor arg2's device (a graph and its nodes) */
  TC_EFFECT_PLACE,    /* tensor arg2 now lives on the device of handle arg (-1: unknown) */
  TC_EFFECT_STORE     /* the object arg2 points to joins the elements of container *arg (their
                         field `field` when set): push_back, a map's emplace */
} tc_effect_kind;

typedef struct tc_effect {
  tc_effect_kind kind;
  int arg;  /* COPY: to; FILL, WRITES: the pointer; PLACE: the device's handle */
  int arg2; /* COPY: from; FILL: the value; BIND_CONTEXT: the device's handle; RECORD, PLACE:
               the tensor; STORE: the value's address */
  char field[TC_RULES_FIELD_MAX]; /* STORE: the field of the elements it writes, "" none */
} tc_effect;

typedef struct tc_api_fn {
  char *name;
  int leading_args; /* call-site twins: extra leading args (file, line) to skip */
  int n_params;     /* declared arity, or -1 */
  tc_check *checks;
  size_t n_checks;
  tc_result_spec result;
  tc_effect *effects;
  size_t n_effects;
  int api;          /* 1: an API function (its calls are checked); 0: a library model */
} tc_api_fn;

/* A fix-it the rules offer (docs/rules.md "fixes"): when a check of kind `check` fails with one
   of `failures` (message slots), the offending argument (or, with replace_call, the whole
   call) is replaced by the template `with`, where {got} and {expected} stand for the source
   text of the offending argument and of the argument that set the expectation. */
typedef struct tc_fix_def {
  tc_check_kind check;
  uint32_t failures;  /* bit (1u << tc_msg_slot) per failure it fixes */
  int replace_call;   /* 0: the offending argument; 1: the whole call */
  int when_got;       /* -1 any; 0 / 1: only when the offending operand is plain / autodiff */
  int when_expected;  /* the same for the operand that set the expectation */
  int on_warnings;    /* harmless where the check already passes: offered on warnings too */
  char *with;
} tc_fix_def;

typedef struct tc_backend_def {
  char *name, *enum_name;
  int64_t value;
  int single_device;
  /* where tensors placed here keep their data (docs/rules.md "Buffers and host memory") */
  int host_memory; /* the host can read and write it */
  int no_buffer;   /* not a backend buffer (a context's own memory, or nothing yet) */
  int no_memory;   /* no memory at all: the data pointer is NULL */
  int always_available; /* built into every runtime: an availability test of it is true */
} tc_backend_def;

typedef struct tc_kind_def {
  char *name, *enum_name;
  int64_t value;
} tc_kind_def;

typedef struct tc_device_type {
  char *name; /* the C type, e.g. "dt_device" */
  char *backend_field, *ordinal_field, *autodiff_field;
} tc_device_type;

/* A family of API functions described by their signature, not by name (docs/rules.md,
   "Function families"): every function with no description and no body whose argument
   context_param points to context_type and whose result is a pointer to returns is a tensor
   made in that context, placed like its first tensor argument that is in a buffer, of a kind
   not known (ggml's op constructors). */
typedef struct tc_family {
  int context_param;
  char *context_type;
  char *returns;
} tc_family;

struct tc_rules {
  tc_backend_def *backends;
  size_t n_backends;
  const char **backend_names; /* for tc_tag_names */
  unsigned char *single_device;
  tc_kind_def *kinds;
  size_t n_kinds;
  const char **kind_names;
  tc_device_type *device_types;
  size_t n_device_types;
  char **tensor_types;
  size_t n_tensor_types;
  /* fields of the tensor struct read through a handle: its data pointer, its buffer handle
     (NULL when the tensor is in no buffer); NULL when the API has none */
  char *data_field, *buffer_field;
  char *view_src_field; /* a tensor's view source: NULL or a tensor placed where it is */
  char *rule_ids[TC_RULE_COUNT];
  char *messages[TC_MSG_COUNT];
  tc_api_fn *fns;
  size_t n_fns, cap_fns;
  size_t *fn_index; /* open-addressing hash of fns by name: index+1, 0 empty */
  size_t fn_index_cap;
  tc_fix_def *fixes; /* in the order given; the first that applies wins */
  size_t n_fixes;
  tc_family *families;
  size_t n_families;
  tc_rule_meta *metas; /* rule metadata declared by the files (ids not in dt/rules.def) */
  size_t n_metas;
  char **files; /* the files loaded */
  size_t n_files;
  uint64_t content_hash; /* of every file's name and text as loaded (cache keys) */
};

/* The function described under this name, or NULL. Call-site twins ("dt_add_at") are entries
   of their own with leading_args set. */
const tc_api_fn *tc_rules_find(const tc_rules *r, const char *name);
int tc_rules_backend_by_value(const tc_rules *r, int64_t value); /* index or -1 */
int tc_rules_kind_by_value(const tc_rules *r, int64_t value);    /* index or -1 */
int tc_rules_backend_by_name(const tc_rules *r, const char *name);
tc_tag_names tc_rules_tag_names(const tc_rules *r);
/* A result that says nothing (every index -1): what a description starts from. */
void tc_rules_result_defaults(tc_result_spec *res);
/* Loads from a string (tests; also used by tc_rules_load). file names the source in errors. */
tc_rules *tc_rules_load_string(const char *text, const char *file, char *err, size_t err_len);

#endif /* TC_RULES_H */
