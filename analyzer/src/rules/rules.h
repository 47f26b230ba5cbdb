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

/* The vocabulary of rules files is tabled in rules/rules.def, one row per word: the enums
   below, the loader's keys and messages and the engine's dispatch all come from it. */

/* The tag rules an API can break, in the precedence order of SPEC §4. Each maps to a rule id
   string given by the rules file ("rule_ids"). */
typedef enum tc_rule_slot {
#define TC_RULE_SLOT(E, key, needs_devices) TC_RULE_##E,
#include "rules/rules.def"
#undef TC_RULE_SLOT
  TC_RULE_COUNT
} tc_rule_slot;

/* The bit of a rule slot in a set of them (rules.def's TC_CHECK rows). */
#define TC_RULE_BIT(E) (1u << TC_RULE_##E)

/* Message templates, one per way a check can fail (placeholders in docs/rules.md). */
typedef enum tc_msg_slot {
#define TC_MESSAGE(E, key, default_text) TC_MSG_##E,
#include "rules/rules.def"
#undef TC_MESSAGE
  TC_MSG_COUNT
} tc_msg_slot;

/* The checks a function's run-time tag check makes, numbered from 1 (0 is no check; there is
   no enumerator for it, so that switches name every check and nothing else). */
enum {
#define TC_CHECK(E, name, operands, rules) TC_CHECK_ROW_##E,
#include "rules/rules.def"
#undef TC_CHECK
  TC_CHECK_ROWS
};
typedef enum tc_check_kind {
#define TC_CHECK(E, name, operands, rules) TC_CHECK_##E = TC_CHECK_ROW_##E + 1,
#include "rules/rules.def"
#undef TC_CHECK
} tc_check_kind;

/* The rule slots (TC_RULE_BIT) a check can fail with. */
unsigned tc_check_rule_slots(tc_check_kind k);

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
  TC_RES_NONE = 0, /* nothing known about the result */
#define TC_RESULT(E, key, shape) TC_RES_##E,
#include "rules/rules.def"
#undef TC_RESULT
} tc_result_kind;

/* Where a result device comes from. */
typedef enum tc_dev_src {
  TC_DEV_FIXED = 0,   /* backend (and maybe ordinal) named in the rules */
  TC_DEV_FROM_DEVICE, /* from a device arg (autodiff set or stripped) */
  TC_DEV_OF_TENSOR,   /* the device of a tensor arg */
  TC_DEV_BACKEND_ARG  /* backend from an int arg */
} tc_dev_src;

/* The longest field name an element result or a store effect may name. */
#define TC_RULES_FIELD_MAX 32

/* A device name pattern of a "device_by_name" result: a name equal to text, or beginning with
   it (prefix); ordinal_from_suffix: a prefix followed by decimal digits only, which are the
   device's ordinal (CUDA1); backend: a backend index. */
#define TC_RULES_MAX_NAMES 12
typedef struct tc_name_pattern {
  char text[TC_RULES_FIELD_MAX];
  int prefix;
  int ordinal_from_suffix;
  int backend;
} tc_name_pattern;

/* Where an iterator an "element_of_arg" result gives stands ("position"). */
enum { TC_POS_NONE = 0, TC_POS_BEGIN, TC_POS_END };

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
  /* ONE_OF: the devices the handle may be on (backend index or TC_TAGF_UNKNOWN, ordinal or
     TC_TAGF_UNKNOWN); ONE_OF_ARRAY: arg is the array, arg2 its count */
  int32_t one_of_backend[TC_RULES_MAX_ARGS], one_of_ordinal[TC_RULES_MAX_ARGS];
  int n_one_of;
  /* DEVICE_BY_NAME: arg is the name argument; when it is a string literal, the first of
     names[] it matches (ASCII case ignored, as ggml compares device names) gives the device,
     else the devices of one_of_* above */
  tc_name_pattern names[TC_RULES_MAX_NAMES];
  int n_names;
  /* ELEMENT_OF: the field of each element it addresses ("" the elements themselves), and
     whether it is the one element a key picks (unknown when they differ); elem_key_arg: the
     argument holding the key (-1 none): a constant key's element is kept by itself */
  char elem_field[TC_RULES_FIELD_MAX];
  int elem_lookup;
  /* ELEMENT_OF: the result is a struct whose field of this name holds the address (the
     iterator `first` of the pair an insertion returns); "" the result is the address */
  char elem_in_field[TC_RULES_FIELD_MAX];
  int elem_key_arg;
  /* ELEMENT_OF: the iterator it gives is at the container's begin (TC_POS_BEGIN) or end
     (TC_POS_END), or somewhere not known (TC_POS_NONE); elem_inserts: the lookup puts the
     element in when it is not there (a map's operator[]), so the container is not empty */
  int elem_position;
  int elem_inserts;
  /* ELEMENT_OF with key_arg: only the element of a constant key kept by itself on this path is
     addressed; another key gives an unknown iterator (a find: the elements stored under other
     keys are never guessed to be the one found) */
  int elem_kept_only;
} tc_result_spec;

