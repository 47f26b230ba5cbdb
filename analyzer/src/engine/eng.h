/* analyzer/src/engine/eng.h — the engine's internal vocabulary, shared by its files (never
 * included outside engine/):
 *   locations (loc.c)  abstract memory places: roots (locals, params, temps, globals, return
 *                      slots, heap objects, unknown external objects) and their fields/elements;
 *   values (value.c)   what a place holds: ints, symbols, addresses, tensor tags, availability
 *                      tests, with provenance (where a tag came from) for messages;
 *   store (store.c)    a persistent copy-on-write map from location to value (a pure map);
 *   states (state.c)   a path's store plus what it knows about backend availability: copy,
 *                      equality, join, distance, diffs (above the memory model);
 *   memory (mem.c)     reading and writing places through IR paths;
 *   flow (flow.c)      one function's fixpoint over disjunctive states;
 *   calls (call.c)     user functions (memoized per entry state), unknown functions;
 *   api (api*.c)       the rules applied to API calls: api.c runs one (engine/api_call.h
 *                      names the parts: operands, checks, messages, results, effects);
 *   findings (findings.c) outcomes per calling context, aggregated into the report.
 * All state lives in tc_eng (no globals). */
#ifndef TC_ENG_H
#define TC_ENG_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "engine/engine.h"
#include "engine/observe.h"
#include "ir/ir.h"
#include "report/diag.h"
#include "rules/rules.h"
#include "tag.h"

/* ------------------------------------------------------------------ utilities (util.c) */

/* Chunked bump allocator: everything allocated lives until tc_eng is freed. */
typedef struct tc_chunk tc_chunk;
typedef struct tc_bump {
  tc_chunk *head;
  size_t used, cap;
} tc_bump;
void *bump_alloc(tc_bump *b, size_t n); /* zeroed, NULL on OOM */
char *bump_strdup(tc_bump *b, const char *s);
void bump_free(tc_bump *b);

/* Growable arrays: VEC_PUSH(arr, n, cap) returns a pointer to a new (uninitialized) last
   element of arr (a T *, with size_t n and cap), or NULL when out of memory. */
void *vec_push(void *items_ptr, size_t *n, size_t *cap, size_t elem);
#define VEC_PUSH(arr, n, cap) vec_push(&(arr), &(n), &(cap), sizeof *(arr))

/* Open-addressing map from 64-bit keys to 32-bit values. */
typedef struct tc_map {
  uint64_t *keys;
  uint32_t *vals;
  size_t cap, n;
} tc_map;
int map_put(tc_map *m, uint64_t key, uint32_t val);
int map_get(const tc_map *m, uint64_t key, uint32_t *val); /* 1 found */
void map_free(tc_map *m);
/* Inline: the store hashes every write. */
static inline uint64_t hash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}
static inline uint64_t hash_mix(uint64_t h, uint64_t x) {
  return hash64(h ^ (x + 0x9e3779b97f4a7c15ull + (h << 6)));
}
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);

/* ------------------------------------------------------------------ locations (loc.c) */

typedef enum loc_kind {
  LK_NONE = 0,
  LK_LOCAL,  /* a: function index, b: local id */
  LK_PARAM,  /* a: function index, b: param index */
  LK_TEMP,   /* a: function index, b: temp id */
  LK_RET,    /* a: function index: the return slot */
  LK_GLOBAL, /* a: sym of the USR (or of a local static's key) */
  LK_HEAP,   /* a: allocation site id, b: context */
  LK_EXT,    /* a: the location that held an unknown pointer */
  LK_FIELD,  /* a: field id */
  LK_INDEX,  /* b: constant index */
  LK_ANY     /* the summary of an array's elements not tracked one by one */
} loc_kind;

typedef struct eloc {
  uint32_t parent; /* 0 for a root */
  uint32_t root;   /* the root location (itself for a root) */
  uint8_t kind;    /* loc_kind */
  uint8_t is_array;
  uint16_t depth;
  uint8_t devfield; /* a backend / ordinal / autodiff field of a device (loc_is_device_field) */
  uint8_t summarized; /* an array summary (LK_ANY) or inside one: it stands for several
                         places, so every write to it is weak */
  uint32_t a;
  int64_t b;
  uint32_t first_child, next_sibling, any_child;
} eloc;

#define LOC_MAX_DEPTH 64

/* ------------------------------------------------------------------ provenance (value.c) */

typedef enum prov_kind {
  PV_DEVICE = 1, /* a device constructor made this device */
  PV_TENSOR,     /* an API call made this tensor */
  PV_ASSIGN,     /* stored into a named place */
  PV_PARAM,      /* passed to a user function's parameter */
  PV_RETURN,     /* returned by a user function */
  PV_DEVICE_OF,  /* the device of a tensor */
  PV_PLACED      /* a call placed a tensor, or the tensors of a context, in a buffer */
} prov_kind;

typedef struct prov {
  const struct prov *prev; /* earlier step */
  const tc_srcloc *loc;
  tc_sym name;  /* API function, variable spelling, or user function */
  tc_sym name2; /* PV_PARAM: the parameter */
  const char *text; /* the name when it is not a program string (a call through a pointer) */
  uint8_t kind;
  uint8_t lookup; /* PV_TENSOR: a lookup returned one of a context's tensors (member_of_arg) */
  uint8_t n_operands; /* PV_TENSOR made in a context: the origins of its tensor operands */
  uint8_t operands_partial; /* some tensor operand was not known (so neither are its own) */
  uint8_t one_of; /* PV_TENSOR, PV_PLACED: `tag` is one member of the value's tag set */
  const struct prov **operands; /* (a graph given it reaches them: bind_graph) */
  uint16_t depth;
  tc_tag tag;
} prov;

