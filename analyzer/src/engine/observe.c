/* analyzer/src/engine/observe.c — the tags the analysis saw at the positions a caller asked
 * about (engine/observe.h): matched against each instruction as the transfer function applies
 * it (flow.c), read from a copy of the state (observing changes nothing the analysis does),
 * accumulated per engine and merged into the caller's questions at the end (engine.c), then
 * described in the rules' words. */
#include "engine/observe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

#define CHAINS_KEPT 64

typedef struct question {
  char *file, *real; /* real: realpath(file), NULL when it has none or is the same */
  unsigned line, col;
  /* the best match so far: the expression with the smallest score (range) */
  int found;
  uint64_t score;
  char spelling[128];
  tc_srcloc range;
  unsigned n_paths, n_unknown, n_contexts;
  uint32_t chains[CHAINS_KEPT]; /* the contexts seen, to count them (per engine) */
  size_t n_chains;
  unsigned n_folded; /* values folded into joined */
  tc_tag joined;     /* over every path, unknown ones included */
  tc_tag tags[TC_OBSERVE_TAGS_MAX];
  size_t n_tags;
  int more_tags;
  tc_observed answer; /* described when merged */
} question;

struct tc_observe {
  question *q;
  size_t n, cap;
};

tc_observe *tc_observe_new(void) { return calloc(1, sizeof(tc_observe)); }

void tc_observe_free(tc_observe *o) {
  if (!o) return;
  for (size_t i = 0; i < o->n; i++) {
    free(o->q[i].file);
    free(o->q[i].real);
  }
  free(o->q);
  free(o);
}

int tc_observe_add(tc_observe *o, const char *file, unsigned line, unsigned col) {
  question *q = VEC_PUSH(o->q, o->n, o->cap);
  if (!q) return -1;
  memset(q, 0, sizeof *q);
  q->file = strdup(file);
  q->real = realpath(file, NULL);
  if (q->real && strcmp(q->real, file) == 0) {
    free(q->real);
    q->real = NULL;
  }
  q->line = line;
  q->col = col;
  if (!q->file) {
    o->n--;
    return -1;
  }
  return (int)(o->n - 1);
}

size_t tc_observe_count(const tc_observe *o) { return o ? o->n : 0; }

int tc_observe_get(const tc_observe *o, size_t i, tc_observed *out) {
  if (!o || i >= o->n) return -1;
  *out = o->q[i].answer;
  return 0;
}

tc_observe *observe_questions_of(const tc_observe *o) {
  tc_observe *c = tc_observe_new();
  for (size_t i = 0; c && i < o->n; i++)
    if (tc_observe_add(c, o->q[i].file, o->q[i].line, o->q[i].col) < 0) {
      tc_observe_free(c);
      return NULL;
    }
  return c;
}

/* ---- matching ---- */

static int same_file(const tc_eng *e, const tc_srcloc *l, const question *q) {
  const char *f = srcloc_file(e, l);
  return f && (strcmp(f, q->file) == 0 || (q->real && strcmp(f, q->real) == 0));
}

/* The position is inside l (end exclusive), in q's file. */
static int holds(const tc_eng *e, const tc_srcloc *l, const question *q) {
  if (!l->line || !l->end_line) return 0;
  if (q->line < l->line || (q->line == l->line && q->col < l->col)) return 0;
  if (q->line > l->end_line || (q->line == l->end_line && q->col >= l->end_col)) return 0;
  return same_file(e, l, q);
}

static uint64_t range_size(const tc_srcloc *l) {
  uint64_t cols = l->end_line == l->line ? l->end_col - l->col : l->end_col;
  return ((uint64_t)(l->end_line - l->line) << 32) + cols;
}

static int is_tensor_handle(const tc_eng *e, const tc_type *t) {
  return t->cls == TC_TY_POINTER && t->pointee_name &&
         loc_is_tensor_type(e, tc_str(e->prog, t->pointee_name));
}

/* A candidate of score `score` for q: 1 when it is (one of) the best so far, which it becomes
   (what a worse one had is forgotten). */
static int better_or_same(question *q, uint64_t score) {
  if (q->found && score > q->score) return 0;
  if (!q->found || score < q->score) {
    q->found = 1;
    q->score = score;
    q->spelling[0] = '\0';
    q->n_paths = q->n_unknown = 0;
    q->n_chains = 0;
    q->n_contexts = 0;
    q->n_folded = 0;
    q->joined = tc_tag_unknown();
    q->n_tags = 0;
    q->more_tags = 0;
  }
  return 1;
}

static void fold(question *q, const tc_tag *t) {
  q->joined = q->n_folded++ ? tc_tag_join(q->joined, *t) : *t;
}

static void add_tag(question *q, const tc_tag *t) {
  fold(q, t);
  for (size_t i = 0; i < q->n_tags; i++)
    if (tc_tag_same(q->tags[i], *t)) return;
  if (q->n_tags == TC_OBSERVE_TAGS_MAX)
    q->more_tags = 1;
  else
    q->tags[q->n_tags++] = *t;
}

