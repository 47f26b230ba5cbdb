/* analyzer/src/engine/api_effects.c — what an API call does to memory through its pointer
 * arguments, from its description in the rules (rules.def's TC_EFFECT rows, one
 * effect_<name> each): copies, fills, writes, and the placements of tensors (a context's bound
 * to a buffer, one tensor placed, a graph recording where its nodes live). */
#include <string.h>

#include "engine/api_call.h"

static void havoc_arg(call_ctx *c, int argi) {
  const tc_opnd *o = api_arg_of(c, argi);
  if (!o) return;
  aval v = mem_eval(c->f, c->s, o, NULL);
  ptset pts;
  av_targets(c->f->e, &v, &pts);
  for (uint32_t i = 0; i < pts.n; i++) mem_havoc_reachable(c->f->e, c->s, pts.loc[i]);
}

/* The tensors of a context that are in no memory yet take the device of ef->arg2's handle
   (unknown without one): ggml_backend_alloc_ctx_tensors. The context is the object
   ef->arg points to, or the context that object remembers (a graph's). Tensors made later
   in the context stay where it places them. */
static void effect_bind_context(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t ctx = api_pointee_of(c, ef->arg);
  uint32_t via = ctx ? loc_find_child(e, ctx, LK_FIELD, e->f_context, 0) : 0;
  if (via) {
    aval v = mem_eff(e, c->s, via);
    ctx = v.k == AV_ADDR && v.i == IDX_NONE ? v.loc : 0;
  }
  if (!ctx) return;
  tc_tag dev = tc_tag_unknown();
  if (ef->arg2 >= 0) {
    operand op;
    api_read_tensor(c, ef->arg2, &op);
    if (op.v.k == AV_TENSOR) dev = op.tag;
  }
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || v->loc != ctx) continue;
    const tc_backend_def *b = api_backend_def(e, v->tag.backend);
    if (b && !b->no_memory) continue; /* already has memory */
    aval nv = *v;
    nv.i = 0; /* one placement now, whatever set of tags it had */
    nv.tag.backend = dev.backend;
    nv.tag.ordinal = dev.ordinal;
    nv.tag.autodiff = dev.autodiff;
    nv.prov = prov_new(e, PV_PLACED, v->prov, &c->in->loc, c->in->callee.name, 0, nv.tag);
    st_set(e, &c->s->mem, id, &nv);
  }
}

/* Object *ef->arg (a graph) records where tensor ef->arg2 lives, if it is the first tensor
   in a buffer given to it; a graph's backend must then agree with it. */
static void effect_record(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t obj = api_pointee_of(c, ef->arg);
  if (!obj) return;
  uint32_t rec = api_pseudo_field(e, obj, e->f_tag);
  aval cur = mem_eff(e, c->s, rec);
  /* the first one decides (a new object's pseudo-field reads as its zero fill) */
  if (cur.k != AV_BOT && !(cur.k == AV_INT && cur.i == 0)) return;
  operand op;
  api_read_tensor(c, ef->arg2, &op);
  const tc_backend_def *b = api_backend_def(e, op.tag.backend);
  if (op.v.k == AV_TENSOR && b && b->no_buffer) return; /* says nothing about buffers */
  aval v = op.v.k == AV_TENSOR && b ? op.v : av_top();
  mem_write(e, c->s, rec, &v, 0);
}

/* The step that made a tensor handle what it is (an API call made or placed it), past the
   steps that only moved it (stores, parameters, returns): two handles of one origin and one
   context are one tensor. */
const prov *api_handle_origin(const prov *p) {
  while (p && p->prev && (p->kind == PV_ASSIGN || p->kind == PV_PARAM || p->kind == PV_RETURN))
    p = p->prev;
  return p;
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
  if (ef->arg >= 0) {
    operand op;
    api_read_tensor(c, ef->arg, &op);
    if (op.v.k == AV_TENSOR) {
      dev = op.tag;
      src = op.prov;
    }
  }
  aval nv = t.v;
  nv.i = 0; /* one placement now */
  nv.tag.backend = dev.backend;
  nv.tag.ordinal = dev.ordinal;
  nv.tag.autodiff = dev.autodiff;
  nv.prov =
      prov_new(e, PV_PLACED, src ? src : t.v.prov, &c->in->loc, c->in->callee.name, 0, nv.tag);
  const prov *was = api_handle_origin(t.v.prov);
  if (was) {
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

/* *ef->arg and what it reaches become unknown */
static void effect_writes(call_ctx *c, const tc_effect *ef) { havoc_arg(c, ef->arg); }

/* Applies the call's effects in order: effect_<name> above (rules.def). */
void api_apply_effects(call_ctx *c) {
  /* a result that reads memory the effects write (load_arg) reads it first */
  if (c->fn->result.what == TC_RES_LOAD_ARG) c->loaded = api_load_arg(c, c->fn->result.arg);
  for (size_t i = 0; i < c->fn->n_effects; i++) {
    const tc_effect *ef = &c->fn->effects[i];
    switch (ef->kind) {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2) \
  case TC_EFFECT_##E:                                                      \
    effect_##name(c, ef);                                                  \
    break;
#include "rules/rules.def"
#undef TC_EFFECT
    }
  }
}