typedef struct pathnote {
  const struct pathnote *prev;
  const tc_srcloc *loc;
  tc_sym what;   /* the condition's spelling, 0 if none */
  int32_t taken; /* 1 true, 0 false, >= 2: case value + 2 */
  int32_t backend; /* >= 0: this note records the backend found unavailable */
  uint32_t depth;
} pathnote;

/* ------------------------------------------------------------------ values (value.c) */

typedef enum av_kind {
  AV_ABSENT = 0, /* no value stored here: inherit (parent's default, or the root's) */
  AV_BOT,        /* uninitialized / nothing yet */
  AV_MULTI,      /* a heap object allocated more than once on this path: weak updates */
  AV_TOP,        /* unknown */
  AV_INT,        /* integer constant i (NULL pointers are 0) */
  AV_NE,         /* an integer known to differ from i */
  AV_SYM,        /* an unknown integer with identity i */
  AV_ADDR,       /* the address of location loc, element index i (IDX_NONE / IDX_ANY) */
  AV_FUNC,       /* a function designator: i = USR sym */
  AV_TENSOR,     /* a tensor handle with tag; loc: the context object it was made in (0 none),
                    whose binding to a buffer later places it (rules/ggml.json) */
  AV_AVAIL,      /* the result of an availability test of backend i (negated: neg) */
  AV_ADDRSET,    /* one of several addresses: points-to set number i (ptset_get) */
  AV_POISON,     /* the result of a call already flagged: unknown, and no check counts it;
                    i: its nullness (poison_nullness) */
  AV_DATAPTR,    /* a tensor's data pointer: tag says where the memory is (host or not) */
  AV_SETTEST,    /* a test of the member a tag set stands for (settest_value; negated: neg): a
                    branch on it narrows the sets of its origin (tagset_narrow) */
  AV_STR,        /* a string literal, not NULL: i = the symbol of its text (read by rules that
                    name devices: ggml_backend_dev_by_name); what it points to is unknown */
  AV_RANGE       /* an unknown integer in [i, hi] (INT64_MIN / INT64_MAX: unbounded on that
                    side), learned from a comparison with a constant; never a single value */
} av_kind;

#define IDX_NONE INT64_MIN
#define IDX_ANY INT64_MAX

/* A derivation's relation: the value is truthy iff (dloc rel dc). */
typedef enum drel { DR_NONE = 0, DR_EQ, DR_NE, DR_LT, DR_LE, DR_GT, DR_GE } drel;
/* The relation that holds when r does not: EQ/NE, LT/GE, LE/GT. */
static inline drel drel_negate(drel r) {
  switch (r) {
    case DR_EQ: return DR_NE;
    case DR_NE: return DR_EQ;
    case DR_LT: return DR_GE;
    case DR_LE: return DR_GT;
    case DR_GT: return DR_LE;
    case DR_GE: return DR_LT;
    case DR_NONE: break;
  }
  return DR_NONE;
}
/* (c r x) as a relation of x to c: c < x is x > c. */
static inline drel drel_mirror(drel r) {
  switch (r) {
    case DR_LT: return DR_GT;
    case DR_LE: return DR_GE;
    case DR_GT: return DR_LT;
    case DR_GE: return DR_LE;
    case DR_EQ:
    case DR_NE:
    case DR_NONE: break;
  }
  return r;
}

typedef struct aval {
  uint8_t k;
  uint8_t neg;     /* AV_AVAIL: negated; AV_ADDR / AV_ADDRSET: or NULL (`next` of a list's
                      nodes: NULL in the last one, another node before) */
  uint8_t drel;    /* this value is truthy iff (dloc drel dc) held when it was computed */
  uint8_t dsnap_k; /* what dloc held then (to notice it has changed since) */
  uint32_t loc;    /* AV_ADDR */
  int64_t i;
  union {
    tc_tag tag; /* AV_TENSOR, AV_DATAPTR */
    int64_t hi; /* AV_RANGE: the upper bound (i is the lower) */
  };
  uint32_t dloc;
  int64_t dc;
  int64_t dsnap_i;
  const prov *prov;
} aval;

typedef struct tc_eng tc_eng;

/* Points-to sets: a few (location, index) targets, interned. */
#define PTS_MAX 8
typedef struct ptset {
  uint32_t n;
  uint32_t loc[PTS_MAX];
  int64_t idx[PTS_MAX];
} ptset;
const ptset *ptset_get(const tc_eng *e, int64_t id);
/* The targets of an ADDR or ADDRSET value, into s (n = 0 for other values). */
void av_targets(const tc_eng *e, const aval *v, ptset *s);
/* The context a tensor was made in (AV_TENSOR's loc): 0 (none, or not known), a context
   object, or TLOC_SET | the number of a points-to set of contexts: tensors of several
   contexts joined, or made in a context pointer that is one of several. */
#define TLOC_SET 0x80000000u
static inline uint32_t tloc_single(uint32_t loc) { return loc & TLOC_SET ? 0 : loc; }
uint32_t tloc_union(tc_eng *e, uint32_t a, uint32_t b); /* 0 when either is 0 or too many */
uint32_t tloc_of(tc_eng *e, const ptset *objs);         /* 0 for none or too many */
void tloc_members(const tc_eng *e, uint32_t loc, ptset *out);
int tloc_has(const tc_eng *e, uint32_t loc, uint32_t ctx);
uint32_t tloc_without(tc_eng *e, uint32_t loc, uint32_t ctx); /* a set less one context */

/* Tag sets (tagset.c): "one of these tags", interned; ids start at 1 (0: none). An AV_TENSOR
   whose i is a set id stands for one of its members (tag: their field-wise join). */
