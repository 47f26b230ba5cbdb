/* analyzer/src/ir/serialize.c — the binary form of a program, for the analysis cache. One set
 * of field walkers serves both directions (a `ser` either writes each field or reads it back),
 * so the format cannot drift between writer and reader. Integers are LEB128 varints (signed
 * ones zigzagged); strings come first as a table; reading checks every count, sym and enum
 * against the data, so a damaged file is rejected, never trusted. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "ir/ir.h"
#include "ir/ir_walk.h"

#define TC_IR_MAGIC "TCIR"
/* 3: the lowering keeps float reads through pointers and global index variables (cached IR of
   format 2 lacks them) */
/* 5: calls keep each argument's source range (fix-its) */
/* 7: an unknown operand made from a plain string literal keeps its text in sym (device names:
   rules' device_by_name results); cached IR of format 6 would keep every name unknown */
/* 8: a plain string literal assigned or stored is an assignment of it (its text flows through
   variables, parameters and fields), not a havoc */
/* 9: a range-for over a standard-library container asks its empty() before the first
   iteration (cached IR of format 8 takes such loops zero times) */
/* 10: a range-for over a container of pointers marks its loop variable per_object (one state
   per object its element may point to) */
/* 11: a branch may be only_when_known (a range-for's empty() test) */
/* 12: a range-for's per_object element names the loop's hidden visit count and bound */
#define TC_IR_FORMAT 12u

typedef struct ser {
  int reading;
  int bad;
  /* writing */
  unsigned char *buf;
  size_t len, cap;
  /* reading */
  const unsigned char *in;
  size_t in_len, pos;
  tc_sym *syms; /* file sym index → sym in p */
  uint32_t n_syms;
  tc_program *p;
  /* hashing one function or a unit's frame alone (tc_ir_hasher): each symbol written as a
     hash of its text (memoized per symbol), not its number, so that the bytes do not depend
     on the rest of the program */
  const tc_program *by_text;
  uint64_t *text_hash; /* per symbol, 0: not computed yet */
} ser;

/* Room for n more bytes; 0, or -1 (s->bad) when out of memory. */
static int reserve(ser *s, size_t n) {
  if (s->bad) return -1;
  if (s->cap - s->len >= n) return 0;
  size_t cap = s->cap ? s->cap * 2 : 4096;
  while (cap - s->len < n) cap *= 2;
  unsigned char *nb = realloc(s->buf, cap);
  if (!nb) {
    s->bad = 1;
    return -1;
  }
  s->buf = nb;
  s->cap = cap;
  return 0;
}

static void put_byte(ser *s, unsigned char b) {
  if (reserve(s, 1) == 0) s->buf[s->len++] = b;
}

