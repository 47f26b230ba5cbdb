/* analyzer/src/engine/api_effects.c — what an API call does to memory through its pointer
 * arguments, from its description in the rules (rules.def's TC_EFFECT rows, one
 * effect_<name> each): copies, fills, writes, and the placements of tensors (a context's bound
 * to a buffer, one tensor placed, a graph recording where its nodes live and which tensors it
 * holds, a graph's tensors bound to a buffer). */
#include <string.h>

#include "engine/api_call.h"

#define GRAPH_WALK_MAX 512

static void mark_graph_nodes(call_ctx *c, uint32_t obj, const prov *t);
static void mark_graph_unknown(call_ctx *c, uint32_t obj);

static void havoc_arg(call_ctx *c, int argi) {
  const tc_opnd *o = api_arg_of(c, argi);
  if (!o) return;
  aval v = mem_eval(c->f, c->s, o, NULL);
  ptset pts;
  av_targets(c->f->e, &v, &pts);
  for (uint32_t i = 0; i < pts.n; i++) mem_havoc_reachable(c->f->e, c->s, pts.loc[i]);
}

/* v (a tensor, maybe one of a tag set) with every member that has no memory yet moved to
   device dev (its fields; unknown ones make the placement unknown); members in memory stay. */
static aval place_unallocated(tc_eng *e, const aval *v, const tc_tag *dev) {
  tagset s;
  tagset_of_tensor(e, v, &s);
  aval nv = *v;
  for (uint32_t m = 0; m < s.n; m++) {
    const tc_backend_def *b = api_backend_def(e, s.tag[m].backend);
    if (b && !b->no_memory) continue;
    s.tag[m].backend = dev->backend;
    s.tag[m].ordinal = dev->ordinal;
    s.tag[m].autodiff = dev->autodiff;
  }
  tagset t;
  memset(&t, 0, sizeof t);
  int fits = 1;
  for (uint32_t m = 0; m < s.n && fits; m++) fits = !tagset_add(&t, &s.tag[m]);
  nv.tag = tagset_view(&s);
  nv.i = fits ? tagset_intern(e, &t) : 0;
  return nv;
}

/* How many members of tensor v have no memory yet (of *n). */
static uint32_t unallocated_members(tc_eng *e, const aval *v, uint32_t *n) {
  tagset s;
  tagset_of_tensor(e, v, &s);
  uint32_t k = 0;
  for (uint32_t m = 0; m < s.n; m++) {
    const tc_backend_def *b = api_backend_def(e, s.tag[m].backend);
    k += !b || b->no_memory;
  }
  *n = s.n;
  return k;
}
static int has_unallocated(tc_eng *e, const aval *v) {
  uint32_t n;
  return unallocated_members(e, v, &n) > 0;
}
/* Some members of v have memory, others none (a tensor joined after one of its contexts was
   bound). */
static int partly_allocated(tc_eng *e, const aval *v) {
  uint32_t n, k = unallocated_members(e, v, &n);
  return k > 0 && k < n;
}

/* A tensor made in one of several contexts (v->loc a set holding ctx) when ctx is bound to
   dev: placed there if it is ctx's, where it was otherwise — one of both, and, for the members
   with no memory, in one of the other contexts (ctx leaves its set, so binding the last of
   them places it for certain). A handle on one of several devices: where is not known. */
static aval place_maybe(tc_eng *e, const aval *v, uint32_t ctx, const tc_tag *dev,
                        uint32_t dev_set) {
  tc_tag nowhere = tc_tag_unknown();
  aval placed = place_unallocated(e, v, dev_set ? &nowhere : dev);
  tagset a, b, u;
  tagset_of_tensor(e, v, &a);
  tagset_of_tensor(e, &placed, &b);
  aval nv = *v;
  if (dev_set || tagset_union(&a, &b, &u)) {
    nv = place_unallocated(e, v, &nowhere);
  } else {
    nv.tag = tagset_view(&u);
    nv.i = tagset_intern(e, &u);
  }
  nv.loc = tloc_without(e, v->loc, ctx);
  return nv;
}

/* An allocation whose target is not known: every tensor with no memory yet may be one it
   places, so where each is is no longer known (rather than certainly nowhere). */
static void forget_unallocated(call_ctx *c) {
  tc_eng *e = c->f->e;
  tc_tag nowhere = tc_tag_unknown();
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR) continue;
    const tc_backend_def *b = api_backend_def(e, v->tag.backend);
    if (b && !b->no_memory && !v->i) continue;
    aval nv = place_unallocated(e, v, &nowhere);
    st_set(e, &c->s->mem, id, &nv);
  }
}

/* The tensors of a context that are in no memory yet take the device of ef->arg2's handle
   (unknown without one): ggml_backend_alloc_ctx_tensors. The context is the object
   ef->arg points to, or the context that object remembers (a graph's). Tensors made later
   in the context stay where it places them. */