#define TAGSET_MAX 8
typedef struct tagset {
  uint32_t n;
  uint32_t var; /* the set this one was made from (its own id for an origin; 0 before interning) */
  uint32_t dead; /* positions a branch ruled out (each repeats a kept member): never kept again */
  uint32_t joined; /* 1: made by joining values (of paths that met, or of a container's
                      elements): its members may be different objects; 0: one object made on
                      one of several devices (ggml_backend_init_best), wherever it is copied */
  tc_tag tag[TAGSET_MAX];
} tagset;
int tagset_add(tagset *s, const tc_tag *t); /* sorted, no duplicates; -1 when full */
int tagset_union(const tagset *a, const tagset *b, tagset *out); /* a new origin; -1: too many */
const tagset *tagset_get(const tc_eng *e, uint32_t id);
uint32_t tagset_intern(tc_eng *e, const tagset *s); /* 0 for fewer than two members */
tc_tag tagset_view(const tagset *s);                 /* field-wise join of the members */
/* Some member of a and some member of b may be on the same device, autodiff-ness aside (NULL:
   unknown, so yes). */
int tagsets_share_device(const tagset *a, const tagset *b);
void tagset_of_tensor(const tc_eng *e, const aval *v, tagset *out);
/* The tags of tensors a and b together into r (tag and i); 0 when they are too many. */
int tensor_join_tags(tc_eng *e, const aval *a, const aval *b, aval *r);
/* Set `id` with the fields where `to` differs from `view` (what an operation changed in its
   operand's tag) set to to's in every member. */
uint32_t tagset_remap(tc_eng *e, uint32_t id, const tc_tag *view, const tc_tag *to);
/* Device fields: field k (0 backend, 1 ordinal, 2 autodiff) of one of the devices of set. */
int devset_field(const aval *v, uint32_t *set, int *k);
/* AV_SETTEST values: a test of the member chosen for tag set origin var: where it is true,
   the member is at one of the positions when_true, where false at one of when_false */
aval settest_value(uint32_t var, uint32_t when_true, uint32_t when_false);
uint32_t settest_var(const aval *v);
/* The test `backend == value` of the member set stands for (a device field 0 of the set, the
   enum value of its backend, compared with a constant): 1 or 0 when every member agrees. */
aval devset_backend_test(tc_eng *e, uint32_t set, int64_t value);
/* The test `holds(backend, arg)` of the member ts stands for: 1 or 0 when every member agrees (a
   member whose backend is not known may be either), unknown when none can be told apart. */
aval settest_of_members(const tc_eng *e, const tagset *ts,
                        int (*holds)(const tc_backend_def *b, int64_t arg), int64_t arg);
uint32_t settest_mask(const aval *v, int truth); /* the positions it leaves */
aval devset_value(uint32_t set, int k);
/* Field k of a device struct holding one of set's devices: an int if they all agree. */
aval device_field_of_set(tc_eng *e, uint32_t set, int k, const prov *pv);
/* The devices a struct whose three fields hold fv can be (kind unknown; the set's positions
   and origin kept); 0 when unknown. */
int device_members(tc_eng *e, const aval fv[3], tagset *out);
struct devtype;
const struct devtype *devtype_of_field(const tc_eng *e, uint32_t field, int *k);

aval av_make(av_kind k, int64_t i);
aval av_top(void);
/* An unknown integer in [lo, hi] (INT64_MIN / INT64_MAX: unbounded): AV_INT when lo == hi,
   AV_TOP when both sides are unbounded. */
aval av_range(int64_t lo, int64_t hi);
/* The bounds of an integer value (AV_INT, AV_RANGE; anything else: unbounded). */
void av_bounds(const aval *v, int64_t *lo, int64_t *hi);
/* What an AV_POISON's i says of its nullness: a failed call's NULL result, or the value it
   replaced (a handle known not to be NULL stays so: `if (w)` after w's finding). */
typedef enum poison_nullness { POISON_MAYBE_NULL = 0, POISON_NULL = 1, POISON_NOT_NULL = 2 } poison_nullness;
/* The poison written over v (a consequence of a finding): v's nullness kept. */
aval av_poison_over(const aval *v);
int av_same(const aval *a, const aval *b);      /* equal ignoring provenance/derivation */
aval av_join(tc_eng *e, const aval *a, const aval *b); /* a's provenance kept */
int av_intlike(const aval *a);                  /* INT, NE, SYM, TOP, AVAIL, BOT */

/* ------------------------------------------------- the store (store.c) and states (state.c) */

#define ST_BITS 5
#define ST_FAN (1u << ST_BITS)

typedef struct st_node st_node;
typedef struct st_store {
  st_node *root;
  uint8_t depth; /* capacity ST_FAN^depth slots; 0: empty */
} st_store;

typedef struct astate {
  st_store mem;
  uint32_t avail_yes, avail_no; /* backends this path found available / unavailable */
  uint32_t avail_reported;      /* backends whose unavailability this path already reported:
                                   later allocations there are consequences, not new findings */
  const pathnote *path;         /* undecided branches this path took */
  uint8_t uncertain;            /* took an undecided branch, or joins different paths (or a
                                   callee's exit did): not certain to run when its entry is */
  uint8_t merged;               /* joins different paths: its tag sets stand for them */
  uint64_t decided_branches;    /* bit (block % 64): that block's branch was last decided for
                                   this state (a loop whose bound it knows: flow.c) */
  uint32_t decorrelated;        /* merged, then split by an undecided branch: that branch may
                                   be the one that told the merged paths apart (a flag read
                                   again), so the members of a tag set that existed then no
                                   longer stand for the paths that reach a call (api.c
                                   check_choices). The number of tag sets interned at the
                                   last such branch (origins up to it are decorrelated; a set
                                   made after it is not); 0: none */
} astate;

/* Every tensor and data pointer of s whose tag set has origin var keeps only the members at
   the positions of mask (a branch on an AV_SETTEST); 0 when mask is empty (no such path). */
