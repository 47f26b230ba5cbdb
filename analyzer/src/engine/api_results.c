/* analyzer/src/engine/api_results.c — the value an API call's result gets, from its
 * description in the rules (rules.def's TC_RESULT rows, one result_<key> each): a device, a
 * tensor with a tag, an availability test, fresh memory (a context, a graph), a data pointer,
 * a struct that records a handle. */
#include <string.h>

#include "engine/api_call.h"

static aval field_value(tc_eng *e, int32_t f, int which, const prov *pv) {
  aval v;
  if (TC_TAGF_IS_SYM(f)) {
    v = av_make(AV_SYM, -2 - (int64_t)f);
  } else if (!TC_TAGF_KNOWN(f)) {
    return av_top();
  } else if (which == 0) {
    v = av_make(AV_INT, (size_t)f < e->rules->n_backends ? e->rules->backends[f].value : 0);
  } else {
    v = av_make(AV_INT, f);
  }
  v.prov = pv;
  return v;
}

static void write_device(call_ctx *c, const tc_tag *tag, uint32_t set, const prov *pv) {
  tc_eng *e = c->f->e;
  if (!c->in->has_dst) return;
  targets t;
  if (!mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
  const struct devtype *dt = devtype_for(e, &c->in->dst_type);
  if (!dt) return;
  int weak = t.weak || t.n > 1;
  aval top = av_top();
  uint32_t fids[3] = {dt->f_backend, dt->f_ordinal, dt->f_autodiff};
  int32_t vals[3] = {tag->backend, tag->ordinal, tag->autodiff};
  for (int i = 0; i < t.n; i++) {
    if (!weak) mem_write(e, c->s, t.loc[i], &top, 0);
    for (int k = 0; k < 3; k++) {
      uint32_t fl = loc_child(e, t.loc[i], LK_FIELD, fids[k], 0);
      aval v = set ? device_field_of_set(e, set, k, pv) : field_value(e, vals[k], k, pv);
      mem_write(e, c->s, fl, &v, weak);
    }
  }
}

void api_write_value(call_ctx *c, const aval *v) {
  if (!c->in->has_dst) return;
  targets t;
  if (!mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
  mem_write_targets(c->f->e, c->s, &t, v);
}

void api_note_one_of(const aval *v) {
  if (v->prov && v->i) ((prov *)v->prov)->one_of = 1;
}

/* A context pointer that is one of several contexts (each branch, or each trip of a loop,
   picked its own): the tensor made there is placed where one of them places its tensors (a
   tag set when they differ: *set) and remembers them all (the TLOC_SET returned); 0 when one
   of them is not a context whose placement is known. */
static uint32_t contexts_placement(call_ctx *c, int argi, tc_tag *tag, operand *set) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, argi);
  aval pv = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  if (pv.k != AV_ADDRSET) return 0;
  ptset objs;
  av_targets(e, &pv, &objs);
  tagset ts;
  memset(&ts, 0, sizeof ts);
  for (uint32_t i = 0; i < objs.n; i++) {
    if (objs.idx[i] != IDX_NONE && objs.idx[i] != 0) return 0;
    aval p = mem_eff(e, c->s, api_pseudo_field(e, objs.loc[i], e->f_placement));
    if (p.k != AV_TENSOR || p.i || tagset_add(&ts, &p.tag)) return 0;
  }
  uint32_t loc = tloc_of(e, &objs);
  if (!loc || !ts.n) return 0;
  *tag = tagset_view(&ts);
  if (ts.n > 1) {
    memset(set, 0, sizeof *set);
    set->v = av_make(AV_TENSOR, 0);
    set->v.tag = *tag;
    set->tag = *tag;
    set->ts = tagset_intern(e, &ts);
    set->v.i = set->ts;
  }
  return loc;
}

/* A tensor made in the context object an argument points to: where the context places its
   tensors, unless an operand it is computed from already lives in a buffer (a graph node
   follows its weights, one of the same devices as they when they are one of several: *set,
   the tag set it follows, 0 for none). *obj: the context object (0 if not known). */
static tc_tag context_placement(call_ctx *c, const tc_result_spec *r, const prov **src,
                                uint32_t *obj, operand *set) {
  tc_eng *e = c->f->e;
  tc_tag tag = tc_tag_unknown();
  *obj = api_pointee_of(c, r->context_arg);
  if (*obj) {
    aval p = mem_eff(e, c->s, api_pseudo_field(e, *obj, e->f_placement));
    if (p.k == AV_TENSOR) tag = p.tag;
  } else {
    *obj = contexts_placement(c, r->context_arg, &tag, set);
  }
  for (int i = 0; i < r->n_device_like; i++) {
    operand op;
    api_read_tensor(c, r->device_like_args[i], &op);
    if (op.v.k != AV_TENSOR) continue;
    const tc_backend_def *b = api_backend_def(e, op.tag.backend);
    if (b && b->no_buffer) continue;
    tag.backend = op.tag.backend; /* in a buffer, or placed who knows where */
    tag.ordinal = op.tag.ordinal;
    tag.autodiff = op.tag.autodiff;
    *src = op.prov;
    *set = op;
    break;
  }
  if (r->like_arg >= 0) { /* the kind of the operand */
    operand op;
    api_read_tensor(c, r->like_arg, &op);
    tag.kind = op.v.k == AV_TENSOR ? op.tag.kind : TC_TAGF_UNKNOWN;
  }
  return tag;
}

