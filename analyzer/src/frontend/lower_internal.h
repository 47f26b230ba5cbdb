/* analyzer/src/frontend/lower_internal.h — state shared by the lowering files (cursors → IR):
 * the per-unit context (caches for types, files, records, callees), the per-function builder
 * (blocks under construction, variables, break/continue/switch targets, labels) and the helper
 * functions each lower_*.c file provides to the others. Internal to frontend/. */
#ifndef TC_LOWER_INTERNAL_H
#define TC_LOWER_INTERNAL_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend/lower.h"
#include "ir/ir.h"

/* Switches over libclang's enums switch on (int) values: the build's -Werror=switch-enum would
   otherwise demand a case for each of libclang's hundreds of kinds. */
#define LW_NONE UINT32_MAX
/* Nesting deeper than this (statements and expressions together), or deeper than the thread's
   stack allows (less than LW_STACK_RESERVE left), is not lowered: the rest of the subtree
   becomes unknown. Worker threads get 64 MiB stacks (driver/jobs.c), so only absurd code hits
   either bound there. */
#define LW_MAX_DEPTH 1500
#define LW_STACK_RESERVE (512 * 1024)

/* ---- small containers ---- */

typedef struct lw_cursors {
  CXCursor *v;
  uint32_t n, cap;
  CXCursor local[6];
} lw_cursors;

void lw_cursors_init(lw_cursors *l);
void lw_cursors_free(lw_cursors *l);
/* Collects the direct children of c (in libclang's visiting order) into l (reset first). */
void lw_children(CXCursor c, lw_cursors *l);

/* A hash map from cursors (declarations) to a 32-bit value and a sym. */
typedef struct lw_cmap_entry {
  CXCursor key;
  uint32_t value;
  tc_sym sym;
  int used;
  /* a structured binding (fn->vars): 1 + its position; it names field `field` (0: element
     binding - 1 of an array) of the object local `sym` holds (its referent when by_ref) */
  uint32_t binding;
  tc_sym field;
  int by_ref;
} lw_cmap_entry;

typedef struct lw_cmap {
  lw_cmap_entry *slots;
  uint32_t n, n_slots;
} lw_cmap;

void lw_cmap_free(lw_cmap *m);
lw_cmap_entry *lw_cmap_find(const lw_cmap *m, CXCursor key);
/* Returns the entry for key, adding a zeroed one when absent (NULL when out of memory). */
lw_cmap_entry *lw_cmap_put(lw_cmap *m, CXCursor key, int *added);

/* A hash map from an opaque pointer key pair to a payload index. */
typedef struct lw_pmap_entry {
  const void *k1, *k2;
  uint32_t value;
  int used;
} lw_pmap_entry;

typedef struct lw_pmap {
  lw_pmap_entry *slots;
  uint32_t n, n_slots;
} lw_pmap;

void lw_pmap_free(lw_pmap *m);
/* Returns the value slot for (k1, k2) or NULL; put adds one set to LW_NONE. */
uint32_t *lw_pmap_get(const lw_pmap *m, const void *k1, const void *k2);
uint32_t *lw_pmap_put(lw_pmap *m, const void *k1, const void *k2);

/* ---- per-unit context ---- */

typedef struct lw_field {
  tc_sym name;   /* 0: anonymous struct/union member (flattened into its parent) */
  CXType type;
  CXCursor decl;
} lw_field;

typedef struct lw_record {
  lw_field *fields;
  uint32_t n_fields;
  int is_union;
} lw_record;

typedef struct lw_file {
  tc_sym path;
  const char *text; /* clang's buffer (owned by the TU) */
  size_t size;
} lw_file;

typedef struct lw_fn lw_fn;

/* A growable list of cursors kept across a whole unit (lw_cursors is for one node's children). */
typedef struct lw_cursor_list {
  CXCursor *v;
  uint32_t n, cap;
} lw_cursor_list;