int tagset_narrow(tc_eng *e, astate *s, uint32_t var, uint32_t mask);

const aval *st_get(const st_store *s, uint32_t id); /* NULL if absent */
/* st_get for a run of reads of one map that mostly stay in the same leaf (a walk over a
   struct's fields, whose ids are neighbours): the cursor remembers the last leaf. Valid while
   the map is not written; start from a zeroed cursor. */
typedef struct st_cursor {
  const st_node *root;
  const st_node *leaf;
  uint32_t block; /* id >> ST_BITS of leaf */
  int valid;
} st_cursor;
const aval *st_get_near(const st_store *s, st_cursor *c, uint32_t id);
void st_set(tc_eng *e, st_store *s, uint32_t id, const aval *v); /* v NULL or ABSENT clears */
st_store st_copy(const st_store *s);
void st_release(tc_eng *e, st_store *s);
void st_free_all(tc_eng *e); /* frees the node free lists (their nodes go back to malloc) */
/* Calls fn on every slot where a or b holds a value, in id order (slots both maps share are
   skipped; with by_content, also subtrees of equal content hashes); fn's nonzero stops. */
typedef int (*st_pair_fn)(void *user, uint32_t id, const aval *a, const aval *b);
void st_walk_pairs(tc_eng *e, const st_store *a, const st_store *b, int by_content,
                   st_pair_fn fn, void *user);
/* Calls fn on every leaf block (ids block << ST_BITS ...) where a and b are not the same node,
   in id order, with both leaves' slots (NULL: no leaf there); fn's nonzero stops the walk and
   is returned. */
typedef int (*st_leaf_fn)(void *user, uint32_t block, const aval *a, const aval *b);
int st_walk_leaves(tc_eng *e, const st_store *a, const st_store *b, st_leaf_fn fn, void *user);
/* The sum of the map's slot hashes: every value (provenance ignored), or tags only. */
uint64_t st_content_hash(const st_store *s, int tags_only);
/* The ids, in order, of the slots holding an unknown copied from src while it was `before`
   (into *ids, malloc'd; the caller frees). */
size_t st_find_copies(tc_eng *e, const st_store *s, uint32_t src, const aval *before,
                      uint32_t **ids);

astate state_copy(const astate *s);
void state_release(tc_eng *e, astate *s);
int state_equal(tc_eng *e, const astate *a, const astate *b);
/* A hash of what state_equal compares (equal states hash alike). */
uint64_t state_hash(tc_eng *e, const astate *s);
/* The same over everything but integers: states whose tag hashes are equal differ only in
   integers (flags, counters). */
uint64_t state_tag_hash(tc_eng *e, const astate *s);
int state_differ_in_ints_only(tc_eng *e, const astate *a, const astate *b);
/* src, whose value was `before`, is now known to be `now` on this path: values copied from it
   while it was unknown (`m->training = training` before `if (training)`) learn it too, so a
   flag and the device chosen by it stay correlated after the function returns. */
void state_refine_copies(tc_eng *e, astate *s, uint32_t src, const aval *before,
                         const aval *now);
/* Joins b into a (a changes); returns 1 if a changed. */
int state_join_into(tc_eng *e, astate *a, const astate *b);
/* How different two states are: tag-relevant differences weigh more than int ones. Sets
   *int_only when every difference is an integer. Stops counting past limit. */
uint32_t state_distance(tc_eng *e, const astate *a, const astate *b, int *int_only,
                        uint32_t limit);

typedef struct delta_ent {
  uint32_t id;
  aval v; /* AV_ABSENT: cleared */
} delta_ent;
/* Slots where `to` differs from `from` (appended to *out). */
int state_diff(tc_eng *e, const astate *from, const astate *to, delta_ent **out, size_t *n,
               size_t *cap);

/* ------------------------------------------------------------------ functions and context */

typedef struct memo_exit {
  delta_ent *delta;
  size_t n_delta;
  uint32_t avail_yes, avail_no, avail_reported;
  uint8_t uncertain; /* the exit's path took an undecided branch inside the callee */
  uint8_t merged;
  uint8_t decorrelated; /* the callee decorrelated the state (as astate's: a branch there) */
} memo_exit;

typedef struct memo_entry {
  uint64_t hash, hash2; /* the entry state's key (call.c): two hashes of its words */
  size_t n_key;         /* and their number */
  memo_exit *exits;
  size_t n_exits;
  uint32_t chain;                /* the chain it was analyzed under */
  size_t out_begin, out_end;     /* its outcomes in the log */
  uint32_t depth;                /* the analysis depth of its body */
  struct memo_entry *next;
} memo_entry;

/* The last memo key computed for a function (call.c): the entry state it was computed from (a
   reference, so its nodes never change), the leaf blocks of the store its walk read (sorted,
   distinct), and everything else the key covers. A later entry that differs from that state
   only in blocks the walk did not read, and reaches no place made since, has the same key:
   proven by comparing the two stores (which skips every node they share) instead of walking
   everything the callee can see again. */
typedef struct key_hint {
  st_store mem;
  uint32_t *blocks;
  size_t n_blocks, cap_blocks;
  uint64_t h1, h2;
  size_t n;
  uint32_t inst, avail_yes, avail_no, avail_reported, chain;
  uint32_t n_locs; /* places that existed when the walk ran */
  size_t n_named_roots, n_params; /* named globals and entry parameters then */
  uint8_t with_prov, valid;
  uint8_t held; /* mem and blocks are held (the function is in tc_eng's hint_holders) */
} key_hint;

/* A variable that indexes two different arrays in one function (index_split.c). */
typedef struct index_var {
  tc_root_kind root;
  uint32_t id;
} index_var;