/* An object just made (h): a context's placement, the context it was made in. */
static void set_up_object(call_ctx *c, const tc_result_spec *r, uint32_t h) {
  tc_eng *e = c->f->e;
  const aval *mark = st_get(&c->s->mem, h);
  int weak = mark && mark->k == AV_MULTI; /* one summary of several objects */
  int32_t placement = r->placement;
  if (r->placement_arg >= 0) {
    placement = TC_TAGF_UNKNOWN;
    uint32_t fl = api_struct_arg_field(c, r->placement_arg, r->placement_field);
    if (fl) {
      aval fv = mem_eff(e, c->s, fl);
      int truth = fv.k == AV_INT ? fv.i != 0 : fv.k == AV_NE && fv.i == 0 ? 1 : -1;
      if (truth >= 0) placement = truth ? r->placement_nonzero : r->placement_zero;
    }
  }
  if (r->placement >= 0 || r->placement_arg >= 0) {
    aval p = av_top();
    if (placement >= 0) {
      p = av_make(AV_TENSOR, 0);
      p.tag = tc_tag_unknown();
      p.tag.backend = placement;
      p.tag.ordinal = 0;
      p.tag.autodiff = 0;
    }
    mem_write(e, c->s, api_pseudo_field(e, h, e->f_placement), &p, weak);
  }
  if (r->object_context_arg >= 0) {
    const tc_opnd *o = api_arg_of(c, r->object_context_arg);
    aval v = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
    mem_write(e, c->s, api_pseudo_field(e, h, e->f_context), &v, weak);
  }
}

static void result_none(call_ctx *c) {
  aval top = av_top();
  api_write_value(c, &top);
}

static void result_device(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  tc_sym opname = c->in->callee.name;
  tc_tag tag = tc_tag_unknown();
  const prov *src = NULL;
  operand op;
  memset(&op, 0, sizeof op);
  switch (r->dev_src) {
    case TC_DEV_FIXED:
      tag.backend = r->backend;
      break;
    case TC_DEV_BACKEND_ARG:
      tag.backend = api_int_arg_field(c, r->arg, 1);
      break;
    case TC_DEV_FROM_DEVICE:
      api_read_device(c, r->arg, &op);
      tag = op.tag;
      src = op.prov;
      break;
    case TC_DEV_OF_TENSOR:
      api_read_tensor(c, r->arg, &op);
      tag = op.tag;
      tag.kind = TC_TAGF_UNKNOWN;
      src = op.prov;
      break;
  }
  if (r->dev_src == TC_DEV_FIXED || r->dev_src == TC_DEV_BACKEND_ARG) {
    tag.ordinal = r->ordinal >= 0 ? r->ordinal : api_int_arg_field(c, r->ordinal_arg, 0);
    if (r->ordinal < 0 && r->ordinal_arg < 0) tag.ordinal = TC_TAGF_UNKNOWN;
  }
  if (r->autodiff >= 0) tag.autodiff = r->autodiff;
  tag.kind = TC_TAGF_UNKNOWN;
  const prov *pv = prov_new(e, r->dev_src == TC_DEV_OF_TENSOR ? PV_DEVICE_OF : PV_DEVICE, src,
                            &c->in->loc, opname, 0, tag);
  if (!opname && pv) ((prov *)pv)->text = c->fn->name;
  write_device(c, &tag, tagset_remap(e, op.ts, &op.tag, &tag), pv);
}

/* A tensor made in a context remembers the origins of its tensor operands (every argument
   that holds a tensor), so a graph given it reaches them too (bind_graph): ggml's src[]. */
static void note_operands(call_ctx *c, prov *pv) {
  tc_eng *e = c->f->e;
  if (!pv) return;
  const prov *ops[TC_RULES_MAX_ARGS];
  uint8_t n = 0;
  for (uint32_t a = 0; a < c->in->n_args; a++) {
    const tc_opnd *o = &c->in->args[a];
    aval v = mem_eval(c->f, c->s, o, NULL);
    const prov *origin = v.k == AV_TENSOR ? api_handle_origin(v.prov) : NULL;
    if (origin && n < TC_RULES_MAX_ARGS)
      ops[n++] = origin;
    else if (origin || (o->type.cls == TC_TY_POINTER && type_carries_tag(e, &o->type) &&
                        !(v.k == AV_INT && v.i == 0)))
      pv->operands_partial = 1; /* a tensor operand not followed */
  }
  if (!n) return;
  const prov **keep = bump_alloc(&e->bump, n * sizeof *keep);
  if (!keep) {
    e->oom = 1;
    return;
  }
  memcpy(keep, ops, n * sizeof *keep);
  pv->operands = keep;
  pv->n_operands = n;
}