static void effect_bind_context(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t ctx = api_context_of_arg(c, ef->arg);
  if (!ctx) { /* a context not known: any tensor with no memory yet may be placed now */
    forget_unallocated(c);
    return;
  }
  tc_tag dev = tc_tag_unknown();
  uint32_t dev_set = 0; /* the handle is on one of several devices (ggml_backend_init_best) */
  if (ef->arg2 >= 0) {
    operand op;
    api_read_tensor(c, ef->arg2, &op);
    if (op.v.k == AV_TENSOR) {
      dev = op.tag;
      dev_set = op.ts;
    }
  }
  uint32_t members = loc_find_child(e, ctx, LK_FIELD, e->f_members, 0);
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || (v->loc != ctx && !tloc_has(e, v->loc, ctx))) continue;
    if (id == members || (v->i && !(v->loc & TLOC_SET) && partly_allocated(e, v))) {
      /* the joined tensors of the context, or one of several tags of which some have memory
         already: each member on its own */
      aval nv = place_unallocated(e, v, &dev);
      st_set(e, &c->s->mem, id, &nv);
      continue;
    }
    if (v->loc & TLOC_SET) { /* made in one of several contexts, ctx among them */
      if (!has_unallocated(e, v)) continue;
      aval nv = place_maybe(e, v, ctx, &dev, dev_set);
      nv.prov = prov_new(e, PV_PLACED, v->prov, &c->in->loc, c->in->callee.name, 0, nv.tag);
      st_set(e, &c->s->mem, id, &nv);
      continue;
    }
    const tc_backend_def *b = api_backend_def(e, v->tag.backend);
    if (b && !b->no_memory) continue; /* already has memory */
    aval nv = *v;
    nv.tag.backend = dev.backend;
    nv.tag.ordinal = dev.ordinal;
    nv.tag.autodiff = dev.autodiff;
    /* one placement now, whatever set of tags it had: the device's, each with its own kind */
    nv.i = tagset_remap(e, dev_set, &dev, &nv.tag);
    nv.prov = prov_new(e, PV_PLACED, v->prov, &c->in->loc, c->in->callee.name, 0, nv.tag);
    api_note_one_of(&nv);
    st_set(e, &c->s->mem, id, &nv);
  }
}

/* Whether tag t is in a backend buffer (known, not a context's own memory or none). */
static int in_buffer(const tc_eng *e, const tc_tag *t) {
  const tc_backend_def *b = api_backend_def(e, t->backend);
  return b && !b->no_buffer && TC_TAGF_KNOWN(t->ordinal);
}

/* Graph object obj also records source placement t when it differs from every placement it
   holds (the first recorded one, $tag, and the others, $sources): compute must agree with
   each (a node reads every tensor it is computed from, not only its first operand's). */
#define GRAPH_SOURCES_MAX 8
static void record_source(call_ctx *c, uint32_t obj, const prov *src) {
  tc_eng *e = c->f->e;
  const tc_tag *t = &src->tag;
  aval first = mem_eff(e, c->s, api_pseudo_field(e, obj, e->f_tag));
  if (first.k != AV_TENSOR) return; /* nothing recorded, or not known: nothing to add to */
  if (first.tag.backend == t->backend && first.tag.ordinal == t->ordinal) return;
  uint32_t srcs = api_pseudo_field(e, obj, e->f_sources);
  for (int k = 0; k < GRAPH_SOURCES_MAX; k++) {
    uint32_t at = loc_child(e, srcs, LK_INDEX, 0, k);
    aval v = at ? mem_eff(e, c->s, at) : av_top();
    if (v.k == AV_TENSOR) {
      if (v.tag.backend == t->backend && v.tag.ordinal == t->ordinal) return;
      continue;
    }
    if (!(v.k == AV_BOT || (v.k == AV_INT && v.i == 0))) return; /* not known: stop */
    aval nv = first;
    nv.tag = *t;
    nv.i = 0;
    nv.prov = src;
    mem_write(e, c->s, at, &nv, 0);
    return;
  }
}

/* The placements in a buffer of what tensor origin t is computed from, transitively (its
   operands' origins, as the call that made each saw them), recorded on graph obj. */
static void record_sources(call_ctx *c, uint32_t obj, const prov *t) {
  tc_eng *e = c->f->e;
  const prov *stack[GRAPH_WALK_MAX], *seen[GRAPH_WALK_MAX];
  int n = 0, n_seen = 0;
  if (t) stack[n++] = t;
  while (n && n_seen < GRAPH_WALK_MAX) {
    const prov *p = stack[--n];
    int again = 0;
    for (int k = 0; k < n_seen && !again; k++) again = seen[k] == p;
    if (again) continue;
    seen[n_seen++] = p;
    if (in_buffer(e, &p->tag) && !p->one_of) record_source(c, obj, p);
    for (uint8_t k = 0; k < p->n_operands && n < GRAPH_WALK_MAX; k++) stack[n++] = p->operands[k];
  }
}

