/* analyzer/src/engine/api_call.h — what the parts of an API call's transfer share (not for
 * use outside them): the operands a call's checks read and the call being applied. The parts:
 * api.c runs a call (its checks over the choices of tag sets, the outcomes, then effects and
 * result); api_operands.c reads operands; api_checks.c decides checks; api_messages.c words
 * failures and plans their fix-its; api_results.c and api_effects.c apply the description. */
#ifndef TC_ENGINE_API_CALL_H
#define TC_ENGINE_API_CALL_H

#include "engine/eng.h"

/* Objects one allocation site keeps apart per calling context on one path (docs/engine.md). */
#define HEAP_ORDINALS 8

typedef struct operand {
  int present;
  int index;  /* its position among the operands checked together (0-based) */
  int poison; /* the value comes from a call already flagged */
  aval v;     /* tensors: the handle's value */
  tc_tag tag; /* tensors and devices */
  const prov *prov;
  char name[96]; /* how the source spells it */
  int is_device;
  uint32_t ts; /* one of the tags of this tag set (tagset.c), 0: tag says it all */
  int arg_pos; /* 1 + its index among the call's arguments; 0: no one argument (fix-its) */
} operand;

typedef struct call_ctx {
  frame *f;
  astate *s;
  const tc_insn *in;
  const tc_api_fn *fn;
  operand ops[72];
  int n_ops;
  int poisoned;        /* some operand read comes from a call already flagged */
  const char *op_name; /* what messages call the operation when it is no call (else NULL) */
  /* Origins of the tag sets among the operands (tagset.c: a set's `var`; one set of each in
     sets[]): checks run once per choice of a position for each (check_choices); while
     `choosing`, an operand whose set has origin vars[i] reads as its member choice[i]. */
  uint32_t vars[4], sets[4];
  uint32_t choice[4];
  int n_sets, sets_overflow, choosing;
  aval loaded; /* a load_arg result: *arg as the call found it, read before the effects */
} call_ctx;
typedef enum chk_status { CHK_PASS = 0, CHK_UNKNOWN, CHK_FAIL } chk_status;

typedef struct chk_res {
  chk_status st;
  tc_rule_slot rule;
  tc_msg_slot msg;
  const operand *expected, *got; /* the two sides (got alone for one-operand rules) */
  const operand *all;            /* KINDS: every operand */
  int n_all;
  const char *why;
  int backend;
  int check; /* the tc_check_kind that decided (fix-its) */
  int check_pos;        /* 1 + the position of that check among the function's (0: none) */
  int undecided_before; /* a check before it could not be decided */
  /* a failure after a check that could not be decided and may fail first with another rule:
     the call fails on every path, but maybe not with this rule (a warning) */
  int after_unknown;
} chk_res;

/* api_size.c: a container's size ($count) and an iterator's position ($at) */
int api_size_nonempty(const tc_eng *e, const astate *s, uint32_t obj); /* an element is in */
void api_size_mark_nonempty(tc_eng *e, astate *s, uint32_t obj);     /* one was put in */
int api_size_known_empty(const tc_eng *e, const astate *s, uint32_t obj); /* none is in */
void api_size_mark_empty(tc_eng *e, astate *s, uint32_t obj);        /* made empty */
void api_size_forget(tc_eng *e, astate *s, uint32_t obj);            /* it may be empty */
/* empty(): 1 / 0 where the path knows, else unknown, true iff its size is 0 (a derivation a
   branch narrows the size by) */
aval api_size_empty(tc_eng *e, const astate *s, uint32_t obj);
/* The call's result is an iterator at `position` (TC_POS_*) of container obj. */
void api_position_write(call_ctx *c, int position, uint32_t obj);
void api_position_forget(call_ctx *c, int argi); /* the iterator argument moved */
/* 0 when the iterators arguments a and b are a non-empty container's begin and an end, else
   unknown */
aval api_iterators_equal(call_ctx *c, int a, int b);

/* api_operands.c */
const tc_backend_def *api_backend_def(const tc_eng *e, int32_t b); /* NULL when not known */
aval api_kind_value(const tc_eng *e, const tc_tag *tag); /* the kind's enum value, or unknown */
const tc_opnd *api_arg_of(const call_ctx *c, int i);               /* argument i, or NULL */
uint32_t api_pseudo_field(tc_eng *e, uint32_t obj, uint32_t field);
/* The elements of the container object obj (rules: "element_of_arg", "store"): a pseudo-field
   holding them as an array whose elements are one summary (every write joins it, every read
   sees them all), or the field `field` of that summary ("" none). 0 without obj. */