static void result_tensor(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  tc_sym opname = c->in->callee.name;
  tc_tag tag = tc_tag_unknown();
  const prov *src = NULL;
  operand op;
  memset(&op, 0, sizeof op);
  int known_src = 1;
  uint32_t ctx_obj = 0;
  if (r->fixed_device) {
    tag.backend = r->backend_arg >= 0 ? api_int_arg_field(c, r->backend_arg, 1) : r->backend;
    tag.ordinal = r->ordinal >= 0       ? r->ordinal
                  : r->ordinal_arg >= 0 ? api_int_arg_field(c, r->ordinal_arg, 0)
                                        : 0;
    tag.autodiff = 0;
  } else if (r->context_arg >= 0) {
    tag = context_placement(c, r, &src, &ctx_obj, &op);
  } else if (r->device_arg >= 0) {
    api_read_device(c, r->device_arg, &op);
    tag = op.tag;
    tag.kind = TC_TAGF_UNKNOWN;
    src = op.prov;
  } else if (r->like_arg >= 0) {
    api_read_tensor(c, r->like_arg, &op);
    known_src = op.v.k == AV_TENSOR;
    tag = op.tag;
    src = op.prov;
  } else {
    const tc_opnd *ao = api_arg_of(c, r->like_array_arg);
    aval base = ao ? mem_eval(c->f, c->s, ao, NULL) : av_top();
    known_src = 0;
    if (base.k == AV_ADDR && base.i != IDX_ANY) {
      uint32_t loc = base.i == IDX_NONE && !e->locs[base.loc].is_array
                         ? base.loc
                         : loc_child(e, base.loc, LK_INDEX, 0, base.i == IDX_NONE ? 0 : base.i);
      aval v = loc ? mem_eff(e, c->s, loc) : av_top();
      if (v.k == AV_POISON) c->poisoned = 1;
      if (v.k == AV_TENSOR) {
        tag = v.tag;
        src = v.prov;
        known_src = 1;
      }
    } else if (base.k == AV_ADDR && api_read_elements(c, r->like_array_arg, -1, &op, 1) == 1) {
      tag = op.tag; /* a container's elements (`v.data()`), all of one tag */
      src = op.prov;
      known_src = 1;
    }
  }
  if (!known_src) {
    aval top = av_top();
    api_write_value(c, &top);
    return;
  }
  if (r->tkind >= 0) {
    tag.kind = r->tkind;
  } else if (r->kind_arg >= 0) {
    const tc_opnd *ko = api_arg_of(c, r->kind_arg);
    aval kv = ko ? mem_eval(c->f, c->s, ko, NULL) : av_top();
    tag.kind = kv.k == AV_INT ? tc_rules_kind_by_value(e->rules, kv.i) : TC_TAGF_UNKNOWN;
    if (tag.kind < 0) tag.kind = TC_TAGF_UNKNOWN;
  } else if (r->kind_of_arg >= 0) {
    operand ko;
    api_read_tensor(c, r->kind_of_arg, &ko);
    tag.kind = ko.v.k == AV_TENSOR ? ko.tag.kind : TC_TAGF_UNKNOWN;
  }
  if (r->strip_autodiff) tag.autodiff = 0;
  aval v = av_make(AV_TENSOR, 0);
  v.tag = tag;
  if (r->device_arg >= 0 || r->like_arg >= 0 || r->context_arg >= 0)
    v.i = tagset_remap(e, op.ts, &op.tag, &tag);
  v.loc = ctx_obj;
  v.prov = prov_new(e, PV_TENSOR, src, &c->in->loc, opname, 0, tag);
  api_note_one_of(&v);
  if (!opname && v.prov) ((prov *)v.prov)->text = c->fn->name;
  if (ctx_obj) note_operands(c, (prov *)v.prov); /* before the result overwrites one */
  api_write_value(c, &v);
  /* the context keeps it: a lookup after the handle is gone still finds it (each of the
     contexts it may be in) */
  ptset ctxs;
  tloc_members(e, ctx_obj, &ctxs);
  for (uint32_t k = 0; k < ctxs.n; k++)
    mem_write(e, c->s, api_pseudo_field(e, ctxs.loc[k], e->f_members), &v, 1);
}

static void result_same_as_arg(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  const tc_opnd *o = api_arg_of(c, r->arg);
  aval v = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  v.drel = DR_NONE;
  api_write_value(c, &v);
}

/* The value a pointer argument designates (unknown when the pointer is). */
aval api_load_arg(call_ctx *c, int argi) {
  int elem;
  uint32_t at = api_memory_target(c, argi, &elem);
  if (!at) return av_top();
  aval v = mem_eff(c->f->e, c->s, at);
  v.drel = DR_NONE;
  return v;
}

static void result_load_arg(call_ctx *c) { api_write_value(c, &c->loaded); }

static void result_kind_of_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  operand op;
  api_read_tensor(c, r->arg, &op);
  aval v = op.v.k == AV_TENSOR ? api_kind_value(e, &op.tag) : av_top();
  api_write_value(c, &v);
}

/* The enum value of a handle's backend: the value of its one backend, or of the backend of
   the member a tag set stands for (a device field of the set: comparing it with a constant
   is a test of the member, flow.c), unknown when not known. */
static void result_backend_of_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  operand op;
  api_read_tensor(c, r->arg, &op);
  aval v = av_top();
  if (op.v.k == AV_TENSOR && op.ts && tagset_get(e, op.ts))
    v = device_field_of_set(e, op.ts, 0, op.prov);
  else if (op.v.k == AV_TENSOR && api_backend_def(e, op.tag.backend))
    v = av_make(AV_INT, api_backend_def(e, op.tag.backend)->value);
  api_write_value(c, &v);
}