/* What a function does to memory through its pointer arguments, numbered from 1. */
enum {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2, name_key) TC_EFFECT_ROW_##E,
#include "rules/rules.def"
#undef TC_EFFECT
  TC_EFFECT_ROWS
};
typedef enum tc_effect_kind {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2, name_key) \
  TC_EFFECT_##E = TC_EFFECT_ROW_##E + 1,
#include "rules/rules.def"
#undef TC_EFFECT
} tc_effect_kind;

typedef struct tc_effect {
  tc_effect_kind kind;
  int arg;  /* COPY: to; FILL, WRITES: the pointer; PLACE: the device's handle */
  int arg2; /* COPY: from; FILL: the value; BIND_CONTEXT: the device's handle; RECORD, PLACE:
               the tensor; STORE: the value's address */
  char field[TC_RULES_FIELD_MAX]; /* STORE: the field of the elements it writes, "" none;
                                     NEW_CONTEXT: the field holding the out-pointer */
  /* NEW_CONTEXT: the integer field of the struct arg that places the context (nonzero:
     placement_nonzero, zero: placement_zero; "" and -1: not placed) */
  char placement_field[TC_RULES_FIELD_MAX];
  int placement_nonzero, placement_zero;
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
   call) is replaced by the template `with`, whose placeholders (tc_fix_placeholder) stand for
   source texts of the call: the offending argument, the argument that set the expectation,
   the handle of a `t->data` argument, any argument by position. */
typedef struct tc_fix_def {
  tc_check_kind check;
  uint32_t failures;  /* bit (1u << tc_msg_slot) per failure it fixes */
  int replace_call;   /* 0: the offending argument; 1: the whole call */
  int when_got;       /* -1 any; 0 / 1: only when the offending operand is plain / autodiff */
  int when_expected;  /* the same for the operand that set the expectation */
  int on_warnings;    /* harmless where the check already passes: offered on warnings too */
  int got_arg;        /* -1 any; else only when the offending operand is this argument */
  int result_unused;  /* only where the program does not use the call's value */
  char **functions;   /* only at calls of these functions (NULL: any function) */
  size_t n_functions;
  char *with;
} tc_fix_def;

/* The placeholders of a fix template. */
typedef enum tc_fix_placeholder_kind {
  TC_FIX_NOT_PLACEHOLDER = 0,
  TC_FIX_GOT,        /* {got}: the offending argument */
  TC_FIX_EXPECTED,   /* {expected}: the argument that set the expectation */
  TC_FIX_GOT_HANDLE, /* {got_handle}: t of an offending argument written t->data */
  TC_FIX_ARG         /* {argN}: argument N (from 0) */
} tc_fix_placeholder_kind;

/* The placeholder that starts at p (TC_FIX_NOT_PLACEHOLDER when none does): its length in
   *len, N in *arg for {argN}. */
tc_fix_placeholder_kind tc_fix_placeholder(const char *p, size_t *len, int *arg);
/* Whether calls of fn_name may get fix f. */
int tc_fix_applies_to(const tc_fix_def *f, const char *fn_name);

typedef struct tc_backend_def {
  char *name, *enum_name;
  int64_t value;
  int single_device;
  /* where tensors placed here keep their data (docs/rules.md "Buffers and host memory") */
  int host_memory; /* the host can read and write it */
  int no_buffer;   /* not a backend buffer (a context's own memory, or nothing yet) */
  int no_memory;   /* no memory at all: the data pointer is NULL */
  int always_available; /* built into every runtime: an availability test of it is true */
  int device_readable;  /* every device reads it in a compute (pinned host memory) */
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
  /* functions that never return although their declarations may not say so (the C library's
     abort, exit, longjmp, assertion failures of other C libraries: rules/libc.json) */
  char **noreturn;
  size_t n_noreturn;
  /* fields of the tensor struct read through a handle: its data pointer, its buffer handle
     (NULL when the tensor is in no buffer); NULL when the API has none */
  char *data_field, *buffer_field;
  char *view_src_field; /* a tensor's view source: NULL or a tensor placed where it is */
  char *kind_field;     /* a tensor's element type: the enum value of its kind */
  /* a pointer a call whose check fails returns is NULL (dt: the failed call returns NULL) */
  int failed_calls_return_null;
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
/* 1 when the rules' "noreturn" names the function: a call to it ends the path. */
int tc_rules_is_noreturn(const tc_rules *r, const char *name);
int tc_rules_backend_by_value(const tc_rules *r, int64_t value); /* index or -1 */
int tc_rules_kind_by_value(const tc_rules *r, int64_t value);    /* index or -1 */
int tc_rules_backend_by_name(const tc_rules *r, const char *name);
tc_tag_names tc_rules_tag_names(const tc_rules *r);
/* A result that says nothing (every index -1): what a description starts from. */
void tc_rules_result_defaults(tc_result_spec *res);
/* Loads from a string (tests; also used by tc_rules_load). file names the source in errors. */
tc_rules *tc_rules_load_string(const char *text, const char *file, char *err, size_t err_len);

#endif /* TC_RULES_H */