static void note_context(question *q, uint32_t chain) {
  for (size_t i = 0; i < q->n_chains; i++)
    if (q->chains[i] == chain) return;
  if (q->n_chains < CHAINS_KEPT) q->chains[q->n_chains++] = chain;
  q->n_contexts++;
}

/* Records what operand o holds in state s (read from a copy: nothing of the analysis moves). */
static void record(frame *f, const astate *s, const tc_opnd *o, question *q) {
  tc_eng *e = f->e;
  astate c = state_copy(s);
  size_t touched = f->n_touched;
  aval v = mem_eval(f, &c, o, NULL);
  f->n_touched = touched;
  q->n_paths++;
  note_context(q, e->cur_chain);
  const tagset *set = v.k == AV_TENSOR ? tagset_get(e, (uint32_t)v.i) : NULL;
  if (set) {
    for (uint32_t i = 0; i < set->n; i++) add_tag(q, &set->tag[i]);
  } else if (v.k == AV_TENSOR) {
    add_tag(q, &v.tag);
  } else {
    q->n_unknown++;
    tc_tag u = tc_tag_unknown();
    fold(q, &u);
  }
  state_release(e, &c);
}

static void set_spelling(const tc_eng *e, question *q, tc_sym spelling, const tc_insn *call) {
  if (q->spelling[0]) return;
  if (spelling)
    snprintf(q->spelling, sizeof q->spelling, "%s", tc_str(e->prog, spelling));
  else if (call && call->kind == TC_I_CALL && call->callee.name)
    snprintf(q->spelling, sizeof q->spelling, "%s(…)", tc_str(e->prog, call->callee.name));
}

void observe_before(frame *f, const astate *s, const tc_insn *in) {
  tc_eng *e = f->e;
  if (in->kind != TC_I_CALL || !in->arg_locs) return;
  for (size_t k = 0; k < e->observe->n; k++) {
    question *q = &e->observe->q[k];
    if (q->line < in->loc.line || q->line > in->loc.end_line) continue;
    for (uint32_t a = 0; a < in->n_args; a++) {
      const tc_opnd *o = &in->args[a];
      if (!is_tensor_handle(e, &o->type) || !holds(e, &in->arg_locs[a], q)) continue;
      if (!better_or_same(q, range_size(&in->arg_locs[a]))) continue;
      q->range = in->arg_locs[a];
      set_spelling(e, q, o->kind == TC_OPND_PATH ? o->path.spelling : 0, NULL);
      record(f, s, o, q);
    }
  }
}

/* The range of a variable's name (its loc is where the name starts), when q is on it. */
static int on_name(const tc_eng *e, const tc_var *v, const question *q, tc_srcloc *range) {
  size_t len = v->name ? strlen(tc_str(e->prog, v->name)) : 0;
  if (!len || v->loc.line != q->line || q->col < v->loc.col || q->col >= v->loc.col + len ||
      !same_file(e, &v->loc, q))
    return 0;
  *range = v->loc;
  range->end_line = v->loc.line;
  range->end_col = v->loc.col + (uint32_t)len;
  return 1;
}

/* The declared name of the local in->dst is (its whole place), when q is on it and in comes
   after it: the distance from the name to in, else UINT64_MAX. */
static uint64_t declaration_distance(const tc_eng *e, const fninfo *fi, const tc_insn *in,
                                     const question *q, const tc_var **var) {
  if (in->dst.root != TC_ROOT_LOCAL || in->dst.n_elems || in->dst.id >= fi->fn->n_locals)
    return UINT64_MAX;
  const tc_var *v = &fi->fn->locals[in->dst.id];
  tc_srcloc name;
  if (!on_name(e, v, q, &name)) return UINT64_MAX;
  if (in->loc.line < v->loc.line || (in->loc.line == v->loc.line && in->loc.col < v->loc.col))
    return UINT64_MAX;
  *var = v;
  uint64_t cols = in->loc.line == v->loc.line ? in->loc.col - v->loc.col : in->loc.col;
  return ((uint64_t)(in->loc.line - v->loc.line) << 32) + cols;
}

void observe_after(frame *f, const state_list *out, size_t first, const tc_insn *in) {
  tc_eng *e = f->e;
  if (!in->has_dst || !is_tensor_handle(e, &in->dst_type) || first >= out->n) return;
  tc_opnd dst;
  memset(&dst, 0, sizeof dst);
  dst.kind = TC_OPND_PATH;
  dst.path = in->dst;
  dst.type = in->dst_type;
  for (size_t k = 0; k < e->observe->n; k++) {
    question *q = &e->observe->q[k];
    const tc_var *var = NULL;
    uint64_t score = declaration_distance(e, f->fi, in, q, &var);
    tc_srcloc range = in->loc;
    if (var) {
      (void)on_name(e, var, q, &range);
    } else if (holds(e, &in->loc, q)) {
      score = range_size(&in->loc);
    }
    if (score == UINT64_MAX || !better_or_same(q, score)) continue;
    q->range = range;
    set_spelling(e, q, in->dst.root != TC_ROOT_TEMP ? in->dst.spelling : 0, in);
    for (size_t i = first; i < out->n; i++) record(f, &out->items[i], &dst, q);
  }
}