static uint64_t get_varint(ser *s) {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (s->pos >= s->in_len) {
      s->bad = 1;
      return 0;
    }
    unsigned char b = s->in[s->pos++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  s->bad = 1;
  return 0;
}

static void put_varint(ser *s, uint64_t v) {
  if (reserve(s, 10) != 0) return; /* a varint of 64 bits takes at most 10 bytes */
  while (v >= 0x80) {
    s->buf[s->len++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  s->buf[s->len++] = (unsigned char)v;
}

static void io_u64(ser *s, uint64_t *v) {
  if (s->reading) *v = s->bad ? 0 : get_varint(s);
  else put_varint(s, *v);
}

static void io_u32(ser *s, uint32_t *v) {
  uint64_t x = *v;
  io_u64(s, &x);
  if (s->reading) {
    if (x > UINT32_MAX) s->bad = 1;
    *v = (uint32_t)x;
  }
}

static void io_i64(ser *s, int64_t *v) {
  uint64_t z = ((uint64_t)*v << 1) ^ (uint64_t)(*v >> 63);
  io_u64(s, &z);
  if (s->reading) *v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static void io_int(ser *s, int *v) {
  uint32_t x = *v ? 1u : 0u;
  io_u32(s, &x);
  if (s->reading) *v = x != 0;
}

/* An enum stored as a number in [lo, hi]. */
static void io_enum(ser *s, int *v, int lo, int hi) {
  uint32_t x = (uint32_t)*v;
  io_u32(s, &x);
  if (s->reading) {
    if ((int64_t)x < lo || (int64_t)x > hi) s->bad = 1;
    *v = (int)x;
  }
}

#define IO_ENUM(s, field, lo, hi)                                                                \
  do {                                                                                           \
    int e_ = (int)(field);                                                                       \
    io_enum((s), &e_, (lo), (hi));                                                               \
    (field) = e_;                                                                                \
  } while (0)

static void io_sym(ser *s, tc_sym *v) {
  if (s->by_text) {
    uint64_t h = 0; /* no symbol */
    if (*v) {
      if (!s->text_hash[*v]) {
        const char *str = tc_str(s->by_text, *v);
        s->text_hash[*v] = tc_fnv64(TC_FNV_INIT, str, strlen(str)) | 1;
      }
      h = s->text_hash[*v];
    }
    if (reserve(s, sizeof h) == 0) { /* as it is: a varint of a hash is 10 bytes */
      memcpy(s->buf + s->len, &h, sizeof h);
      s->len += sizeof h;
    }
    return;
  }
  io_u32(s, v);
  if (s->reading) {
    if (*v >= s->n_syms) {
      s->bad = 1;
      *v = 0;
    } else {
      *v = s->syms[*v];
    }
  }
}

/* A count of items of at least min_bytes each on the wire; reading checks it fits. */
static void io_count(ser *s, uint32_t *n, size_t min_bytes) {
  io_u32(s, n);
  if (s->reading && !s->bad && (uint64_t)*n * min_bytes > s->in_len - s->pos) s->bad = 1;
}

static void *io_array(ser *s, void *arr, uint32_t n, size_t elem) {
  if (!s->reading || s->bad) return arr;
  if (n == 0) return NULL;
  void *a = tc_arena_alloc(s->p, (size_t)n * elem);
  if (!a) s->bad = 1;
  return a;
}

static void io_loc(ser *s, tc_srcloc *l) {
  io_sym(s, &l->file);
  io_u32(s, &l->line);
  io_u32(s, &l->col);
  io_u32(s, &l->end_line);
  io_u32(s, &l->end_col);
}

static void io_type(ser *s, tc_type *t) {
  IO_ENUM(s, t->cls, TC_TY_OTHER, TC_TY_FUNCTION_POINTER);
  io_sym(s, &t->name);
  io_sym(s, &t->pointee_name);
  io_sym(s, &t->record_name);
  io_u32(s, &t->ptr_depth);
  io_sym(s, &t->base_record);
}

static void io_path(ser *s, tc_path *p) {
  IO_ENUM(s, p->root, TC_ROOT_LOCAL, TC_ROOT_GLOBAL);
  if (p->root == TC_ROOT_GLOBAL) io_sym(s, &p->id);
  else io_u32(s, &p->id);
  io_count(s, &p->n_elems, 1);
  p->elems = io_array(s, p->elems, p->n_elems, sizeof *p->elems);
  for (uint32_t i = 0; i < p->n_elems && !s->bad; i++) {
    tc_elem *e = &p->elems[i];
    IO_ENUM(s, e->kind, TC_ELEM_FIELD, TC_ELEM_DEREF);
    if (e->kind == TC_ELEM_FIELD) io_sym(s, &e->field);
    if (e->kind == TC_ELEM_INDEX) io_i64(s, &e->index);
    if (e->kind == TC_ELEM_INDEX_ANY) {
      uint32_t r = (uint32_t)e->index_root;
      io_u32(s, &r);
      if (r > TC_ROOT_GLOBAL) s->bad = 1;
      e->index_root = (tc_root_kind)r;
      if (r == TC_ROOT_GLOBAL) io_sym(s, &e->index_id); /* an index kept in a global */
      else io_u32(s, &e->index_id);
    }
  }
  io_sym(s, &p->spelling);
}

static void io_opnd(ser *s, tc_opnd *o) {
  IO_ENUM(s, o->kind, TC_OPND_NONE, TC_OPND_UNKNOWN);
  if (o->kind == TC_OPND_NONE) return;
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) io_path(s, &o->path);
  if (o->kind == TC_OPND_INT) io_i64(s, &o->ival);
  io_sym(s, &o->sym);
  io_type(s, &o->type);
}

static void io_insn(ser *s, tc_insn *in) {
  IO_ENUM(s, in->kind, TC_I_ASSIGN, TC_I_HAVOC);
  io_loc(s, &in->loc);
  io_int(s, &in->has_dst);
  if (in->has_dst) io_path(s, &in->dst);
  io_type(s, &in->dst_type);
  IO_ENUM(s, in->opc, TC_OPC_NONE, TC_OPC_SHR);
  io_opnd(s, &in->a);
  io_opnd(s, &in->b);
  io_sym(s, &in->callee.name);
  io_sym(s, &in->callee.usr);
  io_int(s, &in->callee.indirect);
  io_opnd(s, &in->callee.target);
  io_count(s, &in->n_args, 1);
  in->args = io_array(s, in->args, in->n_args, sizeof *in->args);
  for (uint32_t i = 0; i < in->n_args && !s->bad; i++) io_opnd(s, &in->args[i]);
  int has_arg_locs = in->arg_locs != NULL;
  io_int(s, &has_arg_locs);
  if (has_arg_locs) {
    in->arg_locs = io_array(s, in->arg_locs, in->n_args, sizeof *in->arg_locs);
    for (uint32_t i = 0; i < in->n_args && !s->bad; i++) io_loc(s, &in->arg_locs[i]);
  } else if (s->reading) {
    in->arg_locs = NULL;
  }
  int has_base_locs = in->arg_base_locs != NULL;
  io_int(s, &has_base_locs);
  if (has_base_locs) {
    in->arg_base_locs = io_array(s, in->arg_base_locs, in->n_args, sizeof *in->arg_base_locs);
    for (uint32_t i = 0; i < in->n_args && !s->bad; i++) io_loc(s, &in->arg_base_locs[i]);
  } else if (s->reading) {
    in->arg_base_locs = NULL;
  }
  io_int(s, &in->in_macro);
  io_int(s, &in->per_object);
  io_u32(s, &in->visit_index);
  io_u32(s, &in->visit_count);
}

static void io_term(ser *s, tc_term *t, uint32_t n_blocks) {
  IO_ENUM(s, t->kind, TC_T_GOTO, TC_T_UNREACHABLE);
  io_loc(s, &t->loc);
  io_opnd(s, &t->cond);
  io_count(s, &t->n_succ, 1);
  t->succ = io_array(s, t->succ, t->n_succ, sizeof *t->succ);
  for (uint32_t i = 0; i < t->n_succ && !s->bad; i++) {
    io_u32(s, &t->succ[i]);
    if (s->reading && t->succ[i] >= n_blocks) s->bad = 1;
  }
  io_count(s, &t->n_cases, 1);
  if (s->reading && t->kind == TC_T_SWITCH && t->n_succ != t->n_cases + 1) s->bad = 1;
  t->case_values = io_array(s, t->case_values, t->n_cases, sizeof *t->case_values);
  for (uint32_t i = 0; i < t->n_cases && !s->bad; i++) io_i64(s, &t->case_values[i]);
  io_int(s, &t->only_when_known);
}

static void io_var(ser *s, tc_var *v) {
  io_sym(s, &v->name);
  io_type(s, &v->type);
  io_loc(s, &v->loc);
  io_int(s, &v->is_static);
  io_sym(s, &v->usr);
}

static void io_function(ser *s, tc_function *f) {
  io_sym(s, &f->name);
  io_sym(s, &f->usr);
  io_loc(s, &f->loc);
  io_int(s, &f->is_static);
  io_int(s, &f->is_inline);
  io_int(s, &f->in_header);
  io_int(s, &f->is_variadic);
  io_int(s, &f->is_lambda);
  io_type(s, &f->ret_type);
  io_count(s, &f->n_params, 1);
  f->params = io_array(s, f->params, f->n_params, sizeof *f->params);
  for (uint32_t i = 0; i < f->n_params && !s->bad; i++) io_var(s, &f->params[i]);
  io_count(s, &f->n_locals, 1);
  f->locals = io_array(s, f->locals, f->n_locals, sizeof *f->locals);
  for (uint32_t i = 0; i < f->n_locals && !s->bad; i++) io_var(s, &f->locals[i]);
  io_u32(s, &f->n_temps);
  io_count(s, &f->n_blocks, 1);
  if (s->reading && f->n_blocks == 0) s->bad = 1;
  f->blocks = io_array(s, f->blocks, f->n_blocks, sizeof *f->blocks);
  for (uint32_t b = 0; b < f->n_blocks && !s->bad; b++) {
    tc_block *bl = &f->blocks[b];
    io_count(s, &bl->n_insns, 1);
    bl->insns = io_array(s, bl->insns, bl->n_insns, sizeof *bl->insns);
    for (uint32_t i = 0; i < bl->n_insns && !s->bad; i++) io_insn(s, &bl->insns[i]);
    io_term(s, &bl->term, f->n_blocks);
  }
}

static void io_globals(ser *s, tc_unit *u) {
  io_count(s, &u->n_globals, 1);
  u->globals = io_array(s, u->globals, u->n_globals, sizeof *u->globals);
  for (uint32_t i = 0; i < u->n_globals && !s->bad; i++) {
    tc_global *g = &u->globals[i];
    io_sym(s, &g->name);
    io_sym(s, &g->usr);
    io_type(s, &g->type);
    io_loc(s, &g->loc);
    io_int(s, &g->has_init);
  }
}

static void io_unit(ser *s, tc_unit *u) {
  io_sym(s, &u->file);
  io_int(s, &u->parse_failed);
  io_count(s, &u->n_functions, 1);
  u->functions = io_array(s, u->functions, u->n_functions, sizeof *u->functions);
  for (uint32_t i = 0; i < u->n_functions && !s->bad; i++) io_function(s, &u->functions[i]);
  io_globals(s, u);
  int has_init = u->global_init != NULL;
  io_int(s, &has_init);
  if (has_init && s->reading && !s->bad) {
    u->global_init = tc_arena_alloc(s->p, sizeof *u->global_init);
    if (!u->global_init) s->bad = 1;
  }
  if (has_init && !s->bad) io_function(s, u->global_init);
  uint32_t *counts[] = {&u->stats.functions, &u->stats.methods, &u->stats.constructors,
                        &u->stats.lambdas, &u->stats.generic_lambdas, &u->stats.instantiations, &u->stats.patterns,
                        &u->stats.skipped_instantiated, &u->stats.skipped_system,
                        &u->stats.unknown_stmts, &u->stats.unknown_exprs, &u->stats.virtual_calls,
                        &u->stats.truncated};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0] && !s->bad; i++) io_u32(s, counts[i]);
}

unsigned char *tc_ir_serialize(const tc_program *p, size_t *len) {
  ser s;
  memset(&s, 0, sizeof s);
  for (const char *m = TC_IR_MAGIC; *m; m++) put_byte(&s, (unsigned char)*m);
  put_varint(&s, TC_IR_FORMAT);
  uint32_t n = tc_ir_sym_count(p);
  put_varint(&s, n);
  for (uint32_t i = 1; i < n; i++) {
    const char *str = tc_str(p, i);
    size_t l = strlen(str);
    put_varint(&s, l);
    for (size_t k = 0; k < l; k++) put_byte(&s, (unsigned char)str[k]);
  }
  put_varint(&s, p->n_units);
  for (uint32_t i = 0; i < p->n_units; i++) io_unit(&s, &p->units[i]);
  if (s.bad) {
    free(s.buf);
    return NULL;
  }
  *len = s.len;
  return s.buf;
}

struct tc_ir_hasher {
  ser s;
};

tc_ir_hasher *tc_ir_hasher_new(const tc_program *p) {
  tc_ir_hasher *h = calloc(1, sizeof *h);
  uint32_t n = tc_ir_sym_count(p);
  if (h) h->s.text_hash = calloc(n ? n : 1, sizeof *h->s.text_hash);
  if (!h || !h->s.text_hash) {
    tc_ir_hasher_free(h);
    return NULL;
  }
  h->s.by_text = p;
  return h;
}

void tc_ir_hasher_free(tc_ir_hasher *h) {
  if (!h) return;
  free(h->s.buf);
  free(h->s.text_hash);
  free(h);
}

/* splitmix64's finalizer: every bit of x reaches every bit of the result. */
static uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* seed folded with n bytes at p, eight at a time (byte-wise FNV was most of the fingerprint's
   time). */
static uint64_t fold_bytes(uint64_t h, const unsigned char *p, size_t n) {
  h = mix64(h ^ n);
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = mix64(h ^ w) + 0x9e3779b97f4a7c15ull;
  }
  uint64_t w = 0;
  for (size_t i = 0; i < n; i++) w |= (uint64_t)p[i] << (8 * i);
  return mix64(h ^ w);
}