/* Object *ef->arg (a graph) records where tensor ef->arg2 lives, if it is the first tensor
   in a buffer given to it; a graph's backend must then agree with it, and with the other
   placements its nodes are computed from (record_sources). */
static void record_tensor(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t obj = api_pointee_of(c, ef->arg);
  if (!obj) return;
  uint32_t rec = api_pseudo_field(e, obj, e->f_tag);
  aval cur = mem_eff(e, c->s, rec);
  operand op;
  api_read_tensor(c, ef->arg2, &op);
  const tc_backend_def *b = api_backend_def(e, op.tag.backend);
  /* the first one decides (a new object's pseudo-field reads as its zero fill) */
  if (cur.k == AV_BOT || (cur.k == AV_INT && cur.i == 0)) {
    if (op.v.k == AV_TENSOR && b && b->no_buffer) {
      /* says nothing about buffers: the first source in one does */
      const prov *p = api_handle_origin(op.v.prov);
      const prov *stack[GRAPH_WALK_MAX];
      int n = 0;
      if (p) stack[n++] = p;
      while (n) { /* depth-first, first operand first: the first placement found */
        const prov *q = stack[--n];
        if (in_buffer(e, &q->tag)) {
          aval v = op.v;
          v.tag = q->tag;
          v.i = 0;
          mem_write(e, c->s, rec, &v, 0);
          break;
        }
        for (int k = (int)q->n_operands - 1; k >= 0 && n < GRAPH_WALK_MAX; k--)
          stack[n++] = q->operands[k];
      }
    } else {
      aval v = op.v.k == AV_TENSOR && b ? op.v : av_top();
      mem_write(e, c->s, rec, &v, 0);
    }
  }
  if (op.v.k == AV_TENSOR) record_sources(c, obj, api_handle_origin(op.v.prov));
}

/* A tensor given to a graph made in a context with no memory (no_alloc), and never placed
   since it was made there, has no memory until an allocator places the graph or its
   context: graph object obj keeps it, placed where its context places (in no memory), in
   $memory, so compute can tell (graph_allocated) and bind_graph / bind_context place it. */
static void record_memory(call_ctx *c, uint32_t obj, const operand *op) {
  tc_eng *e = c->f->e;
  uint32_t at = api_pseudo_field(e, obj, e->f_memory);
  aval cur = mem_eff(e, c->s, at);
  if (!(cur.k == AV_BOT || (cur.k == AV_INT && cur.i == 0))) return; /* one is enough */
  const prov *origin = api_handle_origin(op->v.prov);
  if (op->v.k != AV_TENSOR || !tloc_single(op->v.loc) || !origin || origin->kind != PV_TENSOR ||
      origin->lookup)
    return;
  aval p = mem_eff(e, c->s, api_pseudo_field(e, op->v.loc, e->f_placement));
  const tc_backend_def *b = p.k == AV_TENSOR ? api_backend_def(e, p.tag.backend) : NULL;
  if (!b || !b->no_memory) return;
  aval v = op->v;
  v.tag.backend = p.tag.backend;
  v.tag.ordinal = p.tag.ordinal;
  v.tag.autodiff = p.tag.autodiff;
  v.i = 0;
  mem_write(e, c->s, at, &v, 0);
}

/* A tensor given to a graph (ggml_build_forward_expand): the graph holds it and its operands,
   and records where the first one in a buffer lives. */
static void effect_record(call_ctx *c, const tc_effect *ef) {
  uint32_t obj = api_pointee_of(c, ef->arg);
  if (!obj) return;
  operand op;
  api_read_tensor(c, ef->arg2, &op);
  if (op.v.k == AV_TENSOR) {
    mark_graph_nodes(c, obj, api_handle_origin(op.v.prov));
    record_memory(c, obj, &op);
  } else if (!(op.v.k == AV_INT && op.v.i == 0)) { /* a tensor not known: any may be held */
    mark_graph_unknown(c, obj);
  }
  record_tensor(c, ef);
}

/* The step that made a tensor handle what it is (an API call made or placed it), past the
   steps that only moved it (stores, parameters, returns): two handles of one origin and one
   context are one tensor. */
const prov *api_handle_origin(const prov *p) {
  while (p && p->prev && (p->kind == PV_ASSIGN || p->kind == PV_PARAM || p->kind == PV_RETURN))
    p = p->prev;
  return p;
}

/* What graph object obj holds is no longer known (only that what it was seen to hold it
   still holds). */
