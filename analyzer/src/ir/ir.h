/* analyzer/src/ir/ir.h — tagcheck's small intermediate representation.
 *
 * The front end (frontend/lower.c) lowers every function body of a translation unit ONCE into
 * this IR; the engine (engine/) analyzes only the IR and never sees libclang. The IR is API-
 * agnostic: it keeps every call (by name and USR), every assignment to a place, integer
 * constants and the control flow, and nothing else. What an API call means comes from the rules
 * file, applied by the engine.
 *
 * Shape of a function: blocks of instructions ending in one terminator (goto / branch / switch /
 * return). Nested expressions are flattened into temporaries, evaluation order preserved;
 * short-circuit && / || and ?: become branches, so conditions are always plain operands.
 *
 * Places (tc_path): a root (local, parameter, temporary, global) followed by elements: .field,
 * [constant index], [any index], and * (dereference). `m->layers[i].w` is
 *   root m, elems: DEREF, FIELD layers, INDEX_ANY, FIELD w
 * `*out` is root out, elems: DEREF. The engine resolves DEREF through the address values it has
 * tracked (TC_OPND_ADDR), so `Model *pm = &m; pm->w` and `init(&m)` reach m's fields.
 *
 * Arrays: an array used as a value decays to TC_OPND_ADDR of the array's own path (not of its
 * element 0), so `dt_cat(2, ts, 0)` passes ADDR(ts) and, in the callee, `p[1]` is
 * p DEREF INDEX 1, which the engine resolves to ts INDEX 1. `&ts[1]` is ADDR(ts INDEX 1);
 * `*(p + k)` with a constant k is lowered like p[k]. `&*p` is just p; `*&x` is x; (&x)->f is x.f.
 *
 * Fields of anonymous struct/union members are flattened: `s.u_member` where u_member lives in
 * an anonymous union of s is s FIELD u_member, the same path an initializer writes.
 *
 * Memory: a tc_program owns everything (an arena of blocks plus the string table); no
 * globals. Strings are interned: tc_sym is an index into program->strings (0 = none). */
#ifndef TC_IR_H
#define TC_IR_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t tc_sym; /* interned string; 0 means "none" */

/* Locations are where the user wrote the code: for code coming out of a macro expansion, the
   place the macro was invoked. Lines and columns are 1-based, columns in bytes (clang's). */
typedef struct tc_srcloc {
  tc_sym file; /* absolute path */
  uint32_t line, col;
  uint32_t end_line, end_col; /* just past the last character of the expression or statement
                                 (exclusive, as SARIF's endColumn); 0 if unknown */
} tc_srcloc;

/* ---- places ---- */
typedef enum tc_root_kind {
  TC_ROOT_LOCAL = 1, /* id: index into fn->locals */
  TC_ROOT_PARAM,     /* id: parameter index */
  TC_ROOT_TEMP,      /* id: temporary number within the function */
  TC_ROOT_GLOBAL     /* id: tc_sym of the global's USR */
} tc_root_kind;

typedef enum tc_elem_kind {
  TC_ELEM_FIELD = 1, /* .name (sym) */
  TC_ELEM_INDEX,     /* [index] with a constant index */
  TC_ELEM_INDEX_ANY, /* [i] with a non-constant index */
  TC_ELEM_DEREF      /* *p, p->, p[...] on a pointer is DEREF then INDEX */
} tc_elem_kind;

typedef struct tc_elem {
  tc_elem_kind kind;
  tc_sym field;  /* TC_ELEM_FIELD */
  int64_t index; /* TC_ELEM_INDEX */
  /* TC_ELEM_INDEX_ANY: the variable holding the index when it is a plain local, parameter or
     temporary (`ts[i]`, `devs[i % 2]` through its temporary), so the engine can use its value
     where it knows it; index_root 0 otherwise */
  tc_root_kind index_root;
  uint32_t index_id;
} tc_elem;