typedef struct fninfo {
  const tc_function *fn;
  const tc_unit *unit;
  uint32_t idx;
  /* Another definition with the same USR (index + 1; 0: none): a database holding several
     programs defines main, init_model… once per program. */
  uint32_t next_same_usr;
  uint32_t n_insns;
  /* lazily computed by flow.c */
  int prepared;
  uint32_t *rpo;        /* block -> reverse post-order number */
  uint8_t *loop_head;   /* block is the target of a back edge */
  uint32_t *loop_last;  /* loop head -> the highest rpo number of a block that jumps back to it */
  uint32_t *by_rpo;     /* rpo number -> block */
  uint8_t *cross_temp;  /* temp read in a block other than where it is written */
  index_var *split_vars; /* variables whose unknown value splits a state (index_split.c) */
  size_t n_split_vars, cap_split_vars;
  /* frame root ids by activation and local/param/temp/return slot (0: not made yet) */
  uint32_t *frame_locs;
  /* frame roots (params, locals, temps, return slot) created so far, for clearing */
  uint32_t *roots;
  size_t n_roots, cap_roots;
  /* interprocedural bookkeeping */
  int called;    /* some direct call names it */
  int is_main;
  int is_init;   /* a unit's __tc_global_init */
  int allocates; /* reaches an allocator */
  int relevant;  /* reaches a call of the API (directly, through callees or a function pointer) */
  int address_taken; /* a function designator names it: an indirect call may reach it
                        (call_scope_prepare) */
  int moves_tags; /* stores or returns tensor handles or devices (a registry's lookup): its
                     paths are kept apart even when it calls no API function */
  uint32_t active; /* activations on the analysis stack */
  int analyzed;
  int too_costly;
  /* The globals this function, anything it calls, or anything an indirect call of theirs may
     reach (a function whose address is taken) names directly: memo keys cover only these,
     plus whatever the entry state's pointers reach (call.c). named_roots: their root
     locations so far, in global_roots order. */
  tc_map named;
  uint32_t *named_roots;
  size_t n_named_roots, cap_named_roots, named_scanned;
  uint32_t n_fresh; /* analyses run */
  uint32_t n_recursive; /* of which while it was already being analyzed */
  memo_entry *memo;
  key_hint hint;
} fninfo;

/* A calling context: the last CHAIN_K call sites that led to a function (oldest first): deep
   enough that main -> run -> evaluate -> batch -> forward -> linear keeps two calls of run
   apart. */
#define CHAIN_K 8
typedef struct chain_node {
  uint32_t n;
  const tc_insn *call[CHAIN_K];
  uint32_t callee[CHAIN_K];
} chain_node;

/* How the checks of one call went in one calling context: states seen, states failing each
   rule (and the first failure's explanation). Aggregated per analysis (see findings.c). */
typedef struct outcome {
  uint32_t chain;
  uint32_t fn;
  const tc_insn *insn;
  uint32_t depth; /* analysis depth where it was recorded */
  uint32_t total;
  uint32_t fails[TC_RULE_COUNT];
  /* The analysis this was recorded in (one calling context: one entry state) was entered on a
     path no undecided branch led to; if every state in it failed, that context always fails. */
  uint8_t entry_certain;
  uint32_t detail[TC_RULE_COUNT]; /* index into details (+1), 0 none */
  /* the fix-it of the failing states (fixes.c): a hash of the plan, 0 none; a bit of
     fix_mixed is set when two failing states of a rule would need different fixes (or one
     has none), so none is offered */
  uint32_t fix_key[TC_RULE_COUNT];
  uint16_t fix_mixed;
} outcome;

/* One edit of a fix plan: rules fix `def` (index into rules->fixes) applied to the call's
   argument `got` (insn argument index) with `expected` the argument that set the expectation
   (-1 none). */
typedef struct fix_step {
  uint16_t def;
  int16_t got, expected;
} fix_step;
#define FIX_MAX_STEPS 8

/* What api.c knows of one operand the check found wrong, for the fix plan (fixes.c). */
typedef struct fix_candidate {
  int msg;               /* tc_msg_slot of its failure */
  int got, expected;     /* insn argument indices; -1 when it is no single argument */
  int32_t got_autodiff, expected_autodiff; /* tag fields (TC_TAGF_*) */
  int got_is_handle_data; /* the got argument is `t->data` of tensor handle t ({got_handle}) */
  int others_pass;        /* the call's other checks pass (a new call may replace it) */
} fix_candidate;

typedef struct detail {
  char *message;
  const prov *provs[4];
  tc_sym names[4];
  size_t n_provs;
  const pathnote *path;
  const char *op;
  fix_step fix[FIX_MAX_STEPS]; /* the fix-it plan of this failure (fixes.c) */
  uint8_t n_fix;
} detail;

struct tc_eng {
  const tc_program *prog;
  const tc_rules *rules;
  /* the analyses on the stack were entered from an uncertain path (see astate.uncertain) */
  int outer_uncertain;
  tc_tag_names names;
  unsigned max_states, max_contexts;
  uint32_t unavailable_mask; /* backends the configuration marks unavailable */
  const char *const *disabled;
  size_t n_disabled;
  int oom;

  tc_bump bump;

  /* functions */
  fninfo *fns;
  size_t n_fns;
  tc_map fn_by_usr;     /* usr sym -> fn index */
  tc_map fn_by_name;    /* name sym -> fn index (functions with external linkage) */
  tc_map site_ids;      /* allocation instruction -> site id */
  uint32_t n_sites;
  tc_map node_ids;      /* a tensor's origin (prov) -> its slot in a graph's node set */
  uint32_t n_node_ids;
  tc_map api_by_name;   /* name sym -> api index + 1 (0: none) */
  tc_map noreturn_by_name; /* name sym -> 1 + whether the rules' "noreturn" names it */