static void mark_graph_unknown(call_ctx *c, uint32_t obj) {
  tc_eng *e = c->f->e;
  uint32_t nodes = api_pseudo_field(e, obj, e->f_nodes);
  aval top = av_top();
  for (uint32_t k = nodes ? e->locs[nodes].first_child : 0; k; k = e->locs[k].next_sibling) {
    aval v = mem_eff(e, c->s, k);
    if (!(v.k == AV_INT && v.i == 1)) mem_write(e, c->s, k, &top, 0);
  }
  st_set(e, &c->s->mem, nodes, &top); /* the slots not written read as not known */
}

/* The slot of a tensor's origin in graphs' node sets (0: none yet; made when `make`). A slot
   is the call that made the tensor (not one that placed it since), so the tensors one call
   makes on several paths, loop trips or calling contexts share one: a graph holding one of
   them is taken to hold them all (what a graph holds is over-approximated, never under). */
static uint32_t node_slot(tc_eng *e, const prov *origin, int make) {
  uint32_t id = 0;
  /* the call that made it, past the placements since (a graph allocated after it was built
     holds the same tensors, now in memory) */
  for (int i = 0; i < 64 && origin && origin->kind == PV_PLACED && origin->prev; i++)
    origin = api_handle_origin(origin->prev);
  uint64_t key = origin->loc ? (uint64_t)(uintptr_t)origin->loc : (uint64_t)(uintptr_t)origin;
  if (map_get(&e->node_ids, key, &id) || !make) return id;
  id = ++e->n_node_ids;
  if (map_put(&e->node_ids, key, id)) e->oom = 1;
  return id;
}

/* Graph object obj now holds the tensor of origin t and, transitively, its operands
   (ggml_build_forward_expand visits src[]). */
static void mark_graph_nodes(call_ctx *c, uint32_t obj, const prov *t) {
  tc_eng *e = c->f->e;
  uint32_t nodes = api_pseudo_field(e, obj, e->f_nodes);
  const prov *stack[GRAPH_WALK_MAX], *seen[GRAPH_WALK_MAX];
  int n = 0, n_seen = 0, partial = 0;
  aval one = av_make(AV_INT, 1);
  if (t) stack[n++] = t;
  while (n) {
    const prov *p = stack[--n];
    int again = 0;
    for (int k = 0; k < n_seen && !again; k++) again = seen[k] == p;
    if (again) continue;
    if (n_seen == GRAPH_WALK_MAX) { /* too many to follow: any tensor may be held */
      partial = 1;
      break;
    }
    seen[n_seen++] = p;
    partial |= p->operands_partial; /* some tensors it reaches are not known */
    uint32_t slot = node_slot(e, p, 1);
    uint32_t at = slot ? loc_child(e, nodes, LK_INDEX, 0, slot) : 0;
    if (at) mem_write(e, c->s, at, &one, 0);
    for (uint8_t k = 0; k < p->n_operands; k++) {
      if (n == GRAPH_WALK_MAX) {
        partial = 1;
        break;
      }
      stack[n++] = p->operands[k];
    }
  }
  if (partial) mark_graph_unknown(c, obj);
}

/* Whether the graph whose node set is at `nodes` holds tensor value v: 1, 0, or -1 not known
   (a lookup's handle, a graph an unknown call was given, one summary of several graphs). */
int api_graph_holds(call_ctx *c, uint32_t nodes, const aval *v) {
  tc_eng *e = c->f->e;
  const prov *origin = api_handle_origin(v->prov);
  if (!origin || origin->lookup) return -1;
  uint32_t slot = node_slot(e, origin, 0);
  uint32_t at = slot ? loc_find_child(e, nodes, LK_INDEX, 0, slot) : 0;
  aval m = mem_eff(e, c->s, at ? at : nodes);
  if (m.k != AV_INT) return -1;
  return m.i == 1 && at ? 1 : m.i == 0 ? 0 : -1;
}

/* The tensors a graph holds that are in no memory yet take the device of ef->arg2's handle
   (unknown without one): ggml_gallocr_alloc_graph and the scheduler allocate the graph's nodes
   and leafs, whatever context made them (a tensor of one of several contexts included), not
   the rest of its context. A tensor of its context it may or may not hold is placed somewhere
   unknown. Members of a tag set that have memory already keep it. */