uint32_t api_container_elements(tc_eng *e, uint32_t obj, const char *field);
/* Whether the place at loc (or what it points to, `depth` pointers deep) holds one of several
   tags or objects (api_results.c). */
int holds_alternatives(tc_eng *e, const astate *s, uint32_t loc, int depth);
/* The constant key argument argi holds (a string made from a literal, an integer constant):
   1 and *key, else 0 (api_results.c). */
int api_constant_key(call_ctx *c, int argi, int64_t *key);
void api_read_device(call_ctx *c, int argi, operand *op);
void api_read_tensor(call_ctx *c, int argi, operand *op);
/* a graph argument's other source placements; its tensor with no memory (api_operands.c) */
int api_read_sources(call_ctx *c, int argi, operand *out, int max);
void api_read_graph_memory(call_ctx *c, int argi, operand *op);
void api_read_pointer(call_ctx *c, int argi, operand *op);
/* The elements of an array argument (count_arg elements, -1: as many as known), at most max;
   -1 when not known. */
int api_read_elements(call_ctx *c, int array_arg, int count_arg, operand *out, int max);
/* An integer argument as a tag field: a backend index (as_backend), else its value. */
int32_t api_int_arg_field(call_ctx *c, int argi, int as_backend);
/* The object a pointer argument designates, or 0 (unknown, or inside an array). */
uint32_t api_pointee_of(call_ctx *c, int argi);
/* The symbol of string argument argi's text when it is known to be one literal, else 0. */
tc_sym api_string_arg(call_ctx *c, int argi);
/* the context object argi points to, or that the object it points to remembers; 0 unknown */
uint32_t api_context_of_arg(call_ctx *c, int argi);
/* every context that may be meant so (one per trip of a loop): how many, 0 when not known */
int api_contexts_of_arg(call_ctx *c, int argi, ptset *out);
/* The object a memory function's pointer argument starts at; *elem: an element past the
   first. 0 when not known. */
uint32_t api_memory_target(call_ctx *c, int argi, int *elem);
/* The value pointer argument argi designates, or unknown (api_results.c). */
aval api_load_arg(call_ctx *c, int argi);
/* A new heap object made by the call, set up as new_object result r says (a context's
   placement, the context it is made in); key: which of the call's objects (its insn for its
   result). Its address, or unknown. */
aval api_new_object(call_ctx *c, const tc_result_spec *r, uint64_t key);
/* Field `name` of the struct argument argi passed by value (0 when not known). */
uint32_t api_struct_arg_field(call_ctx *c, int argi, const char *name);

/* api_checks.c */
chk_res api_run_check(call_ctx *c, const tc_check *ck);
/* A pointer the host is about to read or write: fails when it is a tensor's non-host data. */
chk_res api_check_host_memory(const tc_eng *e, const operand *op);

/* api_messages.c: the detail (message, provenances, fix-it) of a failed check. */
uint32_t api_make_detail(call_ctx *c, const chk_res *r);
/* The fix plan of a failed check (engine/fixes.c) into steps; returns its key, 0 none. */
uint32_t api_plan_fix(call_ctx *c, const chk_res *r, fix_step *steps, uint8_t *n_steps);

/* api_results.c, api_effects.c */
void api_apply_result(call_ctx *c);
/* Writes v to the call's destination, if it has one. */
void api_write_value(call_ctx *c, const aval *v);
/* Notes on tensor value v's provenance that its tag is one of a tag set, when it is. */
void api_note_one_of(const aval *v);
void api_apply_effects(call_ctx *c);
/* The step that made a tensor handle what it is, past the steps that only moved it. */
const prov *api_handle_origin(const prov *p);
/* Whether the graph whose node set is at `nodes` holds tensor value v: 1, 0, or -1 not known
   (api_effects.c). */
int api_graph_holds(call_ctx *c, uint32_t nodes, const aval *v);

/* api_names.c: tensors' names. Tensor argument tensor_arg takes the name string argument
   name_arg holds (a format when it has conversions); the tensors named name_arg among those
   of the context (or graph) argument arg points to, into *out: 1, or 0 when none is known to
   be (the name not known, no tensor given it), and the caller looks them all up. */
void api_name_tensor(call_ctx *c, int tensor_arg, int name_arg);
int api_named_member(call_ctx *c, int arg, int name_arg, aval *out);

#endif /* TC_ENGINE_API_CALL_H */