  /* fields */
  char **field_names;
  size_t n_fields, cap_fields;
  tc_map field_by_hash; /* string hash -> field id (chained by probing on collision) */
  tc_map field_by_sym;  /* program sym -> field id */
  struct devtype {
    uint32_t name_hash;
    const char *name;
    uint32_t f_backend, f_ordinal, f_autodiff;
  } *devtypes;
  size_t n_devtypes;

  /* locations */
  eloc *locs;
  size_t n_locs, cap_locs;
  tc_map loc_index; /* (parent, kind, a, b) hash -> loc id (probing on collision) */
  uint32_t *global_roots;
  size_t n_global_roots, cap_global_roots;

  /* store node free lists */
  st_node *free_inner, *free_leaf;

  /* tag sets (tagset.c) */
  tagset *tagsets;
  size_t n_tagsets, cap_tagsets;
  tc_map tagset_index;

  /* points-to sets */
  ptset *ptsets;
  size_t n_ptsets, cap_ptsets;
  tc_map ptset_index;

  /* analysis stack */
  struct active_call {
    const fninfo *fi;
    uint64_t hash, hash2; /* its memo key (call.c) */
    size_t n_key;
  } *act;
  size_t n_act, cap_act;
  uint32_t depth;
  uint32_t cur_chain;
  uint64_t work, work_limit;
  size_t n_roots_analyzed;
  unsigned long long n_keys_walked, n_keys_reused; /* tc_engine_stats */
  /* analyses that ran past their budget and were run again joined, and those that ran past
     it joined too (their callers go on as after an unknown call) */
  unsigned long long n_budget_reruns, n_budget_stops;
  /* The functions whose key hints are held, oldest first in a ring (call.c): at most
     HINTS_HELD, so the entry states they keep alive stay bounded. */
  uint32_t *hint_holders;
  size_t n_hint_holders, hint_oldest;

  /* chains and outcomes */
  chain_node *chains;
  size_t n_chains, cap_chains;
  tc_map chain_index;
  outcome *outs;
  size_t n_outs, cap_outs;
  tc_map out_index;   /* (chain, insn) -> last log index */
  size_t slice_begin; /* the log slice of the innermost analysis under way */
  detail *details;
  size_t n_details, cap_details;

  /* field ids of the pseudo-fields API objects keep state in, and of the tensor fields the
     rules name (0: none), resolved once (api_prepare) */
  uint32_t f_placement, f_tag, f_context, f_members, f_nodes, f_elements, f_data, f_buffer,
      f_view_src, f_sources, f_memory, f_kind, f_names, f_name_patterns;
  /* a container's size as far as known ($count: at least 1 once an element was put in) and an
     iterator's position ($at: a non-empty container's begin, or an end) (api_operands.c) */
  uint32_t f_count, f_at;

  /* operands already reported alone with a kind an API function does not accept: the same
     function given the same tensor at another call is the same mistake (api.c) */
  struct kind_report {
    const tc_api_fn *fn;
    const prov *origin;
    const tc_insn *in;
  } *kind_reports;
  size_t n_kind_reports, cap_kind_reports;

  /* terminators stand for instructions where they read memory (findings.c keys on insns) */
  tc_map term_insns; /* terminator address -> index into term_insn_list */
  tc_insn **term_insn_list;
  size_t n_term_insns, cap_term_insns;

  /* the positions whose tags a caller asked for (observe.c); NULL: none, nothing observed */
  tc_observe *observe;

  /* scratch */
  uint32_t *visit_stamp;
  size_t cap_visit;
  uint32_t stamp;
};

/* api_size.c: loc is a container's size or an iterator's position pseudo-field (a join of it
   with a path that never wrote it is unknown, not what the other path says) */
int api_size_is_pseudo_field(const tc_eng *e, uint32_t loc);

/* loc.c */
uint32_t loc_root(tc_eng *e, loc_kind k, uint32_t a, int64_t b, uint32_t owner_fn);
uint32_t loc_child(tc_eng *e, uint32_t parent, loc_kind k, uint32_t a, int64_t b);
uint32_t loc_find_child(const tc_eng *e, uint32_t parent, loc_kind k, uint32_t a, int64_t b);
uint32_t field_id_of_sym(tc_eng *e, tc_sym s);
uint32_t field_id_of_name(tc_eng *e, const char *name);
const struct devtype *devtype_for(tc_eng *e, const tc_type *t);
int loc_is_tensor_type(const tc_eng *e, const char *type_name);
/* 1 when t is a pointer to the type named want (struct and qualifiers ignored). */
int loc_type_points_to(const tc_eng *e, const tc_type *t, const char *want);
/* A tensor handle (a pointer to a tensor type) or a device struct. */
int type_carries_tag(const tc_eng *e, const tc_type *t);
/* A backend / ordinal / autodiff field of a device: integers that are tags. */
int loc_is_device_field(const tc_eng *e, uint32_t id);

/* value.c */
const prov *prov_new(tc_eng *e, prov_kind k, const prov *prev, const tc_srcloc *loc, tc_sym name,
                     tc_sym name2, tc_tag tag);
const pathnote *pathnote_new(tc_eng *e, const pathnote *prev, const tc_srcloc *loc, tc_sym what,
                             int32_t taken, int32_t backend);
/* The symbol standing for the unknown value `which` (0..3) first read at loc. */
int64_t sym_of_loc(uint32_t loc, unsigned which);