static void effect_bind_graph(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t graph = api_pointee_of(c, ef->arg);
  uint32_t ctx = api_context_of_arg(c, ef->arg);
  if (!graph || !ctx) {
    forget_unallocated(c);
    return;
  }
  tc_tag dev = tc_tag_unknown(), nowhere = tc_tag_unknown();
  uint32_t dev_set = 0;
  if (ef->arg2 >= 0) {
    operand op;
    api_read_tensor(c, ef->arg2, &op);
    if (op.v.k == AV_TENSOR) {
      dev = op.tag;
      dev_set = op.ts;
    }
  }
  uint32_t nodes = api_pseudo_field(e, graph, e->f_nodes);
  uint32_t members = loc_find_child(e, ctx, LK_FIELD, e->f_members, 0);
  int every_one_held = 1;
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || id == members || !has_unallocated(e, v)) continue;
    int in_ctx = v->loc == ctx || tloc_has(e, v->loc, ctx);
    int held = api_graph_holds(c, nodes, v);
    if (held <= 0) {
      if (!in_ctx) continue; /* another context's tensor the graph need not hold */
      every_one_held = 0;
      if (held == 0) continue;
    }
    const tc_tag *to = held > 0 ? &dev : &nowhere;
    aval nv;
    if (partly_allocated(e, v)) { /* one of several tags, some in memory: the others move */
      nv = place_unallocated(e, v, to);
    } else {
      nv = *v;
      nv.tag.backend = to->backend;
      nv.tag.ordinal = to->ordinal;
      nv.tag.autodiff = to->autodiff;
      nv.i = held > 0 ? tagset_remap(e, dev_set, &dev, &nv.tag) : 0;
    }
    nv.prov = prov_new(e, PV_PLACED, v->prov, &c->in->loc, c->in->callee.name, 0, nv.tag);
    api_note_one_of(&nv);
    st_set(e, &c->s->mem, id, &nv);
  }
  const aval *mv = members ? st_get(&c->s->mem, members) : NULL;
  if (mv && mv->k == AV_TENSOR) { /* a lookup's view of the context: the graph's, if all */
    aval nm = place_unallocated(e, mv, every_one_held ? &dev : &nowhere);
    st_set(e, &c->s->mem, members, &nm);
  }
}

/* Tensor ef->arg2 now lives on the device of handle ef->arg (unknown without one): one
   tensor placed in a buffer (ggml_tallocr_alloc, ggml_backend_tensor_alloc). Every copy of
   the handle (a struct field, a caller's local, a helper's parameter) moves with it. */
static void effect_place(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  operand t;
  api_read_tensor(c, ef->arg2, &t);
  if (t.v.k != AV_TENSOR) return;
  tc_tag dev = tc_tag_unknown();
  const prov *src = NULL;
  uint32_t dev_set = 0;
  if (ef->arg >= 0) {
    operand op;
    api_read_tensor(c, ef->arg, &op);
    if (op.v.k == AV_TENSOR) {
      dev = op.tag;
      src = op.prov;
      dev_set = op.ts;
    }
  }
  aval nv = t.v;
  nv.tag.backend = dev.backend;
  nv.tag.ordinal = dev.ordinal;
  nv.tag.autodiff = dev.autodiff;
  nv.i = tagset_remap(e, dev_set, &dev, &nv.tag); /* one placement now: the device's */
  nv.prov = prov_new(e, PV_PLACED, src ? src : t.v.prov, &c->in->loc, c->in->callee.name, 0,
                     nv.tag);
  api_note_one_of(&nv);
  const prov *was = api_handle_origin(t.v.prov);
  /* the context's joined tensors: the one placed may be any that has no memory yet */
  tc_tag nowhere = tc_tag_unknown();
  uint32_t members =
      tloc_single(t.v.loc) ? loc_find_child(e, t.v.loc, LK_FIELD, e->f_members, 0) : 0;
  const aval *mv = members ? st_get(&c->s->mem, members) : NULL;
  if (mv && mv->k == AV_TENSOR) {
    aval nm = place_unallocated(e, mv, &nowhere);
    st_set(e, &c->s->mem, members, &nm);
  }
  if (was && was->lookup) {
    /* a handle from a lookup (ggml_get_first_tensor): any tensor of its context that has no
       memory yet may be the one placed, so where each is is no longer known */
    for (uint32_t id = 1; id < e->n_locs; id++) {
      const aval *v = st_get(&c->s->mem, id);
      if (!v || v->k != AV_TENSOR || v->loc != t.v.loc || id == members) continue;
      aval uv = place_unallocated(e, v, &nowhere);
      st_set(e, &c->s->mem, id, &uv);
    }
  } else if (was) {
    for (uint32_t id = 1; id < e->n_locs; id++) {
      const aval *v = st_get(&c->s->mem, id);
      if (v && v->k == AV_TENSOR && v->loc == t.v.loc && api_handle_origin(v->prov) == was)
        st_set(e, &c->s->mem, id, &nv);
    }
  }
  const tc_opnd *o = api_arg_of(c, ef->arg2);
  targets tg;
  if (o && o->kind == TC_OPND_PATH && mem_resolve(c->f, c->s, &o->path, &tg))
    mem_write_targets(e, c->s, &tg, &nv);
}

/* A memory function wrote element `elem` of an array and maybe more (the byte count is not
   known in elements): the elements after it, and the array's summary, are forgotten. */