/* Hashes what the writer put since the last call into seed. */
static int hasher_fold(tc_ir_hasher *h, uint64_t *seed) {
  int ok = !h->s.bad;
  if (ok) *seed = fold_bytes(*seed, h->s.buf, h->s.len);
  h->s.len = 0;
  return ok ? 0 : -1;
}

int tc_ir_hash_function(tc_ir_hasher *h, const tc_function *f, uint64_t *seed) {
  tc_function copy = *f; /* the writer stores back the pointers it read: f stays untouched */
  io_function(&h->s, &copy);
  return hasher_fold(h, seed);
}

int tc_ir_hash_unit_frame(tc_ir_hasher *h, const tc_unit *u, uint64_t *seed) {
  tc_unit copy = *u;
  io_sym(&h->s, &copy.file);
  io_int(&h->s, &copy.parse_failed);
  io_globals(&h->s, &copy);
  return hasher_fold(h, seed);
}

tc_program *tc_ir_deserialize(const unsigned char *buf, size_t len) {
  ser s;
  memset(&s, 0, sizeof s);
  s.reading = 1;
  s.in = buf;
  s.in_len = len;
  size_t ml = strlen(TC_IR_MAGIC);
  if (len < ml || memcmp(buf, TC_IR_MAGIC, ml) != 0) return NULL;
  s.pos = ml;
  if (get_varint(&s) != TC_IR_FORMAT || s.bad) return NULL;
  s.p = tc_program_new();
  if (!s.p) return NULL;
  uint64_t n = get_varint(&s);
  if (s.bad || n == 0 || n > len) goto fail;
  s.n_syms = (uint32_t)n;
  s.syms = calloc(n, sizeof *s.syms);
  if (!s.syms) goto fail;
  for (uint32_t i = 1; i < s.n_syms; i++) {
    uint64_t l = get_varint(&s);
    if (s.bad || l > s.in_len - s.pos || l == 0) goto fail;
    s.syms[i] = tc_intern_n(s.p, (const char *)s.in + s.pos, (size_t)l);
    if (!s.syms[i]) goto fail;
    s.pos += (size_t)l;
  }
  uint64_t n_units = get_varint(&s);
  if (s.bad || n_units > s.in_len - s.pos) goto fail;
  for (uint64_t i = 0; i < n_units; i++) {
    tc_unit *u = tc_program_add_unit(s.p, 0);
    if (!u) goto fail;
    io_unit(&s, u);
    if (s.bad) goto fail;
  }
  if (s.pos != s.in_len) goto fail;
  free(s.syms);
  return s.p;
fail:
  free(s.syms);
  tc_program_free(s.p);
  return NULL;
}