void observe_entry(frame *f, const astate *entry) {
  tc_eng *e = f->e;
  const tc_function *fn = f->fi->fn;
  for (size_t k = 0; k < e->observe->n; k++) {
    question *q = &e->observe->q[k];
    for (uint32_t p = 0; p < fn->n_params; p++) {
      const tc_var *v = &fn->params[p];
      tc_srcloc range;
      if (!is_tensor_handle(e, &v->type) || !on_name(e, v, q, &range) || !better_or_same(q, 0))
        continue;
      tc_opnd o;
      memset(&o, 0, sizeof o);
      o.kind = TC_OPND_PATH;
      o.path.root = TC_ROOT_PARAM;
      o.path.id = p;
      o.path.spelling = v->name;
      o.type = v->type;
      q->range = range;
      set_spelling(e, q, v->name, NULL);
      record(f, entry, &o, q);
    }
  }
}

/* ---- merging and describing ---- */

static void describe(const tc_eng *e, const tc_tag *t, tc_observed_tag *d) {
  memset(d, 0, sizeof *d);
  const tc_tag_names *n = &e->names;
  int known_backend = TC_TAGF_KNOWN(t->backend) && (size_t)t->backend < n->n_backends;
  if (!known_backend) /* "?:0" says less than this */
    snprintf(d->device, sizeof d->device, "unknown");
  else
    tc_tag_format_device(t, n, d->device, sizeof d->device);
  snprintf(d->backend, sizeof d->backend, "%s", known_backend ? n->backends[t->backend] : "unknown");
  if (known_backend && n->single_device && n->single_device[t->backend])
    d->ordinal[0] = '\0';
  else if (TC_TAGF_KNOWN(t->ordinal))
    snprintf(d->ordinal, sizeof d->ordinal, "%d", (int)t->ordinal);
  else
    snprintf(d->ordinal, sizeof d->ordinal, "unknown");
  snprintf(d->autodiff, sizeof d->autodiff, "%s",
           t->autodiff == 1 ? "yes" : t->autodiff == 0 ? "no" : "unknown");
  const char *kind = tc_tag_kind_name(t, n);
  snprintf(d->kind, sizeof d->kind, "%s", kind && strcmp(kind, "?") != 0 ? kind : "unknown");
  if (!e->rules->buffer_field) return; /* the rules do not track where tensors are allocated */
  const tc_backend_def *b = known_backend ? &e->rules->backends[t->backend] : NULL;
  if (!b)
    snprintf(d->placement, sizeof d->placement, "unknown");
  else if (b->no_memory)
    snprintf(d->placement, sizeof d->placement,
             "unallocated: no memory yet (its data pointer is NULL)");
  else if (b->no_buffer)
    snprintf(d->placement, sizeof d->placement,
             "in its context's own memory (host memory, no backend buffer)");
  else
    snprintf(d->placement, sizeof d->placement, "allocated in a %s buffer%s", b->name,
             b->host_memory ? " (host memory)" : "");
}

static void merge_one(question *into, const question *from) {
  if (!from->found || !better_or_same(into, from->score)) return;
  if (!into->spelling[0]) memcpy(into->spelling, from->spelling, sizeof into->spelling);
  into->range = from->range;
  if (from->n_folded)
    into->joined = into->n_folded ? tc_tag_join(into->joined, from->joined) : from->joined;
  into->n_folded += from->n_folded;
  into->n_paths += from->n_paths;
  into->n_unknown += from->n_unknown;
  into->n_contexts += from->n_contexts;
  for (size_t i = 0; i < from->n_tags; i++) {
    size_t k = 0;
    while (k < into->n_tags && !tc_tag_same(into->tags[k], from->tags[i])) k++;
    if (k < into->n_tags) continue;
    if (into->n_tags == TC_OBSERVE_TAGS_MAX)
      into->more_tags = 1;
    else
      into->tags[into->n_tags++] = from->tags[i];
  }
  into->more_tags |= from->more_tags;
}

void observe_merge(const tc_eng *e, tc_observe *into) {
  if (!e->observe) return;
  for (size_t k = 0; k < into->n && k < e->observe->n; k++) {
    question *q = &into->q[k];
    merge_one(q, &e->observe->q[k]);
    tc_observed *a = &q->answer;
    memset(a, 0, sizeof *a);
    if (!q->found) continue;
    a->found = 1;
    memcpy(a->spelling, q->spelling, sizeof a->spelling);
    a->line = q->range.line;
    a->col = q->range.col;
    a->end_line = q->range.end_line;
    a->end_col = q->range.end_col;
    a->n_paths = q->n_paths;
    a->n_unknown = q->n_unknown;
    a->n_contexts = q->n_contexts ? q->n_contexts : 1;
    tc_tag joined = q->n_folded ? q->joined : tc_tag_unknown();
    describe(e, &joined, &a->joined);
    a->n_tags = q->n_tags;
    a->more_tags = q->more_tags;
    for (size_t i = 0; i < q->n_tags; i++) describe(e, &q->tags[i], &a->tags[i]);
  }
}