static void forget_following_elements(call_ctx *c, uint32_t elem) {
  tc_eng *e = c->f->e;
  uint32_t array = e->locs[elem].parent;
  aval top = av_top();
  for (uint32_t k = e->locs[array].first_child; k; k = e->locs[k].next_sibling)
    if ((e->locs[k].kind == LK_INDEX && e->locs[k].b > e->locs[elem].b) ||
        e->locs[k].kind == LK_ANY)
      mem_write(e, c->s, k, &top, 0);
}

/* *ef->arg := *ef->arg2 (memcpy): a copy of what is known of the source object, else the
   destination forgotten. */
static void effect_copy(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int to_elem, from_elem;
  uint32_t to = api_memory_target(c, ef->arg, &to_elem);
  uint32_t from = api_memory_target(c, ef->arg2, &from_elem);
  if (to && from && to_elem == from_elem) {
    mem_copy_subtree(e, c->s, to, from, 0, NULL);
    if (to_elem) forget_following_elements(c, to);
  } else {
    havoc_arg(c, ef->arg);
  }
}

/* every byte of *ef->arg := ef->arg2 (memset): zeros when the value is 0, else forgotten */
static void effect_fill(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int to_elem;
  uint32_t to = api_memory_target(c, ef->arg, &to_elem);
  const tc_opnd *vo = api_arg_of(c, ef->arg2);
  aval v = vo ? mem_eval(c->f, c->s, vo, NULL) : av_top();
  if (to && v.k == AV_INT && v.i == 0) {
    aval z = av_make(AV_INT, 0);
    mem_write(e, c->s, to, &z, 0);
    if (to_elem) forget_following_elements(c, to);
  } else {
    havoc_arg(c, ef->arg);
  }
}

/* *ef->arg := the value of argument ef->arg2 (a string object holding its literal's text) */
static void effect_hold(call_ctx *c, const tc_effect *ef) {
  int elem;
  uint32_t to = api_memory_target(c, ef->arg, &elem);
  const tc_opnd *vo = api_arg_of(c, ef->arg2);
  aval v = vo ? mem_eval(c->f, c->s, vo, NULL) : av_top();
  if (!to || elem) {
    havoc_arg(c, ef->arg);
    return;
  }
  mem_write(c->f->e, c->s, to, &v, 0);
}

/* *ef->arg and what it reaches become unknown */
static void effect_writes(call_ctx *c, const tc_effect *ef) { havoc_arg(c, ef->arg); }

/* ggml_set_name, ggml_format_name (api_names.c) */
static void effect_name(call_ctx *c, const tc_effect *ef) { api_name_tensor(c, ef->arg, ef->arg2); }

/* The object argument ef->arg2 points to joins the elements at dst, when it is the call's last
   argument and known; otherwise the elements become unknown. */
static void join_last_arg_into(call_ctx *c, const tc_effect *ef, uint32_t dst) {
  tc_eng *e = c->f->e;
  int from_elem;
  int last = (uint32_t)(ef->arg2 + c->fn->leading_args) + 1 == c->in->n_args;
  uint32_t src = last ? api_memory_target(c, ef->arg2, &from_elem) : 0;
  if (src) {
    mem_copy_subtree(e, c->s, dst, src, 1, NULL);
  } else {
    aval top = av_top();
    mem_write(e, c->s, dst, &top, 1);
  }
}

/* The object ef->arg2 points to joins the elements of the container ef->arg points to (their
   field ef->field when set). The value must be the call's last argument; an element made from
   several (an emplace constructing it), or one not known, makes the elements unknown. */
static void effect_store(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int elem;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  uint32_t dst = obj ? api_container_elements(e, obj, ef->field) : 0;
  if (!dst) {
    havoc_arg(c, ef->arg);
    return;
  }
  join_last_arg_into(c, ef, dst);
  api_size_mark_nonempty(e, c->s, obj);
}

/* The braced list argument `arg` is (a std::initializer_list operand: the temporary the list's
   elements were stored in, passed by value or by address); 0 for another overload's argument. */
static uint32_t braced_list_object(call_ctx *c, int arg) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, arg);
  if (!o || !strstr(tc_str(e->prog, o->type.name), "initializer_list")) return 0;
  if (o->kind == TC_OPND_PATH) {
    targets t;
    return mem_resolve(c->f, c->s, &o->path, &t) && t.n == 1 && !t.weak ? t.loc[0] : 0;
  }
  int elem;
  return api_memory_target(c, arg, &elem);
}

/* The elements summary of another container that iterator argument `arg` points into
   (begin(), end() and the iterators they give hold the address of their container's
   elements, element_of_arg); 0 for anything else. */
