/* analyzer/src/engine/api_names.c — tensors' names: a "name" effect (ggml_set_name,
 * ggml_format_name) keeps the tensor in its context under the name's text, and a lookup by a
 * known name (named_member_of_arg: ggml_get_tensor, ggml_graph_get_tensor; a graph's lookup
 * reads its own context's names first, then every context's) gives the tensors that may carry
 * it instead of any tensor of the context, so one named input keeps its own placement. Names
 * are kept in two pseudo-fields of the context object: $names, element k the tensor named by
 * the text of symbol k, and $name_patterns, element k the tensor named by printf format k
 * (element 0: a tensor whose name is not known). */
#include <string.h>

#include "engine/api_call.h"

/* The end of the printf conversion that starts at p (a '%'). */
static const char *conversion_end(const char *p) {
  p++;
  while (*p && strchr("-+ #0123456789.*hlLqjzt", *p)) p++;
  return *p ? p + 1 : p;
}

/* Whether some arguments could make format f print s: every conversion may print any text
   (none included), "%%" prints '%', the rest prints itself. depth bounds the search. */
static int format_may_print(const char *f, const char *s, int depth) {
  if (depth > 16) return 1; /* too many conversions to follow: it may */
  while (*f) {
    if (f[0] == '%' && f[1] == '%') {
      if (*s != '%') return 0;
      f += 2;
      s++;
      continue;
    }
    if (*f == '%') {
      const char *rest = conversion_end(f);
      for (const char *t = s;; t++) {
        if (format_may_print(rest, t, depth + 1)) return 1;
        if (!*t) return 0;
      }
    }
    if (*f != *s) return 0;
    f++;
    s++;
  }
  return !*s;
}

/* Whether loc is an element of a context's $names or $name_patterns; *patterns says which. */
static int name_record(const tc_eng *e, uint32_t loc, int *patterns) {
  const eloc *l = &e->locs[loc];
  if (l->kind != LK_INDEX || !l->parent) return 0;
  const eloc *p = &e->locs[l->parent];
  if (p->kind != LK_FIELD || (p->a != e->f_names && p->a != e->f_name_patterns)) return 0;
  *patterns = p->a == e->f_name_patterns;
  return 1;
}

/* The records of context ctx that hold the tensor of origin `origin` alone forget it (it is
   renamed): they hold no tensor any more. */
static void forget_names_of(call_ctx *c, uint32_t ctx, const prov *origin) {
  tc_eng *e = c->f->e;
  uint32_t lists[2] = {loc_find_child(e, ctx, LK_FIELD, e->f_names, 0),
                       loc_find_child(e, ctx, LK_FIELD, e->f_name_patterns, 0)};
  aval none = av_make(AV_INT, 0);
  for (int i = 0; i < 2; i++)
    for (uint32_t k = lists[i] ? e->locs[lists[i]].first_child : 0; k; k = e->locs[k].next_sibling) {
      aval v = mem_eff(e, c->s, k);
      if (v.k == AV_TENSOR && !tagset_get(e, (uint32_t)v.i) && api_handle_origin(v.prov) == origin)
        mem_write(e, c->s, k, &none, 0);
    }
}

void api_name_tensor(call_ctx *c, int tensor_arg, int name_arg) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, tensor_arg);
  aval t = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  if (t.k != AV_TENSOR || !t.loc) return;
  const prov *origin = api_handle_origin(t.prov);
  if (!origin || origin->lookup) return; /* which tensor a lookup found is not known */
  tc_sym sym = api_string_arg(c, name_arg);
  const char *text = sym ? tc_str(e->prog, sym) : NULL;
  int exact = text && !strchr(text, '%');
  /* a tensor of one of several contexts (TLOC_SET) is named in each of them, weakly: the
     others may not hold it */
  ptset ctxs;
  tloc_members(e, t.loc, &ctxs);
  int several = ctxs.n > 1;
  t.drel = DR_NONE;
  for (uint32_t i = 0; i < ctxs.n; i++) {
    uint32_t ctx = ctxs.loc[i];
    if (!several) forget_names_of(c, ctx, origin);
    uint32_t list = api_pseudo_field(e, ctx, exact ? e->f_names : e->f_name_patterns);
    uint32_t at = list ? loc_child(e, list, LK_INDEX, 0, (int64_t)sym) : 0;
    if (!at) continue;
    aval cur = mem_eff(e, c->s, at);
    /* two tensors of one name: a lookup may find either */
    int another = several || (cur.k == AV_TENSOR && api_handle_origin(cur.prov) != origin);
    mem_write(e, c->s, at, &t, another);
  }
}