static void result_devices_equal(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  operand a, b;
  api_read_device(c, r->arg, &a);
  api_read_device(c, r->arg2, &b);
  tc_tri t1 = tc_tagf_equal(a.tag.backend, b.tag.backend);
  tc_tri t2 = tc_tagf_equal(a.tag.ordinal, b.tag.ordinal);
  tc_tri t3 = tc_tagf_equal(a.tag.autodiff, b.tag.autodiff);
  aval v = av_top();
  if (t1 == TC_TRI_NO || t2 == TC_TRI_NO || t3 == TC_TRI_NO)
    v = av_make(AV_INT, 0);
  else if (t1 == TC_TRI_YES && t2 == TC_TRI_YES && t3 == TC_TRI_YES)
    v = av_make(AV_INT, 1);
  api_write_value(c, &v);
}

static void result_backend_available_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  int32_t b = api_int_arg_field(c, r->arg, 1);
  aval v = av_top();
  if (TC_TAGF_KNOWN(b) && b < 32) {
    if ((size_t)b < e->rules->n_backends && e->rules->backends[b].always_available)
      v = av_make(AV_INT, 1);
    else if (e->unavailable_mask & (1u << b))
      v = av_make(AV_INT, 0);
    else if (c->s->avail_no & (1u << b))
      v = av_make(AV_INT, 0);
    else if (c->s->avail_yes & (1u << b))
      v = av_make(AV_INT, 1);
    else
      v = av_make(AV_AVAIL, b);
  }
  api_write_value(c, &v);
}

aval api_new_object(call_ctx *c, const tc_result_spec *r, uint64_t key) {
  tc_eng *e = c->f->e;
  uint32_t site;
  if (!map_get(&e->site_ids, key, &site)) {
    site = ++e->n_sites;
    if (map_put(&e->site_ids, key, site)) e->oom = 1;
  }
  /* the k-th allocation at this site and calling context on this path is object k (a
     tree built twice by one loop of constant bound: two trees); past HEAP_ORDINALS,
     the last object is a summary of the rest, updated weakly */
  uint32_t h = 0;
  const aval *old = NULL;
  for (int64_t k = 0; k < HEAP_ORDINALS; k++) {
    h = loc_root(e, LK_HEAP, site, (int64_t)e->cur_chain + (k << 32), c->f->fi->idx);
    old = h ? st_get(&c->s->mem, h) : NULL;
    if (!h || !old) break;
  }
  if (!h) return av_top();
  /* a new object reads as zeros (calloc; reading malloc'd memory before writing it is
     undefined anyway): a tree node's unset children are NULL, its unset tensor NULL */
  aval mark = old ? av_make(AV_MULTI, 0) : av_make(AV_INT, 0);
  if (old) {
    st_set(e, &c->s->mem, h, &mark);
  } else {
    mem_write(e, c->s, h, &mark, 0);
  }
  set_up_object(c, r, h);
  aval v = av_make(AV_ADDR, IDX_NONE);
  v.loc = h;
  return v;
}

static void result_new_object(call_ctx *c) {
  aval v = api_new_object(c, &c->fn->result, (uint64_t)(uintptr_t)c->in);
  api_write_value(c, &v);
}

static void result_data_of_tensor_arg(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  operand op1;
  api_read_tensor(c, r->arg, &op1);
  aval v = av_top();
  if (op1.v.k == AV_TENSOR) {
    v = av_make(AV_DATAPTR, op1.v.i); /* of one of the tensor's tags (tag sets) */
    v.tag = op1.v.tag;
    v.prov = op1.prov;
  }
  api_write_value(c, &v);
}

static void result_records_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  operand op1;
  /* the struct the result is stored in records the handle (ggml_tallocr_new(buffer)) */
  api_read_tensor(c, r->arg, &op1);
  targets t;
  if (!c->in->has_dst || !mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
  aval v = op1.v.k == AV_TENSOR ? op1.v : av_top();
  for (int i = 0; i < t.n; i++) {
    mem_clear_subtree(e, c->s, t.loc[i]);
    mem_write(e, c->s, api_pseudo_field(e, t.loc[i], e->f_tag), &v, t.weak || t.n > 1);
  }
}

/* Whether a backend is host memory: over a tag set, the test of the member (settest_of_members)
   ggml_backend_buffer_is_host of one of several buffers is. */
static int backend_is_host(const tc_backend_def *b, int64_t unused) {
  (void)unused;
  return b->host_memory;
}

static void result_is_host_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  operand op1;
  api_read_tensor(c, r->arg, &op1);
  const tc_backend_def *b = api_backend_def(e, op1.tag.backend);
  const tagset *set = op1.v.k == AV_TENSOR ? tagset_get(e, op1.ts) : NULL;
  aval v = set ? settest_of_members(e, set, backend_is_host, 0)
               : op1.v.k == AV_TENSOR && b ? av_make(AV_INT, b->host_memory) : av_top();
  api_write_value(c, &v);
}

static int among(const ptset *s, uint32_t loc) {
  for (uint32_t i = 0; i < s->n; i++)
    if (s->loc[i] == loc) return 1;
  return 0;
}