static uint32_t iterator_elements(call_ctx *c, int arg) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, arg);
  if (!o || o->type.cls != TC_TY_RECORD) return 0;
  uint32_t it = 0;
  if (o->kind == TC_OPND_PATH) { /* passed by value: the iterator object itself */
    targets t;
    it = mem_resolve(c->f, c->s, &o->path, &t) && t.n == 1 && !t.weak ? t.loc[0] : 0;
  } else {
    int elem;
    it = api_memory_target(c, arg, &elem);
  }
  aval v = it ? mem_eff(e, c->s, it) : av_top();
  if (v.k != AV_ADDR || !v.loc) return 0;
  const eloc *l = &e->locs[v.loc];
  if (l->kind == LK_FIELD && l->a == e->f_elements) return loc_child(e, v.loc, LK_ANY, 0, 0);
  if (l->kind != LK_ANY || !l->parent) return 0;
  const eloc *p = &e->locs[l->parent];
  return p->kind == LK_FIELD && p->a == e->f_elements ? v.loc : 0;
}

/* The elements dst of container obj are new ones: copies of what src holds, or `none` without
   a src; what the container held before is gone, and how many there are is not known. */
static void elements_replaced(call_ctx *c, uint32_t obj, uint32_t dst, uint32_t src,
                              const aval *none) {
  tc_eng *e = c->f->e;
  mem_clear_subtree(e, c->s, dst);
  if (src)
    mem_copy_subtree(e, c->s, dst, src, 0, NULL);
  else
    mem_write(e, c->s, dst, none, 0);
  api_size_forget(e, c->s, obj);
}

/* The count overload of a container's constructor (vector(n), vector(n, value), either with an
   allocator after them): its elements are new ones, value-initialized (NULL) or copies of the
   object the argument after the count points to, when that is not the allocator (unknown when
   that object is not known). */
static void value_initialize_new(call_ctx *c, const tc_effect *ef, uint32_t obj, uint32_t dst) {
  tc_eng *e = c->f->e;
  const tc_opnd *value = api_arg_of(c, ef->arg2 + 1);
  int has_value = value && !strstr(tc_str(e->prog, value->type.name), "allocator");
  int elem;
  uint32_t src = has_value ? api_memory_target(c, ef->arg2 + 1, &elem) : 0;
  aval none = has_value ? av_top() : av_make(AV_INT, 0);
  elements_replaced(c, obj, dst, src, &none);
}

/* The elements of the braced list argument ef->arg2 become those of the container ef->arg
   points to (the first replaces what the summary held, the others join it); another
   overload's argument, or a list not known, writes the container. */
static void effect_store_elements(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int elem;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  uint32_t dst = obj ? api_container_elements(e, obj, "") : 0;
  uint32_t list = dst ? braced_list_object(c, ef->arg2) : 0;
  if (!list) {
    const tc_opnd *count = dst ? api_arg_of(c, ef->arg2) : NULL;
    if (count && count->type.cls == TC_TY_INT) {
      value_initialize_new(c, ef, obj, dst);
      return;
    }
    uint32_t from = dst ? iterator_elements(c, ef->arg2) : 0;
    if (from && from != dst) { /* the iterator pair's overload: the elements it reaches */
      elements_replaced(c, obj, dst, from, NULL);
      return;
    }
    havoc_arg(c, ef->arg);
    return;
  }
  int weak = 0;
  for (uint32_t k = e->locs[list].first_child; k; k = e->locs[k].next_sibling) {
    if (e->locs[k].kind != LK_INDEX) continue;
    mem_copy_subtree(e, c->s, dst, k, weak, NULL);
    weak = 1;
  }
  if (!weak) { /* an empty list: no elements */
    mem_clear_subtree(e, c->s, dst);
    aval none = av_make(AV_BOT, 0);
    mem_write(e, c->s, dst, &none, 0);
    api_size_mark_empty(e, c->s, obj);
    return;
  }
  api_size_mark_nonempty(e, c->s, obj);
  if (holds_alternatives(e, c->s, dst, 3)) {
    /* elements that differ (a cpu and a sim batch): which one a later read or a loop's
       iteration meets is not followed — a guard on the device of each does not narrow a tag
       set — so they are unknown, as before a list was followed */
    aval top = av_top();
    mem_write(e, c->s, dst, &top, 0);
  }
}

/* New elements of the container ef->arg points to, value-initialized (zero, NULL: a later store
   defines them) or copied from the object ef->arg2 points to when the call has that argument
   as its last (one not known makes them unknown); they join the elements it already holds. */
static void effect_value_initialize(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int elem;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  uint32_t dst = obj ? api_container_elements(e, obj, "") : 0;
  if (!dst) {
    havoc_arg(c, ef->arg);
    return;
  }
  if (!api_size_nonempty(e, c->s, obj)) api_size_forget(e, c->s, obj); /* resize(n): n unknown */
  if (ef->arg2 < 0 || !api_arg_of(c, ef->arg2)) {
    aval zero = av_make(AV_INT, 0);
    mem_write(e, c->s, dst, &zero, 1);
    return;
  }
  join_last_arg_into(c, ef, dst);
}