typedef struct tc_path {
  tc_root_kind root;
  uint32_t id;
  uint32_t n_elems;
  tc_elem *elems;
  tc_sym spelling; /* source text for messages: "m->layers[i].w" */
} tc_path;

/* What sort of value a place or expression holds, as far as the front end can tell from its
   C type. The engine uses it to know which places matter; rules name the API's types. */
typedef enum tc_type_class {
  TC_TY_OTHER = 0,
  TC_TY_INT,      /* any integer, enum or bool type (constants are tracked) */
  TC_TY_FLOAT,    /* float/double */
  TC_TY_POINTER,  /* a pointer; pointee_type says to what */
  TC_TY_RECORD,   /* a struct or union by value */
  TC_TY_ARRAY,    /* an array; element type in pointee_type */
  TC_TY_FUNCTION_POINTER
} tc_type_class;

/* Type names: typedefs are kept as written, top-level qualifiers dropped.
     name          the type: "dt_device", "dt_tensor *", "struct Model", "int64_t *", "int"
     pointee_name  POINTER / ARRAY: the pointee / element type, qualifiers dropped: "dt_tensor"
                   for `const dt_tensor *`, "dt_tensor *" for `dt_tensor **` and `dt_tensor *[4]`
     record_name   RECORD, POINTER to a record, ARRAY of records: the record's tag name without
                   the `struct`/`union` keyword ("dt_device", "Model"), or the typedef name of an
                   anonymous record (`typedef struct {…} Cfg;` → "Cfg"), so `dt_device`,
                   `struct dt_device` and `const dt_device *` all give "dt_device". 0 otherwise
                   (in particular for pointers to pointers: see ptr_depth).
     ptr_depth     how many pointer/array levels lead to the base type: 0 for `dt_device`,
                   1 for `dt_tensor *` and `dt_device[2]`, 2 for `dt_tensor **`/`dt_tensor *[3]`
     base_record   the record at the end of those levels, whatever the depth ("dt_tensor" for
                   `dt_tensor **`), 0 if the base is not a record */
typedef struct tc_type {
  tc_type_class cls;
  tc_sym name;
  tc_sym pointee_name;
  tc_sym record_name;
  uint32_t ptr_depth;
  tc_sym base_record;
} tc_type;

/* ---- operands ---- */
typedef enum tc_opnd_kind {
  TC_OPND_NONE = 0,
  TC_OPND_PATH,    /* the value stored at a place */
  TC_OPND_ADDR,    /* the address of a place (&x, an array decaying to a pointer) */
  TC_OPND_INT,     /* an integer constant (enum constants folded) */
  TC_OPND_NULL,    /* a null pointer constant */
  TC_OPND_FUNC,    /* a function designator (function pointers): sym = USR */
  TC_OPND_UNKNOWN  /* anything the IR does not model (float math, string literals, …) */
} tc_opnd_kind;

typedef struct tc_opnd {
  tc_opnd_kind kind;
  tc_path path;   /* PATH, ADDR */
  int64_t ival;   /* INT */
  tc_sym sym;     /* FUNC: USR; INT from an enum constant: the constant's name; UNKNOWN from a
                     string literal: its text (read only by rules naming devices) */
  tc_type type;
} tc_opnd;

/* ---- instructions ---- */
typedef enum tc_insn_kind {
  TC_I_ASSIGN = 1, /* dst := a */
  TC_I_CALL,       /* [dst :=] callee(args…) */
  TC_I_UNOP,       /* dst := op a        (ints: !, -, ~) */
  TC_I_BINOP,      /* dst := a op b      (ints: + - * / % == != < <= > >= & | ^ << >>) */
  TC_I_AGGREGATE,  /* dst := {…}: an initializer list or compound literal was lowered into the
                      ASSIGNs that follow, which write dst's fields/elements; this one first
                      resets dst (fields not named become zero: TC_OPND_INT 0 / NULL) */
  TC_I_HAVOC       /* dst := unknown (e.g. scanf target, memcpy destination) */
} tc_insn_kind;