/* Whether a tensor made in (one of) the contexts loc may be one of ctxs'. */
static int among_tloc(const tc_eng *e, const ptset *ctxs, uint32_t loc) {
  ptset m;
  tloc_members(e, loc, &m);
  for (uint32_t i = 0; i < m.n; i++)
    if (among(ctxs, m.loc[i])) return 1;
  return 0;
}

/* One of the tensors made in the contexts ctxs (a lookup by name, an iteration): the join of
   every such tensor this state holds (the context's own record of them included), as a tag
   set while it fits; unknown when it holds none. maybe_null: the lookup may find nothing. */
static aval context_member(call_ctx *c, const ptset *ctxs, uint32_t nodes, int maybe_null) {
  tc_eng *e = c->f->e;
  aval r = av_top();
  int have = 0;
  for (uint32_t id = 1; ctxs->n && id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || !v->loc || !among_tloc(e, ctxs, v->loc)) continue;
    if (nodes && api_graph_holds(c, nodes, v) == 0) continue; /* a graph finds only its own */
    if (!have) {
      r = *v;
      have = 1;
    } else if (!tensor_join_tags(e, &r, v, &r)) {
      r.tag = tc_tag_join(r.tag, v->tag);
      r.i = 0;
    }
  }
  if (!have) return r;
  r.drel = DR_NONE;
  r.loc = ctxs->n == 1 ? ctxs->loc[0] : 0;
  r.neg = maybe_null;
  prov *pv = (prov *)prov_new(e, PV_TENSOR, NULL, &c->in->loc, c->in->callee.name, 0, r.tag);
  if (pv) {
    pv->lookup = 1;
    if (!c->in->callee.name) pv->text = c->fn->name;
  }
  r.prov = pv;
  return r;
}

/* A lookup in a graph (an object that remembers its context and holds a node set) finds one
   of the tensors the graph holds; in a context, one of the context's. */
static void member_result(call_ctx *c, int maybe_null) {
  tc_eng *e = c->f->e;
  ptset ctxs;
  uint32_t obj = api_pointee_of(c, c->fn->result.arg);
  uint32_t nodes = obj ? loc_find_child(e, obj, LK_FIELD, e->f_nodes, 0) : 0;
  aval v = api_contexts_of_arg(c, c->fn->result.arg, &ctxs)
               ? context_member(c, &ctxs, nodes, maybe_null)
               : av_top();
  api_write_value(c, &v);
}

/* a lookup that may find nothing (ggml_get_tensor, ggml_graph_get_tensor, ...) */
static void result_member_of_arg(call_ctx *c) { member_result(c, 1); }

/* the first tensor of a context: found when the context has one (ggml_get_first_tensor) */
static void result_first_member_of_arg(call_ctx *c) { member_result(c, 0); }

/* a lookup by name (ggml_get_tensor, ggml_graph_get_tensor): the tensors given that name, when
   the name and some are known (api_names.c); else any, as member_of_arg */
static void result_named_member_of_arg(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  aval v;
  if (api_named_member(c, r->arg, r->arg2, &v))
    api_write_value(c, &v);
  else
    member_result(c, 1);
}

/* A handle on one of the devices of set s: checks are decided per device (a warning when some
   fail); maybe NULL. */
static aval handle_of_set(call_ctx *c, const tagset *s, const prov *src) {
  tc_eng *e = c->f->e;
  aval v = av_make(AV_TENSOR, 0);
  v.tag = tagset_view(s);
  v.i = tagset_intern(e, s);
  v.neg = 1;
  v.prov = prov_new(e, PV_TENSOR, src, &c->in->loc, c->in->callee.name, 0, v.tag);
  if (!c->in->callee.name && v.prov) ((prov *)v.prov)->text = c->fn->name;
  return v;
}

/* a handle on one of the devices the rules list (ggml_backend_init_best) */
static void write_one_of(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  tagset s;
  memset(&s, 0, sizeof s);
  aval v = av_top();
  int fits = 1;
  for (int i = 0; i < r->n_one_of && fits; i++) {
    tc_tag t = tc_tag_unknown();
    t.backend = r->one_of_backend[i];
    t.ordinal = r->one_of_ordinal[i];
    t.autodiff = 0;
    fits = !tagset_add(&s, &t);
  }
  if (fits) v = handle_of_set(c, &s, NULL);
  api_write_value(c, &v);
}

static void result_one_of(call_ctx *c) { write_one_of(c); }

/* ASCII case-insensitive: 1 when the first n bytes of a and b agree (n < 0: all of them). */
static int names_agree(const char *a, const char *b, long n) {
  for (long i = 0; n < 0 || i < n; i++) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] - 'A' + 'a') : b[i];
    if (x != y) return 0;
    if (!x) return 1;
  }
  return 1;
}

/* The ordinal a name's decimal suffix gives: 0 and *ord, or -1 when it is not only digits. */
static int suffix_ordinal(const char *suffix, int32_t *ord) {
  int64_t v = 0;
  if (!*suffix) return -1;
  for (const char *d = suffix; *d; d++) {
    if (*d < '0' || *d > '9' || v > (1 << 20)) return -1;
    v = v * 10 + (*d - '0');
  }
  *ord = (int32_t)v;
  return 0;
}