/* A container's default constructor (no argument ef->arg2, or only an allocator there): no
   element, known empty. One of several containers (a summary: an element of a vector of
   vectors built in place) keeps what the others hold: its size is joined. */
static void effect_constructs_empty(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  const tc_opnd *a = api_arg_of(c, ef->arg2);
  if (a && !strstr(tc_str(e->prog, a->type.name), "allocator")) return; /* another overload */
  int elem;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  uint32_t dst = obj ? api_container_elements(e, obj, "") : 0;
  if (!dst) return;
  if (!e->locs[obj].summarized) {
    mem_clear_subtree(e, c->s, dst);
    aval none = av_make(AV_BOT, 0);
    mem_write(e, c->s, dst, &none, 0);
  }
  api_size_mark_empty(e, c->s, obj);
}

/* the iterator *ef->arg moved: its position is not known (api_size.c) */
static void effect_advance(call_ctx *c, const tc_effect *ef) { api_position_forget(c, ef->arg); }

/* the container *ef->arg may be empty now (a move's source): its size is forgotten */
static void effect_may_empty(call_ctx *c, const tc_effect *ef) {
  int elem;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  if (obj) api_size_forget(c->f->e, c->s, obj);
}

/* A membership test of a key the path does not know (count(k), find(k)): the elements not
   kept by their key may include one it never put in, so their summary is unknown. */
static void effect_key_test(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int64_t key;
  int elem;
  if (api_constant_key(c, ef->arg2, &key)) return;
  uint32_t obj = api_memory_target(c, ef->arg, &elem);
  uint32_t elements = obj ? api_pseudo_field(e, obj, e->f_elements) : 0;
  uint32_t any = elements ? loc_child(e, elements, LK_ANY, 0, 0) : 0;
  if (!any || !mem_subtree_has_values(e, c->s, any)) return; /* nothing put in to mistake */
  aval top = av_top();
  mem_clear_subtree(e, c->s, any);
  mem_write(e, c->s, any, &top, 0);
}

/* Applies the call's effects in order: effect_<name> above (rules.def). */
/* A new context is stored through the pointer in field ef->field of struct argument ef->arg
   (gguf_init_from_file(fname, params) sets *params.ctx), placed by the same struct's
   ef->placement_field as a new_object result's placement_arg says (no_alloc: unallocated).
   The call made tensors in it that lookups find (ggml_get_tensor(ctx, name)). */
static void effect_new_context(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t out = api_struct_arg_field(c, ef->arg, ef->field);
  if (!out) return;
  aval p = mem_eff(e, c->s, out);
  ptset pts;
  av_targets(e, &p, &pts);
  if (!pts.n) return;
  tc_result_spec r;
  tc_rules_result_defaults(&r);
  r.what = TC_RES_NEW_OBJECT;
  if (ef->placement_field[0]) {
    r.placement_arg = ef->arg;
    r.placement_field = (char *)ef->placement_field;
    r.placement_nonzero = ef->placement_nonzero;
    r.placement_zero = ef->placement_zero;
  }
  /* an odd key: the call's insn is its result's object */
  aval obj = api_new_object(c, &r, (uint64_t)(uintptr_t)c->in | 1u);
  if (obj.k == AV_ADDR) { /* the tensors the call made in it (a file's: names, kinds unknown) */
    aval pl = mem_eff(e, c->s, api_pseudo_field(e, obj.loc, e->f_placement));
    aval m = av_make(AV_TENSOR, 0);
    m.tag = pl.k == AV_TENSOR ? pl.tag : tc_tag_unknown();
    m.tag.kind = TC_TAGF_UNKNOWN;
    m.loc = obj.loc;
    m.prov = prov_new(e, PV_TENSOR, NULL, &c->in->loc, c->in->callee.name, 0, m.tag);
    mem_write(e, c->s, api_pseudo_field(e, obj.loc, e->f_members), &m, 1);
  }
  for (uint32_t i = 0; i < pts.n; i++) {
    if (pts.idx[i] == IDX_ANY) continue;
    uint32_t at = pts.idx[i] == IDX_NONE ? pts.loc[i]
                                         : loc_child(e, pts.loc[i], LK_INDEX, 0, pts.idx[i]);
    if (at) mem_write(e, c->s, at, &obj, pts.n > 1);
  }
}

void api_apply_effects(call_ctx *c) {
  /* a result that reads memory the effects write (load_arg) reads it first */
  if (c->fn->result.what == TC_RES_LOAD_ARG) c->loaded = api_load_arg(c, c->fn->result.arg);
  for (size_t i = 0; i < c->fn->n_effects; i++) {
    const tc_effect *ef = &c->fn->effects[i];
    switch (ef->kind) {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2, name_key) \
  case TC_EFFECT_##E:                                                      \
    effect_##name(c, ef);                                                  \
    break;
#include "rules/rules.def"
#undef TC_EFFECT
    }
  }
}