typedef enum tc_opcode {
  TC_OPC_NONE = 0,
  TC_OPC_NOT, TC_OPC_NEG, TC_OPC_BITNOT,
  TC_OPC_ADD, TC_OPC_SUB, TC_OPC_MUL, TC_OPC_DIV, TC_OPC_REM,
  TC_OPC_EQ, TC_OPC_NE, TC_OPC_LT, TC_OPC_LE, TC_OPC_GT, TC_OPC_GE,
  TC_OPC_AND, TC_OPC_OR, TC_OPC_XOR, TC_OPC_SHL, TC_OPC_SHR
} tc_opcode;

typedef struct tc_callee {
  tc_sym name;     /* the function's name as called ("dt_add"); 0 for indirect calls */
  tc_sym usr;      /* clang USR of the callee's declaration; 0 for indirect calls */
  tc_opnd target;  /* indirect calls: the function-pointer operand */
  int indirect;
} tc_callee;

/* A call's result goes straight to its destination when the call is the whole right-hand side
   of an assignment or initializer (`x = dt_add(a, b)`: CALL dst x); elsewhere to a temporary.
   Calls whose value is unused have no dst. Every temporary is written once per evaluation. */
typedef struct tc_insn {
  tc_insn_kind kind;
  tc_srcloc loc;   /* CALL: the call expression (start = callee name); others: the expression */
  int has_dst;
  tc_path dst;
  tc_type dst_type;
  tc_opcode opc;   /* UNOP / BINOP */
  tc_opnd a, b;    /* ASSIGN: a; UNOP: a; BINOP: a, b */
  tc_callee callee;/* CALL */
  uint32_t n_args;
  tc_opnd *args;   /* CALL */
  tc_srcloc *arg_locs; /* CALL: the source range of each argument (n_args entries, or NULL);
                          an entry is all zero when the argument's text is not in one file
                          range of the source (a macro expansion): fix-its need its text */
  tc_srcloc *arg_base_locs; /* CALL: for each argument written `B->member`, B a pointer to a
                               non-const object, the source range of B (the handle `t` of
                               `t->data`, for fix-its); all zero for other arguments; NULL
                               when no argument is so */
  int in_macro;    /* the expression comes from a macro expansion */
  int per_object;  /* ASSIGN: the element a range-for visits, copied into its variable (or a
                      hidden copy its reference names): where a pointer in it may point to
                      one of several objects, the engine follows one state per object */
  uint32_t visit_index, visit_count; /* per_object: 1 + the ids of the loop's hidden temps
                      counting its iterations and bounding them (the engine sets the bound to
                      the number of objects it follows, one per iteration); 0: none */
} tc_insn;

typedef enum tc_term_kind {
  TC_T_GOTO = 1, /* -> succ[0] */
  TC_T_BRANCH,   /* cond != 0 ? succ[0] : succ[1] */
  TC_T_SWITCH,   /* on cond: case_values[i] -> succ[i]; default -> succ[n_cases] */
  TC_T_RETURN,   /* return value (kind NONE for void); no successors */
  TC_T_UNREACHABLE /* after a call to a noreturn function (abort, exit) */
} tc_term_kind;

typedef struct tc_term {
  tc_term_kind kind;
  tc_srcloc loc;
  tc_opnd cond;      /* BRANCH, SWITCH; RETURN: the returned value */
  uint32_t n_succ;
  uint32_t *succ;    /* block indices */
  uint32_t n_cases;
  int64_t *case_values;
  int only_when_known; /* BRANCH: a test that only decides (a range-for's empty()): a cond the
                          analysis does not know takes succ[0] alone, not both sides */
} tc_term;

typedef struct tc_block {
  uint32_t n_insns;
  tc_insn *insns;
  tc_term term;
} tc_block;