/* Whether pattern p matches name: 1 and *t the device it names. */
static int name_matches(const tc_eng *e, const tc_name_pattern *p, const char *name, tc_tag *t) {
  size_t n = strlen(p->text);
  if (!names_agree(name, p->text, p->prefix ? (long)n : -1)) return 0;
  t->backend = p->backend;
  t->ordinal = TC_TAGF_UNKNOWN;
  if (p->ordinal_from_suffix && suffix_ordinal(name + n, &t->ordinal)) return 0;
  if (e->rules->backends[p->backend].single_device) t->ordinal = 0;
  return 1;
}

/* the device a string argument names, by the rules' patterns (ggml_backend_dev_by_name
   ("CUDA1"), also through variables and parameters); any other name: one of the devices
   listed */
static void result_device_by_name(call_ctx *c) {
  const tc_result_spec *r = &c->fn->result;
  tc_sym sym = api_string_arg(c, r->arg);
  const char *name = sym ? tc_str(c->f->e->prog, sym) : NULL;
  tc_tag t = tc_tag_unknown();
  t.autodiff = 0;
  for (int i = 0; name && i < r->n_names; i++) {
    if (!name_matches(c->f->e, &r->names[i], name, &t)) continue;
    tagset s;
    memset(&s, 0, sizeof s);
    tagset_add(&s, &t);
    aval v = handle_of_set(c, &s, NULL);
    api_write_value(c, &v);
    return;
  }
  write_one_of(c);
}

/* the device of one of the handles of an array argument (a scheduler over its backends) */
static void result_one_of_array(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  operand els[TAGSET_MAX];
  int n = api_read_elements(c, r->arg, r->arg2, els, TAGSET_MAX);
  tagset s;
  memset(&s, 0, sizeof s);
  int fits = n >= 1;
  for (int j = 0; j < n && fits; j++) {
    if (els[j].v.k != AV_TENSOR) {
      fits = 0;
      break;
    }
    tagset m;
    tagset_of_tensor(e, &els[j].v, &m);
    for (uint32_t k = 0; k < m.n && fits; k++) {
      tc_tag t = m.tag[k];
      t.kind = TC_TAGF_UNKNOWN;
      fits = !tagset_add(&s, &t);
    }
  }
  aval v = fits ? handle_of_set(c, &s, els[0].prov) : av_top();
  api_write_value(c, &v);
}

/* Whether a value (at loc) says where something lives: a tensor handle or data pointer, a
   field of a device struct. Other integers (a layer's activation flag, its width) do not. */
static int says_placement(const tc_eng *e, uint32_t loc, const aval *v) {
  return v->k == AV_TENSOR || v->k == AV_DATAPTR || v->k == AV_ADDRSET || e->locs[loc].devfield;
}

/* Whether loc's subtree (or what its pointers lead to, `depth` levels deep) holds a value that
   says where something lives (a tensor, a device field). */
static int placed_values(tc_eng *e, const astate *s, uint32_t loc, int depth) {
  aval v = mem_eff(e, s, loc);
  if (says_placement(e, loc, &v)) return 1;
  if (v.k == AV_ADDR && v.loc != loc && depth > 0 && placed_values(e, s, v.loc, depth - 1)) return 1;
  for (uint32_t k = e->locs[loc].first_child; k; k = e->locs[k].next_sibling)
    if (placed_values(e, s, k, depth)) return 1;
  return 0;
}

/* Whether two values say the same thing: the same tag (and tag set, and context) of a tensor,
   the same integer, address or string. Where they came from does not matter. */
static int same_value(const aval *a, const aval *b) {
  if (a->k != b->k || a->neg != b->neg) return 0;
  switch ((av_kind)a->k) {
    case AV_TENSOR:
    case AV_DATAPTR: return tc_tag_same(a->tag, b->tag) && a->i == b->i && a->loc == b->loc;
    case AV_RANGE: return a->i == b->i && a->hi == b->hi;
    case AV_ADDR: return a->loc == b->loc && a->i == b->i;
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
    case AV_POISON: return 1;
    case AV_INT:
    case AV_NE:
    case AV_SYM:
    case AV_FUNC:
    case AV_AVAIL:
    case AV_ADDRSET:
    case AV_SETTEST:
    case AV_STR: return a->i == b->i;
  }
  return 0;
}

/* Whether objects a and b are placed differently: a field, element or pointee (`depth` pointer
   levels deep) holding a tensor or device that differs, or one only one of them has set. Two
   layers made by one constructor on one device hold the same tags in different tensors, and
   may differ in their flags and sizes: they agree. */
static int objects_differ(tc_eng *e, const astate *s, uint32_t a, uint32_t b, int depth) {
  aval va = mem_eff(e, s, a), vb = mem_eff(e, s, b);
  if (va.k == AV_ADDR && vb.k == AV_ADDR && va.loc != vb.loc && va.i == vb.i) {
    if (depth <= 0 || objects_differ(e, s, va.loc, vb.loc, depth - 1)) return 1;
  } else if ((says_placement(e, a, &va) || says_placement(e, b, &vb)) && !same_value(&va, &vb)) {
    return 1;
  }
  for (uint32_t k = e->locs[a].first_child; k; k = e->locs[k].next_sibling) {
    const eloc *l = &e->locs[k];
    uint32_t kb = loc_find_child(e, b, (loc_kind)l->kind, l->a, l->b);
    if (kb ? objects_differ(e, s, k, kb, depth) : placed_values(e, s, k, depth)) return 1;
  }
  for (uint32_t k = e->locs[b].first_child; k; k = e->locs[k].next_sibling) {
    const eloc *l = &e->locs[k];
    if (!loc_find_child(e, a, (loc_kind)l->kind, l->a, l->b) && placed_values(e, s, k, depth))
      return 1;
  }
  return 0;
}