/* mem.c: reading and writing places within one function activation */
typedef struct host_touch {
  aval ptr;       /* the tensor data pointer the host dereferenced */
  tc_sym spelling; /* how the source named it */
} host_touch;
typedef struct frame {
  tc_eng *e;
  fninfo *fi;
  uint32_t inst; /* which activation of fi (recursion) */
  const tc_insn *in; /* the instruction being applied (where a dereference is checked) */
  int addr_only;     /* resolving a place for its address: no memory is accessed */
  /* Tensor data the host dereferenced while `in` was applied: memory notes them, the transfer
     function (flow.c, call.c) has them checked (flow_check_touches) before anything else is
     analyzed. */
  host_touch *touched;
  size_t n_touched, cap_touched;
} frame;

/* A frame's locations are keyed by function and activation. */
#define MAX_INSTANCES 16u
#define FRAME_KEY(idx, inst) ((uint32_t)(idx) | ((uint32_t)(inst) << 24))
#define FRAME_INST(a) ((uint32_t)(a) >> 24)

#define MEM_MAX_TARGETS 64
typedef struct targets {
  uint32_t loc[MEM_MAX_TARGETS];
  int n;
  int weak;     /* several places, or a summary: update weakly */
  int overflow; /* more places than kept: reads are unknown, writes dropped */
} targets;

uint32_t mem_root_loc(frame *f, const tc_path *p);
int mem_resolve(frame *f, astate *s, const tc_path *p, targets *out);
aval mem_eff(tc_eng *e, const astate *s, uint32_t loc);
aval mem_read_targets(tc_eng *e, const astate *s, const targets *t);
/* Reading a[i]: target i, the array's summary, counts only once something was stored through
   it; an array whose elements were all stored one by one is read from those. whole: the
   targets are read as whole objects (what their fields hold counts too). */
int mem_skip_summary(const tc_eng *e, const astate *s, const targets *t, int i, int whole);
aval mem_read_path(frame *f, astate *s, const tc_path *p, uint32_t *single);
aval mem_eval(frame *f, astate *s, const tc_opnd *o, uint32_t *single);
void mem_write(tc_eng *e, astate *s, uint32_t loc, const aval *v, int weak);
void mem_write_targets(tc_eng *e, astate *s, const targets *t, const aval *v);
void mem_clear_subtree(tc_eng *e, astate *s, uint32_t loc);
/* How a copy is explained in provenance: a step of `kind` at `at` naming name/name2. */
typedef struct copy_note {
  prov_kind kind;
  const tc_srcloc *at;
  tc_sym name, name2;
} copy_note;
void mem_copy_subtree(tc_eng *e, astate *s, uint32_t dst, uint32_t src, int weak,
                      const copy_note *cn); /* cn may be NULL */
/* Copies into dst the join of the objects src names (an element of an array read at an index
   the path does not know is any of them): the first as mem_copy_subtree does, the rest joined */
void mem_copy_joined(tc_eng *e, astate *s, uint32_t dst, const targets *src, const tc_type *ty,
                     int weak, const copy_note *cn);
/* The devices one of the device structs at t can be (the union of each one's members, as
   device_members gives them; tagset.c): 1 when known; fv: their fields joined. */
int device_members_at(tc_eng *e, astate *s, const struct devtype *dt, const targets *t,
                      aval fv[3], tagset *members);
/* The value of a place, made a symbol when nothing is known and it is one place (so that two
   reads of the same unknown agree). */
aval mem_read_materialized(tc_eng *e, astate *s, uint32_t loc, int weak);
void mem_havoc_reachable(tc_eng *e, astate *s, uint32_t loc);
/* 1 when loc or a place inside it holds a value of its own on this path */
int mem_subtree_has_values(const tc_eng *e, const astate *s, uint32_t loc);
int mem_is_record_type(const tc_type *t);
aval mem_addr_of(frame *f, astate *s, const tc_path *p);

/* flow.c */
typedef struct state_list {
  astate *items;
  size_t n, cap;
} state_list;
void slist_push(tc_eng *e, state_list *l, astate s); /* takes ownership */
/* After a range-for's element is copied (insn per_object): s, or one state per object a
   pointer in the copy may point to, the pointer narrowed to it (per_object.c). */
void flow_split_per_object(frame *f, astate s, const tc_insn *in, state_list *out);
/* An instruction reading through an index this state does not know, held by a variable that
   indexes two arrays: one state per element stored, the variable (at var) set to k[i]
   (index_split.c). */
#define INDEX_SPLIT_MAX 4
typedef struct index_split {
  uint32_t var;
  uint32_t n;
  int64_t k[INDEX_SPLIT_MAX];
  const prov *prov;
} index_split;
int index_split_prepare(tc_eng *e, fninfo *fi);
int index_split_find(frame *f, astate *s, const tc_insn *in, index_split *out);
void slist_release(tc_eng *e, state_list *l);
void slist_merge_to(tc_eng *e, state_list *l, size_t max);
/* Runs the host-access check on every dereference of tensor data memory noted in f since the
   last call (api_host_access), then forgets them. */
void flow_check_touches(frame *f, astate *s);
/* Analyzes fi from entry (ownership taken); exit states appended to exits. Returns 0, or -1
   when the function blew its budget (exits then left empty). */
int flow_analyze(tc_eng *e, fninfo *fi, uint32_t inst, astate entry, state_list *exits);
int flow_assume(tc_eng *e, astate *s, const aval *v, int truth);

/* call.c */
/* The definition a call from unit `from` reaches: the caller's own unit's, else the one in the
   nearest folder, else the first. */
fninfo *fn_lookup(tc_eng *e, const tc_unit *from, tc_sym usr, tc_sym name);
const tc_api_fn *api_lookup(tc_eng *e, tc_sym name);
const tc_api_fn *api_of_usr(tc_eng *e, tc_sym usr); /* the API function a designator names */
int api_usr_is_api(tc_eng *e, tc_sym usr);
void call_user(frame *f, astate s, const tc_insn *in, fninfo *callee, state_list *out);
void call_unknown(frame *f, astate *s, const tc_insn *in);
void call_dispatch(frame *f, astate s, const tc_insn *in, state_list *out);
void frame_clear(tc_eng *e, astate *s, fninfo *fi, uint32_t inst);
/* Drops every function's key hint (what their entry states kept alive goes): between
   analyses, where the next one may as well walk its keys again. */