typedef struct tc_var {
  tc_sym name;  /* source name ("x"); shadowed names are distinct variables */
  tc_type type;
  tc_srcloc loc;
  int is_static; /* function-local static: lives across calls like a global (root GLOBAL);
                    uses of it are root GLOBAL with id = usr, and its initializer runs in the
                    unit's __tc_global_init (it is also listed in the unit's globals) */
  tc_sym usr;    /* is_static: the variable's USR (the GLOBAL root id); 0 otherwise */
} tc_var;

typedef struct tc_function {
  tc_sym name;
  tc_sym usr;
  tc_srcloc loc;
  int is_static;        /* internal linkage */
  int is_inline;
  int in_header;        /* defined in a (non-system) header, not the unit's main file: every unit
                           including the header carries a copy with the same USR */
  int is_variadic;
  int is_lambda;        /* a lambda's operator(): runs only where its closure is called (SPEC §7),
                           never an entry point of its own */
  tc_type ret_type;
  uint32_t n_params;
  tc_var *params;
  uint32_t n_locals;
  tc_var *locals;
  uint32_t n_temps;
  uint32_t n_blocks;
  tc_block *blocks;     /* block 0 is the entry */
} tc_function;

typedef struct tc_global {
  tc_sym name;
  tc_sym usr;
  tc_type type;
  tc_srcloc loc;
  int has_init;
} tc_global;

/* What the front end made of a unit's function bodies (SPEC §7: never silent). Every body of
   the project's code is lowered; what a body holds that the IR does not model is lowered as
   unknown and counted here, never dropped. tc_lower_stats_add sums units, tc_lower_stats_print
   writes the table `--stats` shows. */
typedef struct tc_lower_stats {
  uint32_t functions;      /* bodies lowered, all kinds together (the lines below split them) */
  uint32_t methods;        /* member functions and operators (an explicit `this` parameter) */
  uint32_t constructors;   /* constructors and destructors */
  uint32_t lambdas;        /* lambda bodies (functions of their closure, analyzed where called) */
  uint32_t generic_lambdas; /* lambdas whose operator() is a template: lowered per specialization
                               called, their captures unknown there */
  uint32_t instantiations; /* template specializations the front end instantiated */
  uint32_t patterns;       /* templates seen with no instantiation: the pattern, dependent values
                              unknown */
  /* bodies not lowered, by cause */
  uint32_t skipped_instantiated; /* patterns analyzed through their instantiations instead */
  uint32_t skipped_system;       /* instantiations of system-header templates (rules say what
                                    they do) */
  /* constructs inside lowered bodies that became unknown */
  uint32_t unknown_stmts, unknown_exprs;
  uint32_t virtual_calls;  /* calls of virtual members through a pointer or reference: the
                              override is not known, the callee is unknown */
  uint32_t truncated;      /* bodies nested too deeply to lower whole */
} tc_lower_stats;

/* One translation unit's IR. Globals' initializers are lowered into a synthetic function
   `__tc_global_init` (name sym; usr "__tc_global_init:" + the unit's file), one per unit, run
   by the engine before any root. The globals listed are the file-scope variables defined in the
   unit's main file or in its non-system headers, plus its function-local statics. */
typedef struct tc_unit {
  tc_sym file;          /* the main file, absolute */
  int parse_failed;     /* clang reported errors: the IR covers what the AST still held */
  uint32_t n_functions;
  tc_function *functions;
  uint32_t n_globals;
  tc_global *globals;
  tc_function *global_init; /* NULL when no global has an initializer worth running */
  tc_lower_stats stats;
} tc_unit;

/* The string table and arena owning a whole program (all units). */
typedef struct tc_strtab tc_strtab;
typedef struct tc_arena tc_arena;