/* Whether the address set v points to objects that stand for different things (see
   objects_differ), or into arrays, or to objects that hold alternatives themselves. */
static int targets_differ(tc_eng *e, const astate *s, const aval *v, int depth) {
  ptset t;
  av_targets(e, v, &t);
  if (t.n < 2 || depth <= 0) return 1;
  for (uint32_t i = 0; i < t.n; i++) {
    if (t.idx[i] != IDX_NONE) return 1;
    if (i > 0 && objects_differ(e, s, t.loc[0], t.loc[i], depth - 1)) return 1;
  }
  return holds_alternatives(e, s, t.loc[0], depth - 1);
}

/* Whether what loc holds (and what its pointers lead to, `depth` levels deep) stands for
   several things: one of several tags that joined values (elements stored one after another,
   paths that met), one of several objects that hold different things. One tensor made on one
   of several devices (a handle on the best device, what it placed) is one thing: each element
   read is that tensor, whose device is the one its origin's paths pick; so are several
   objects that hold the same (a std::vector of layers made on one device: each element read
   is any of them, and what is read through it is what they all hold). */
int holds_alternatives(tc_eng *e, const astate *s, uint32_t loc, int depth) {
  const aval *v = st_get(&s->mem, loc);
  const tagset *ts = v && v->k == AV_TENSOR ? tagset_get(e, (uint32_t)v->i) : NULL;
  if (ts && ts->joined) return 1;
  if (v && v->k == AV_ADDRSET && targets_differ(e, s, v, depth)) return 1;
  if (v && v->k == AV_ADDR && depth > 0 && v->loc != loc &&
      holds_alternatives(e, s, v->loc, depth - 1))
    return 1;
  for (uint32_t k = e->locs[loc].first_child; k; k = e->locs[k].next_sibling)
    if (holds_alternatives(e, s, k, depth)) return 1;
  return 0;
}

/* The call's result is a struct whose field `field` holds v (the iterator of the pair an
   insertion returns); its other fields are unknown. */
static void write_result_field(call_ctx *c, const char *field, const aval *v) {
  tc_eng *e = c->f->e;
  if (!c->in->has_dst) return;
  targets t;
  if (!mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
  aval top = av_top();
  uint32_t fid = field_id_of_name(e, field);
  for (int i = 0; i < t.n; i++) {
    int weak = t.weak || t.n > 1;
    if (!weak) mem_clear_subtree(e, c->s, t.loc[i]);
    mem_write(e, c->s, t.loc[i], &top, weak);
    uint32_t f = loc_child(e, t.loc[i], LK_FIELD, fid, 0);
    if (f) mem_write(e, c->s, f, v, weak);
  }
}

/* The constant key argument argi holds: 1 and *key for a string object made from a literal
   (its text's symbol, effect hold) or an integer constant (what the reference the key is
   passed by points to). One container has one key type, so the two never meet. */
int api_constant_key(call_ctx *c, int argi, int64_t *key) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, argi);
  int elem;
  uint32_t obj = o ? api_memory_target(c, argi, &elem) : 0;
  if (!obj) return 0;
  aval text = mem_eff(e, c->s, obj); /* a std::string holding a literal (effect hold) */
  if (text.k == AV_STR) {
    *key = text.i;
    return 1;
  }
  if (o->type.cls != TC_TY_POINTER || o->type.ptr_depth != 1 || o->type.record_name) return 0;
  aval v = mem_eff(e, c->s, obj);
  if (v.k != AV_INT) return 0;
  *key = v.i;
  return 1;
}

/* 1 when the container's elements (its `elements` pseudo-field) have one kept by its key (or
   index) on this path. */
static int has_keyed_elements(const tc_eng *e, const astate *s, uint32_t elements) {
  for (uint32_t k = e->locs[elements].first_child; k; k = e->locs[k].next_sibling)
    if (e->locs[k].kind == LK_INDEX && mem_subtree_has_values(e, s, k)) return 1;
  return 0;
}

/* The element of key `key` (its field `field` when set), kept by itself beside the summary of
   the others (an array's constant index beside its summary: iterating reads them all). The
   first time a path looks it up it is what the summary holds (the key may be one put in
   unknown), or unknown when that holds alternatives (never a guess among them). */
static uint32_t keyed_element(call_ctx *c, uint32_t obj, const char *field, int64_t key) {
  tc_eng *e = c->f->e;
  uint32_t elements = api_pseudo_field(e, obj, e->f_elements);
  uint32_t slot = elements ? loc_child(e, elements, LK_INDEX, 0, key) : 0;
  uint32_t any = elements ? loc_child(e, elements, LK_ANY, 0, 0) : 0;
  if (!slot || !any) return 0;
  if (!mem_subtree_has_values(e, c->s, slot)) {
    if (holds_alternatives(e, c->s, any, 3)) {
      aval top = av_top();
      mem_write(e, c->s, slot, &top, 0);
    } else {
      mem_copy_subtree(e, c->s, slot, any, 0, NULL);
    }
  }
  return field[0] ? loc_child(e, slot, LK_FIELD, field_id_of_name(e, field), 0) : slot;
}