/* Whether the tensor named by record loc may carry `name`: 2 known to (its name, a format
   that may print it), 1 maybe (a name not known), 0 not. */
static int record_matches(const tc_eng *e, uint32_t loc, int patterns, tc_sym sym,
                          const char *name) {
  int64_t key = e->locs[loc].b;
  if (!patterns) return key == (int64_t)sym ? 2 : 0;
  if (!key) return 1;
  return format_may_print(tc_str(e->prog, (tc_sym)key), name, 0) ? 2 : 0;
}

static int among_contexts(const ptset *s, uint32_t loc) {
  for (uint32_t i = 0; i < s->n; i++)
    if (s->loc[i] == loc) return 1;
  return 0;
}

/* What a lookup by name found so far among the records it read. */
typedef struct {
  aval r;
  int have, known, one_origin, maybe_null;
  const prov *origin;
} name_hits;

/* Reads the records of the contexts in ctxs (every context's when ctxs is NULL, for a graph)
   that may carry `name` into h; a graph's (nodes) only those it may hold. 0 when a matching
   record holds a tensor not known (any tensor may be it). */
static int read_records(call_ctx *c, const ptset *ctxs, uint32_t nodes, tc_sym sym,
                        const char *name, name_hits *h) {
  tc_eng *e = c->f->e;
  for (uint32_t id = 1; id < e->n_locs; id++) {
    int patterns;
    if (!name_record(e, id, &patterns)) continue;
    const aval *v = st_get(&c->s->mem, id);
    if (!v) continue;
    uint32_t ctx = e->locs[e->locs[id].parent].parent;
    if (ctxs && !among_contexts(ctxs, ctx)) continue;
    int m = record_matches(e, id, patterns, sym, name);
    if (!m) continue;
    if (v->k == AV_INT && v->i == 0) continue; /* renamed since */
    if (v->k != AV_TENSOR) return 0; /* a named tensor not known: any may be it */
    int held = nodes ? api_graph_holds(c, nodes, v) : 1;
    if (held == 0) continue;
    if (held < 0 || v->neg) h->maybe_null = 1;
    if (m == 2) h->known = 1;
    const prov *o = api_handle_origin(v->prov);
    if (!h->have) {
      h->r = *v;
      h->origin = o;
      h->have = 1;
      continue;
    }
    if (o != h->origin || v->loc != h->r.loc) h->one_origin = 0;
    if (!tensor_join_tags(e, &h->r, v, &h->r)) {
      h->r.tag = tc_tag_join(h->r.tag, v->tag);
      h->r.i = 0;
    }
  }
  return 1;
}

int api_named_member(call_ctx *c, int arg, int name_arg, aval *out) {
  tc_eng *e = c->f->e;
  tc_sym sym = api_string_arg(c, name_arg);
  if (!sym) return 0;
  const char *name = tc_str(e->prog, sym);
  uint32_t obj = api_pointee_of(c, arg);
  if (!obj) return 0;
  /* a graph (an object that remembers its context) holds tensors of any context: a name given
     in the graph's own context (this build's input) comes first; only when none of its
     tensors has the name are the other contexts' read (a weight is a graph's leaf). A graph
     rebuilt in a new context each step so never finds an earlier build's tensor of one name,
     which the same instruction made and so has the same node slot. */
  int graph = loc_find_child(e, obj, LK_FIELD, e->f_context, 0) != 0;
  uint32_t nodes = graph ? loc_find_child(e, obj, LK_FIELD, e->f_nodes, 0) : 0;
  ptset ctxs;
  int have_ctxs = api_contexts_of_arg(c, arg, &ctxs) != 0;
  if (graph ? !nodes : !have_ctxs) return 0;
  name_hits h = {av_top(), 0, 0, 1, 0, NULL};
  if (have_ctxs && !read_records(c, &ctxs, nodes, sym, name, &h)) return 0;
  if (graph && !h.known) {
    h = (name_hits){av_top(), 0, 0, 1, 0, NULL};
    if (!read_records(c, NULL, nodes, sym, name, &h)) return 0;
  }
  if (!h.known) return 0;
  aval r = h.r;
  r.drel = DR_NONE;
  r.neg = (uint8_t)h.maybe_null;
  if (!h.one_origin) { /* one of several tensors: a lookup's handle */
    prov *pv = (prov *)prov_new(e, PV_TENSOR, NULL, &c->in->loc, c->in->callee.name, 0, r.tag);
    if (pv) {
      pv->lookup = 1;
      if (!c->in->callee.name) pv->text = c->fn->name;
    }
    r.prov = pv;
  }
  *out = r;
  return 1;
}