typedef struct tc_program {
  tc_strtab *strings;
  tc_arena *arena;
  uint32_t n_units;
  tc_unit *units;
  /* Overlays and views (an editor session's units kept lowered, analyzed without copies):
     an overlay owns a copy of base's string table (base's symbols keep their numbers) and its
     own arena; a view borrows base's string table and one of base's units, and owns nothing.
     NULL for a plain program. base must outlive both and not change while they live. */
  const struct tc_program *base;
  int view;
} tc_program;

/* ---- construction and access (ir.c) ---- */
tc_program *tc_program_new(void);
void tc_program_free(tc_program *p);
tc_sym tc_intern(tc_program *p, const char *s);
tc_sym tc_intern_n(tc_program *p, const char *s, size_t n);
const char *tc_str(const tc_program *p, tc_sym s); /* "" for 0 */
/* How many strings p interns: its symbols are 1 .. tc_program_n_strings(p) - 1. */
uint32_t tc_program_n_strings(const tc_program *p);
void *tc_arena_alloc(tc_program *p, size_t bytes); /* zeroed; lives as long as p */
/* Adds an (empty) unit to p and returns it; valid until the next tc_program_add_unit. */
tc_unit *tc_program_add_unit(tc_program *p, tc_sym file);
/* Merges src (units and strings) into dst; src is freed. Syms of src's units are remapped; a
   view's unit is added as it is (dst must then be an overlay of the view's base). */
int tc_program_merge(tc_program *dst, tc_program *src);
/* An empty program whose string table starts as a copy of base's, to merge views of base (and
   any other program) into. NULL when out of memory. */
tc_program *tc_program_overlay(const tc_program *base);
/* A one-unit program that is base's unit i, sharing base's strings: read it, merge it into an
   overlay of base, or free it; never add to it. NULL when out of memory. */
tc_program *tc_program_view(const tc_program *base, uint32_t i);
/* Human-readable dump for tests and debugging (--dump-ir). */
void tc_ir_dump(const tc_program *p, void *file /* FILE* */);
/* Writes a path the way the dump does, in C-like notation: root names from fn (NULL: "local3",
   "param0"), temporaries "%t4", globals by their USR; DEREF+FIELD as "->f", DEREF+INDEX as
   "[k]", INDEX_ANY as "[*]", any other DEREF as "(*x)". Always NUL-terminates (truncates). */
void tc_path_format(const tc_program *p, const tc_function *fn, const tc_path *path, char *buf,
                    size_t len);

/* Adds b's counts to a; prints the counts of s (functions analyzed, skipped by cause, constructs
   lowered as unknown), one line each, to file (a FILE*). */
void tc_lower_stats_add(tc_lower_stats *a, const tc_lower_stats *b);
void tc_lower_stats_print(const tc_lower_stats *s, uint32_t n_units, void *file);

/* Binary form of a program (the analysis cache, ir/serialize.c). tc_ir_serialize returns a
   malloc'd buffer (*len bytes), or NULL when out of memory; tc_ir_deserialize returns a new
   program, or NULL when the buffer is not a valid serialized program. */
unsigned char *tc_ir_serialize(const tc_program *p, size_t *len);
tc_program *tc_ir_deserialize(const unsigned char *buf, size_t len);
/* Hashes of code that are the same in any program holding the same code (the engine's
   fingerprint of what an analysis reads, engine/fingerprint.c): a function, or a unit's frame
   (its file, whether its parse failed, its globals: not its functions nor its initializer),
   with every symbol taken as its text. Each folds into *seed; 0, or -1 when out of memory. */
typedef struct tc_ir_hasher tc_ir_hasher;
tc_ir_hasher *tc_ir_hasher_new(const tc_program *p); /* NULL when out of memory */
void tc_ir_hasher_free(tc_ir_hasher *h);
int tc_ir_hash_function(tc_ir_hasher *h, const tc_function *f, uint64_t *seed);
int tc_ir_hash_unit_frame(tc_ir_hasher *h, const tc_unit *u, uint64_t *seed);

#endif /* TC_IR_H */