/* The address of the container's elements: a pointer into them (indexing it reaches them
   all), or the address of their field. A lookup (by index or key) picks one element: one of a
   constant key is kept by itself (keyed_element); which one another key picks is not
   followed: when the elements differ, or some are kept by their key, they all become unknown
   (never a guess among them; what is written through the result joins the unknown). */
static void result_element_of_arg(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  int elem;
  uint32_t obj = api_memory_target(c, r->arg, &elem);
  uint32_t whole = obj ? api_container_elements(e, obj, r->elem_field) : 0;
  uint32_t elements = whole ? api_pseudo_field(e, obj, e->f_elements) : 0;
  aval a = av_top();
  int64_t key;
  if (obj && r->elem_inserts) api_size_mark_nonempty(e, c->s, obj);
  if (r->elem_kept_only) { /* a find: the element of a constant key this path keeps, or unknown */
    uint32_t kept = whole && api_constant_key(c, r->elem_key_arg, &key) && elements
                        ? loc_find_child(e, elements, LK_INDEX, 0, key)
                        : 0;
    if (!kept || !mem_subtree_has_values(e, c->s, kept)) {
      api_write_value(c, &a);
      if (obj && api_size_known_empty(e, c->s, obj)) api_position_write(c, TC_POS_END, obj);
      return;
    }
  }
  if (whole && r->elem_key_arg >= 0 && api_constant_key(c, r->elem_key_arg, &key)) {
    uint32_t slot = keyed_element(c, obj, r->elem_field, key);
    if (slot) {
      a = av_make(AV_ADDR, IDX_NONE);
      a.loc = slot;
      api_write_value(c, &a);
      return;
    }
  }
  if (whole && r->elem_lookup) {
    aval top = av_top();
    if (has_keyed_elements(e, c->s, elements))
      mem_write(e, c->s, elements, &top, 0);
    else if (holds_alternatives(e, c->s, whole, 3))
      mem_write(e, c->s, whole, &top, 0);
  }
  if (whole) {
    a = av_make(AV_ADDR, IDX_NONE);
    if (r->elem_field[0]) {
      a.loc = whole;
    } else {
      a.loc = elements;
      a.i = IDX_ANY;
    }
  }
  if (r->elem_in_field[0]) {
    write_result_field(c, r->elem_in_field, &a);
  } else {
    api_write_value(c, &a);
    api_position_write(c, r->elem_position, obj);
  }
}

/* What the object the argument points to holds: an iterator's element address. */
static void result_value_at_arg(call_ctx *c) {
  int elem;
  uint32_t obj = api_memory_target(c, c->fn->result.arg, &elem);
  aval v = obj ? mem_eff(c->f->e, c->s, obj) : av_top();
  v.drel = DR_NONE;
  api_write_value(c, &v);
}

/* The size of the container the argument points to: at least 1 once an element was put in
   (api_size.c), 0 while it is known empty, else unknown. */
static void result_size_of_arg(call_ctx *c) {
  int elem;
  uint32_t obj = api_memory_target(c, c->fn->result.arg, &elem);
  aval v = !obj                                       ? av_top()
           : api_size_nonempty(c->f->e, c->s, obj)    ? av_range(1, INT64_MAX)
           : api_size_known_empty(c->f->e, c->s, obj) ? av_make(AV_INT, 0)
                                                      : av_top();
  api_write_value(c, &v);
}

/* How many of its elements have a key: 0 while the container is known empty, else unknown. */
static void result_key_count_of_arg(call_ctx *c) {
  int elem;
  uint32_t obj = api_memory_target(c, c->fn->result.arg, &elem);
  aval v = obj && api_size_known_empty(c->f->e, c->s, obj) ? av_make(AV_INT, 0) : av_top();
  api_write_value(c, &v);
}

/* Whether that container is empty: 0 once an element was put in, else unknown. */
static void result_empty_of_arg(call_ctx *c) {
  int elem;
  uint32_t obj = api_memory_target(c, c->fn->result.arg, &elem);
  aval v = api_size_empty(c->f->e, c->s, obj);
  api_write_value(c, &v);
}

/* it == end(), it != end() of iterators whose positions are known (api_size.c) */
static void result_iterators_equal(call_ctx *c) {
  aval v = api_iterators_equal(c, c->fn->result.arg, c->fn->result.arg2);
  api_write_value(c, &v);
}

static void result_iterators_differ(call_ctx *c) {
  aval v = api_iterators_equal(c, c->fn->result.arg, c->fn->result.arg2);
  if (v.k == AV_INT) v.i = !v.i;
  api_write_value(c, &v);
}

/* Writes what the call's result is, as its description in the rules says: result_<key> above
   (rules.def), result_none for a function with no "result". */
void api_apply_result(call_ctx *c) {
  switch (c->fn->result.what) {
    case TC_RES_NONE:
      result_none(c);
      return;
#define TC_RESULT(E, key, shape) \
  case TC_RES_##E:               \
    result_##key(c);             \
    return;
#include "rules/rules.def"
#undef TC_RESULT
  }
}