typedef struct lw_unit {
  tc_program *prog;
  CXTranslationUnit tu;
  const tc_lower_opts *opts;
  tc_unit unit; /* built here, appended to prog at the end */
  /* caches */
  lw_pmap types;    /* CXType → index into type_vals */
  tc_type *type_vals;
  uint32_t n_type_vals, cap_type_vals;
  lw_pmap files;    /* CXFile → index into file_vals */
  lw_file *file_vals;
  uint32_t n_file_vals, cap_file_vals;
  lw_pmap records;  /* canonical record type → index into record_vals */
  lw_record **record_vals; /* each in the arena: a pointer lw_record_of gave stays valid */
  uint32_t n_record_vals, cap_record_vals;
  lw_cmap decls;    /* function / global declarations → USR sym (value: 1 + noreturn) */
  /* output */
  tc_function *functions;
  uint32_t n_functions, cap_functions;
  tc_global *globals;
  uint32_t n_globals, cap_globals;
  lw_pmap global_seen; /* USR sym → index into globals */
  lw_fn *ginit;        /* the unit's __tc_global_init builder, created on demand */
  uintptr_t stack_floor; /* lowering stops descending below this stack address (0: no check) */
  /* C++: template specializations called by what was lowered (lowered after the top-level
     walk, once each), and the templates' patterns (lowered at the end unless some
     specialization of theirs was) */
  lw_cursor_list pending;
  lw_pmap pending_seen;  /* USR sym → 1 */
  lw_cursor_list patterns;
  lw_pmap instantiated;  /* canonical pattern declaration → 1 */
  tc_lower_stats stats;
  int oom;               /* an allocation failed: the lowering stops, the unit fails */
  unsigned long n_allocs; /* lowering allocations so far (opts->fail_alloc_after) */
  lw_file no_file;       /* what file lookups give once memory ran out (no path, no text) */
} lw_unit;

/* ---- per-function builder ---- */

typedef struct lw_block {
  tc_insn *insns;
  uint32_t n, cap;
  tc_term term;
  int terminated;
} lw_block;

typedef struct lw_jump {
  uint32_t break_blk, continue_blk;
  uint32_t dying_depth; /* fn->n_dying where the loop or switch began */
} lw_jump;

/* A local object whose destructor runs where its scope ends (C++, lower_dtor.c). */
typedef struct lw_dying {
  uint32_t local;
  CXType type;
} lw_dying;

typedef struct lw_case {
  int64_t value;
  uint32_t blk;
} lw_case;

typedef struct lw_switch {
  lw_case *cases;
  uint32_t n, cap;
  uint32_t default_blk;
} lw_switch;

typedef struct lw_label {
  tc_sym name;
  uint32_t blk;
} lw_label;

/* A variable a lambda's body names from the function around it: read through the closure
   object (`this` of the lambda's operator()), field `field`, which holds the value (a capture
   by copy) or the variable's address (by reference). */
typedef struct lw_capture {
  CXCursor decl;
  tc_sym field;
  int by_ref;
} lw_capture;

struct lw_fn {
  lw_unit *u;
  CXCursor decl;       /* the function being lowered (null for the unit's global init) */
  /* C++ */
  int has_this;        /* parameter 0 is the implicit object pointer */
  tc_type this_type;
  int ret_is_ref;      /* returns a reference: return statements give the referent's address */
  lw_capture *caps;    /* a lambda's body: the captured variables */
  uint32_t n_caps;
  int captures_this;   /* a lambda's body: `this` is the closure's field "this" */
  const struct lw_place *self; /* in-class initializers lowered where an object is made: the
                                  object `this` means there (NULL: this function's own) */
  lw_block *blocks;
  uint32_t n_blocks, cap_blocks;
  uint32_t cur; /* the block being filled, LW_NONE after a jump (code there is unreachable) */
  tc_var *params;
  uint32_t n_params;
  tc_var *locals;
  uint32_t n_locals, cap_locals;
  uint32_t n_temps;
  lw_cmap vars; /* local / parameter declarations → root kind (value) and id (sym) */
  lw_jump *jumps;
  uint32_t n_jumps, cap_jumps;
  lw_dying *dying; /* the locals with destructors in the scopes open here, oldest first */
  uint32_t n_dying, cap_dying;
  lw_switch *switches;
  uint32_t n_switches, cap_switches;
  lw_label *labels;
  uint32_t n_labels, cap_labels;
  unsigned depth;
  tc_insn no_insn; /* what lw_emit gives once memory ran out: written, never kept */
};

/* A place (lvalue) under construction: a path and its C type. */
typedef struct lw_place {
  tc_path path;
  CXType type;
} lw_place;

/* ---- lower_util.c: memory, types, locations, text, constants ---- */
/* Whether fn's lowering is too deep to descend further (depth or stack). */
int lw_too_deep(const lw_fn *fn);
/* Grows arr to hold need elements. Out of memory: sets u->oom and returns arr unchanged, *cap
   too, so callers check need <= *cap before writing. */