void call_hints_release(tc_eng *e);
/* Marks the functions whose address is taken and, with_names, computes every function's
   `named` globals (after scan_program). */
int call_scope_prepare(tc_eng *e, int with_names);

/* ---- the program's index (engine.c), shared by the analysis and its fingerprint ---- */
/* An engine holding prog's functions indexed and scanned (who is called, relevant, allocates,
   whose address is taken; the globals changed after their initializers into mutable_globals),
   ready to analyze (with_names: also what each function and its callees name, which only the
   analysis needs); NULL when out of memory. engine_free releases it. */
tc_eng *engine_index(const tc_program *prog, const tc_rules *rules, const tc_engine_opts *opts,
                     tc_map *mutable_globals, int with_names);
void engine_free(tc_eng *e);
/* The roots analyzed first (every main, then every function nobody calls that reaches an API
   call, lambdas aside), in order, into roots (room for e->n_fns); returns their number. */
size_t engine_entry_roots(const tc_eng *e, uint32_t *roots);
/* The number of root groups a program of insns instructions and n_roots first roots is
   analyzed in. */
size_t engine_group_count(unsigned long long insns, const tc_engine_opts *opts, size_t n_roots);
/* Instructions of every function of every unit (the groups' measure); of one function (the
   budgets' measure, which counts each function once); the whole-program work budget of a
   program of insns instructions (each group's). */
unsigned long long engine_program_insns(const tc_program *prog);
unsigned long long engine_fn_insns(const tc_function *fn);
unsigned long long engine_work_limit(unsigned long long insns);

/* api.c, api_operands.c */
void api_prepare(tc_eng *e); /* resolves the field ids above (api_operands.c) */
void api_call(frame *f, astate *s, const tc_insn *in, const tc_api_fn *fn);
/* A call of a function of a rules family (docs/rules.md "Function families"): applied, 1;
   not one, 0. */
int api_family_call(frame *f, astate *s, const tc_insn *in);
/* The host reads or writes through ptr (an AV_DATAPTR) at f->in: checked like an API call
   (docs/rules.md "Buffers and host memory"). spelling names the access, 0 if none. */
void api_host_access(frame *f, astate *s, const aval *ptr, tc_sym spelling);
/* What the fields of the tensor struct a handle points to hold, for a read through it
   (t->data, t->buffer): written into the object standing for it, returned. 0 when the rules
   describe no tensor fields or the handle is not a tensor. */
uint32_t api_tensor_object(frame *f, astate *s, uint32_t holder, const aval *handle);

/* observe.c: the positions a caller asked about, matched as instructions are applied */
tc_observe *observe_questions_of(const tc_observe *o); /* the same questions, no answers */
/* Before in is applied to s: the call arguments at a position asked about. */
void observe_before(frame *f, const astate *s, const tc_insn *in);
/* At a function's entry (state entry): its parameters, by their names in the signature. */
void observe_entry(frame *f, const astate *entry);
/* After: in's result, in the states out->items[first..] it produced. */
void observe_after(frame *f, const state_list *out, size_t first, const tc_insn *in);
/* Folds what e observed into the caller's questions (and describes their answers). */
void observe_merge(const tc_eng *e, tc_observe *into);

/* findings.c */
/* The context `parent` extended by one call (keeping the last CHAIN_K calls). */
uint32_t chain_intern(tc_eng *e, uint32_t parent, const tc_insn *call, uint32_t callee);
void outcome_record(tc_eng *e, uint32_t fn, const tc_insn *in, int rule, uint32_t detail);
/* outcome_record of a failing state whose fix plan hashes to fix_key (0: it has none). */
void outcome_record_fix(tc_eng *e, uint32_t fn, const tc_insn *in, int rule, uint32_t detail,
                        uint32_t fix_key);
/* The fix plan for a failed check of kind `check` at call `in` of function fn_name (fixes.c):
   every candidate must get an edit, or the plan is empty. Returns the plan's key (0: no fix). */
uint32_t fix_plan(const tc_eng *e, const tc_insn *in, const char *fn_name, int check,
                  const fix_candidate *cands, int n, fix_step *steps, uint8_t *n_steps);
/* Step st's template with its placeholders resolved: `{K}` in with for the source range
   sources[K] (at most TC_FIX_MAX_SOURCES, pointing into in). 0, or -1 (out of memory). */
int fix_template(const tc_eng *e, const tc_insn *in, const fix_step *st, tc_strbuf *with,
                 const tc_srcloc **sources, size_t *n_sources);
/* Folds one state's fix key into a rule's (findings.c, when outcomes merge). */
void fix_key_merge(uint32_t *key, uint16_t *mixed, int rule, int had_fails, uint32_t add,
                   int add_mixed);
uint32_t detail_new(tc_eng *e, const detail *d); /* copies d; returns index + 1 */
/* Records again, under context to_chain, what an analysis of depth `depth` recorded. */
/* certain: the new caller reaches the call on a certain path (no undecided branch). */
void outcomes_replay(tc_eng *e, size_t begin, size_t end, uint32_t depth, uint32_t to_chain,
                     int certain);
int findings_emit(tc_eng *e, tc_report *out);
int outcomes_import(tc_eng *dst, const tc_eng *src, const outcome *outs, size_t begin,
                    size_t end, uint32_t *detail_map);
const char *srcloc_file(const tc_eng *e, const tc_srcloc *l);

#endif /* TC_ENG_H */