void *lw_grow(lw_unit *u, void *arr, uint32_t *cap, uint32_t need, size_t elem);
void *lw_alloc(lw_unit *u, size_t bytes); /* arena, zeroed; NULL (and u->oom) out of memory */
tc_sym lw_intern_cx(lw_unit *u, CXString s); /* disposes s */
tc_type lw_type(lw_unit *u, CXType t);
tc_type_class lw_type_class(CXType t);
int lw_type_is_integer(CXType t);
int lw_type_is_unsigned(CXType t);
int lw_type_is_pointer(CXType t);   /* pointers and references */
int lw_type_is_reference(CXType t); /* T & and T && */
int lw_type_is_record(CXType t);
int lw_type_is_array(CXType t);
int lw_same_record(CXType a, CXType b);
const lw_record *lw_record_of(lw_unit *u, CXType t);
tc_srcloc lw_loc(lw_unit *u, CXCursor c);
tc_srcloc lw_loc_range(lw_unit *u, CXSourceRange r);
int lw_in_macro(CXCursor c);
/* The source range of each of call's n arguments (arena memory), NULL when the call comes from
   a macro; an argument written (in part) by a macro gets an all-zero range. */
tc_srcloc *lw_arg_locs(lw_unit *u, CXCursor call, uint32_t n);
/* For each argument written `B->member` (arg_locs known), B a pointer to non-const, the source
   range of B; NULL when no argument is so (fix-its name the tensor handle of `t->data`). */
tc_srcloc *lw_arg_base_locs(lw_unit *u, CXCursor call, uint32_t n, const tc_srcloc *arg_locs);
tc_sym lw_spelling_text(lw_unit *u, CXCursor c); /* source text of an expression, or 0 */
/* Integer value of a constant expression (clang_Cursor_Evaluate); 0 if not an integer. */
int lw_eval_int(CXCursor c, int64_t *out);
int64_t lw_truncate(CXType t, int64_t v); /* converts v to integer type t (wraps) */
tc_sym lw_decl_usr(lw_unit *u, CXCursor decl);
int lw_is_noreturn(lw_unit *u, CXCursor fn_decl);
CXCursor lw_strip(CXCursor c); /* looks through parens and value-preserving implicit casts */

/* ---- lower_fn.c: blocks, instructions, variables ---- */
lw_fn *lw_fn_new(lw_unit *u);
void lw_fn_free(lw_fn *fn);
uint32_t lw_new_block(lw_fn *fn);
/* Makes b the current block; an unterminated current block falls through into it. */
void lw_set_cur(lw_fn *fn, uint32_t b);
tc_insn *lw_emit(lw_fn *fn, tc_insn_kind kind, tc_srcloc loc); /* in the current block */
void lw_goto(lw_fn *fn, uint32_t target, tc_srcloc loc);
void lw_branch(lw_fn *fn, tc_opnd cond, uint32_t t, uint32_t f, tc_srcloc loc);
/* A branch that only decides: cond known true goes to t, known false to f, not known to t. */
void lw_branch_if_known(lw_fn *fn, tc_opnd cond, uint32_t t, uint32_t f, tc_srcloc loc);
void lw_terminate(lw_fn *fn, tc_term_kind kind, tc_opnd value, tc_srcloc loc);
tc_path lw_temp(lw_fn *fn);
tc_path lw_path_extend(lw_fn *fn, const tc_path *base, tc_elem e);
tc_path lw_path_root(tc_root_kind root, uint32_t id);
uint32_t lw_add_local(lw_fn *fn, CXCursor decl, int is_static, tc_sym usr);
/* Fills a tc_function from the builder (copies into the arena). */
void lw_fn_finish(lw_fn *fn, tc_function *out);
/* An assignment of value to dst: a havoc when value is unknown (a string literal, which keeps
   its text, is assigned) */
tc_insn *lw_assign(lw_fn *fn, const tc_path *dst, CXType dst_type, tc_opnd value, tc_srcloc loc);
int lw_opnd_is_havoc(const tc_opnd *o); /* unknown with nothing kept: written as a havoc */
tc_opnd lw_opnd_path(const tc_path *p, tc_type ty);
tc_opnd lw_opnd_int(int64_t v, tc_type ty);
tc_opnd lw_opnd_unknown(tc_type ty);

/* ---- lower_expr.c ---- */
typedef enum lw_mode { LW_VALUE, LW_EFFECT } lw_mode;
tc_opnd lw_expr(lw_fn *fn, CXCursor e, lw_mode mode);
/* Evaluates e into dst (calls write dst directly; ?: writes it on each branch). */
void lw_expr_into(lw_fn *fn, CXCursor e, const lw_place *dst);
int lw_place_of(lw_fn *fn, CXCursor e, lw_place *out);
void lw_cond(lw_fn *fn, CXCursor e, uint32_t t, uint32_t f);
/* The place a variable declaration or reference names (locals, parameters, globals). */
int lw_var_place(lw_fn *fn, CXCursor decl, lw_place *out);
/* A structured binding declaration (`auto [a, b] = e`; libclang shows an unexposed
   declaration spelled "[a, b]" whose children are the bindings). */
int lw_is_decomposition(CXCursor d);
/* Registers the bindings of decomposition d, whose object is in local `id`. */
void lw_bind_names(lw_fn *fn, CXCursor d, uint32_t id);
/* The place base[index], base a (decayed) pointer value: ADDR(a) indexes a, PATH(p) *p. */
int lw_index_place(lw_fn *fn, tc_opnd base, tc_opnd index, lw_place *out);

/* ---- lower_init.c ---- */
/* Initializes dst from an initializer expression (init lists with designators, compound
   literals, string literals, plain expressions). */
void lw_init(lw_fn *fn, CXCursor init, const lw_place *dst);

/* ---- lower_stmt.c ---- */
void lw_stmt(lw_fn *fn, CXCursor s);

/* ---- lower_cxx.c: C++ constructs (calls of members and constructors, lambdas, range-for,
   try/catch, new) ---- */
/* The value of `this` in fn (unknown outside member functions). */
tc_opnd lw_this(lw_fn *fn);
/* The address of the object e designates (a temporary holds it when e is not a place). */
tc_opnd lw_addr_of(lw_fn *fn, CXCursor e);
/* A call whose callee is a C++ member or a constructor, or a call taking reference
   arguments; 0 when e is a plain C call lower_expr.c lowers itself. */
int lw_cxx_call(lw_fn *fn, CXCursor e, const lw_place *dst, lw_mode mode, tc_opnd *result);
tc_opnd lw_lambda(lw_fn *fn, CXCursor e, const lw_place *dst);
tc_opnd lw_new(lw_fn *fn, CXCursor e);
/* Lowers the in-class initializers of the record at obj (this->f = … for every field that has
   one), skipping the fields named in `except` (a constructor's member initializers). */
void lw_field_defaults(lw_fn *fn, const lw_place *obj, const tc_sym *except, uint32_t n_except);
/* The name a call of callee carries (qualified for the standard library's members). */
tc_sym lw_callee_name(lw_unit *u, CXCursor callee);
int lw_std_range_begin(lw_fn *fn, const lw_place *range, tc_srcloc loc, tc_path *it);
int lw_std_range_empty(lw_fn *fn, const lw_place *range, tc_srcloc loc, tc_path *t);
int lw_type_is_pointer_like(lw_unit *u, CXType t); /* T *, std::unique_ptr<T>, std::shared_ptr<T> */
/* Destructors at scope exits (lower_dtor.c). */
void lw_note_dying(lw_fn *fn, uint32_t local, CXType type);
/* Calls the destructors of the locals above depth, newest first, but local `spared` (a
   returned object; UINT32_MAX none). They stay registered. */
void lw_run_dtors(lw_fn *fn, uint32_t depth, uint32_t spared, tc_srcloc loc);
/* Remembers a specialization a call names, to be lowered once the walk is done. */
void lw_note_callee(lw_unit *u, CXCursor callee);
/* Stores, in the object at obj, the overrider of each virtual member of its class (bases
   first): the field `@vfn:NAME` a virtual call through a pointer or reference calls. */
void lw_store_overriders(lw_fn *fn, const lw_place *obj, CXCursor at);
/* Whether t is a C++ class that is no aggregate (declared constructors, non-public fields,
   virtual functions or bases): an initializer list's element initializes it whole, through a
   constructor, never by brace elision into its fields. */
int lw_is_class_with_constructors(CXType t);
/* Binds reference variable place dst (its own slot, not the referent) to init. */
void lw_bind_reference(lw_fn *fn, const lw_place *dst, CXCursor init);
/* a std::function *dst made or assigned from a lambda or functor (lower_cxx.c); 0 when not one */
int lw_function_from_callable(lw_fn *fn, CXCursor callable, const lw_place *dst);
/* N when t is std::array<T, N> (*elem = T, *field = its one field, the C array T[N] that
   holds the elements); -1 otherwise. */
long long lw_std_array_size(lw_unit *u, CXType t, CXType *elem, tc_sym *field);

/* ---- lower.c ---- */
/* Lowers the function definitions (and walks the namespaces and classes) inside c. */
void lw_lower_decls(lw_unit *u, CXCursor c);
/* Lowers one function body (free, member, constructor, lambda's operator()) into u; this_type
   non-NULL gives it an implicit object parameter; caps: a lambda's captures. */
void lw_lower_body(lw_unit *u, CXCursor decl, CXCursor body, const tc_type *this_type,
                   const lw_capture *caps, uint32_t n_caps, int captures_this, int is_lambda);
/* The unit's global-init builder (created on first use); NULL when out of memory. */
lw_fn *lw_global_init(lw_unit *u);
/* Registers a global (file-scope or function-local static) and lowers its initializer. */
void lw_global_var(lw_unit *u, CXCursor decl);

#endif /* TC_LOWER_INTERNAL_H */
