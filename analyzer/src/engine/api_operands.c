/* analyzer/src/engine/api_operands.c — the operands of an API call as its checks and
 * results read them: devices, tensors (one of a tag set's members while checks run per
 * choice), the elements of an array, data pointers, integer arguments, the objects pointer
 * arguments designate; and the pseudo-fields an API keeps state in. */
#include <stdio.h>
#include <string.h>

#include "engine/api_call.h"

/* An operand of tag set op->ts: registered (first pass), or given the member chosen for it. */
static void apply_choice(call_ctx *c, operand *op) {
  const tagset *ts = tagset_get(c->f->e, op->ts);
  if (!ts) return;
  int i = 0;
  while (i < c->n_sets && c->vars[i] != ts->var) i++;
  if (!c->choosing) {
    if (i == c->n_sets) {
      if (c->n_sets < 4) {
        c->vars[c->n_sets] = ts->var;
        c->sets[c->n_sets++] = op->ts;
      } else {
        c->sets_overflow = 1;
      }
    }
    return;
  }
  if (i == c->n_sets || c->choice[i] >= ts->n) return;
  int32_t kind = op->tag.kind;
  op->tag = ts->tag[c->choice[i]];
  if (op->is_device) op->tag.kind = kind;
}

/* Pseudo-fields of the objects an API keeps state in (no C identifier spells them): a
   context's placement, what a graph recorded, the context an object was made in. */
#define PF_PLACEMENT "$placement"
#define PF_TAG "$tag"
#define PF_CONTEXT "$context"
#define PF_MEMBERS "$members" /* a context's tensors, joined: what a lookup may return */
#define PF_NODES "$nodes"     /* a graph's node set: element k is 1 for the tensors of slot k */
#define PF_ELEMENTS "$elements" /* a container's elements, as an array of unknown length */
#define PF_SOURCES "$sources" /* a graph's other source placements (api_effects.c) */
#define PF_MEMORY "$memory"   /* a graph's tensor with no memory yet (api_effects.c) */
#define PF_COUNT "$count"     /* a container's size: [1, ∞) once an element was put in */
#define PF_AT "$at"           /* an iterator's position (api_size.c) */
#define PF_NAMES "$names"     /* a context's named tensors: element k named by symbol k */
#define PF_NAME_PATTERNS "$name_patterns" /* by a format's symbol (0: a name not known) */

void api_prepare(tc_eng *e) {
  e->f_placement = field_id_of_name(e, PF_PLACEMENT);
  e->f_tag = field_id_of_name(e, PF_TAG);
  e->f_context = field_id_of_name(e, PF_CONTEXT);
  e->f_members = field_id_of_name(e, PF_MEMBERS);
  e->f_nodes = field_id_of_name(e, PF_NODES);
  e->f_elements = field_id_of_name(e, PF_ELEMENTS);
  e->f_sources = field_id_of_name(e, PF_SOURCES);
  e->f_memory = field_id_of_name(e, PF_MEMORY);
  e->f_count = field_id_of_name(e, PF_COUNT);
  e->f_at = field_id_of_name(e, PF_AT);
  e->f_names = field_id_of_name(e, PF_NAMES);
  e->f_name_patterns = field_id_of_name(e, PF_NAME_PATTERNS);
  e->f_data = e->rules->data_field ? field_id_of_name(e, e->rules->data_field) : 0;
  e->f_buffer = e->rules->buffer_field ? field_id_of_name(e, e->rules->buffer_field) : 0;
  e->f_view_src = e->rules->view_src_field ? field_id_of_name(e, e->rules->view_src_field) : 0;
  e->f_kind = e->rules->kind_field ? field_id_of_name(e, e->rules->kind_field) : 0;
}

aval api_kind_value(const tc_eng *e, const tc_tag *tag) {
  if (!TC_TAGF_KNOWN(tag->kind) || (size_t)tag->kind >= e->rules->n_kinds) return av_top();
  return av_make(AV_INT, e->rules->kinds[tag->kind].value);
}

uint32_t api_pseudo_field(tc_eng *e, uint32_t obj, uint32_t field) {
  return obj ? loc_child(e, obj, LK_FIELD, field, 0) : 0;
}

uint32_t api_container_elements(tc_eng *e, uint32_t obj, const char *field) {
  uint32_t any = loc_child(e, api_pseudo_field(e, obj, e->f_elements), LK_ANY, 0, 0);
  return field[0] && any ? loc_child(e, any, LK_FIELD, field_id_of_name(e, field), 0) : any;
}

/* The description of backend index b, or NULL when b is not known. */
const tc_backend_def *api_backend_def(const tc_eng *e, int32_t b) {
  return TC_TAGF_KNOWN(b) && (size_t)b < e->rules->n_backends ? &e->rules->backends[b] : NULL;
}

const tc_opnd *api_arg_of(const call_ctx *c, int i) {
  uint32_t k = (uint32_t)(i + c->fn->leading_args);
  return i >= 0 && k < c->in->n_args ? &c->in->args[k] : NULL;
}

static void opnd_name(const tc_eng *e, const tc_opnd *o, int index, char *buf, size_t len) {
  const char *sp = (o && (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR))
                       ? tc_str(e->prog, o->path.spelling)
                       : "";
  if (sp[0])
    snprintf(buf, len, "%s", sp);
  else
    snprintf(buf, len, "argument %d", index + 1);
}

static int32_t tagf_of_int(const aval *v, int as_bool) {
  switch ((av_kind)v->k) {
    case AV_INT:
      if (as_bool) return v->i != 0;
      return v->i >= 0 && v->i <= INT32_MAX ? (int32_t)v->i : TC_TAGF_UNKNOWN;
    case AV_NE:
      return as_bool && v->i == 0 ? 1 : TC_TAGF_UNKNOWN;
    case AV_RANGE: /* truthy when 0 is not in it */
      return as_bool && (v->i > 0 || v->hi < 0) ? 1 : TC_TAGF_UNKNOWN;
    case AV_SYM:
      return v->i >= 0 && v->i < INT32_MAX / 2 ? TC_TAGF_SYM(v->i) : TC_TAGF_UNKNOWN;
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
    case AV_ADDR:
    case AV_FUNC:
    case AV_TENSOR:
    case AV_AVAIL:
    case AV_SETTEST:
    case AV_STR:
    case AV_ADDRSET:
    case AV_POISON:
    case AV_DATAPTR:
      return TC_TAGF_UNKNOWN;
  }
  return TC_TAGF_UNKNOWN;
}

static int32_t backend_of_int(tc_eng *e, const aval *v) {
  if (v->k == AV_INT) return tc_rules_backend_by_value(e->rules, v->i);
  return v->k == AV_SYM ? tagf_of_int(v, 0) : TC_TAGF_UNKNOWN;
}

void api_read_device(call_ctx *c, int argi, operand *op) {
  tc_eng *e = c->f->e;
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  op->is_device = 1;
  const tc_opnd *o = api_arg_of(c, argi);
  opnd_name(e, o, argi, op->name, sizeof op->name);
  if (o) op->arg_pos = argi + c->fn->leading_args + 1;
  if (!o || o->kind != TC_OPND_PATH) return;
  op->present = 1;
  const struct devtype *dt = devtype_for(e, &o->type);
  targets t;
  if (!dt || !mem_resolve(c->f, c->s, &o->path, &t)) return;
  aval fv[3];
  tagset members;
  if (device_members_at(e, c->s, dt, &t, fv, &members) && members.n > 1)
    op->ts = tagset_intern(e, &members);
  for (int k = 0; k < 3; k++)
    if (fv[k].k == AV_POISON) op->poison = c->poisoned = 1;
  op->tag.backend = backend_of_int(e, &fv[0]);
  op->tag.ordinal = tagf_of_int(&fv[1], 0);
  op->tag.autodiff = tagf_of_int(&fv[2], 1);
  op->prov = fv[0].prov ? fv[0].prov : fv[1].prov ? fv[1].prov : fv[2].prov;
  apply_choice(c, op);
}

/* An unknown tensor handle held at loc: a tag of symbols named after loc. */
static aval symbolic_tensor(uint32_t loc) {
  aval v = av_make(AV_TENSOR, 0);
  v.tag.backend = TC_TAGF_SYM(sym_of_loc(loc, 0));
  v.tag.ordinal = TC_TAGF_SYM(sym_of_loc(loc, 1));
  v.tag.autodiff = TC_TAGF_SYM(sym_of_loc(loc, 2));
  v.tag.kind = TC_TAGF_SYM(sym_of_loc(loc, 3));
  return v;
}

void api_read_tensor(call_ctx *c, int argi, operand *op) {
  tc_eng *e = c->f->e;
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  const tc_opnd *o = api_arg_of(c, argi);
  opnd_name(e, o, argi, op->name, sizeof op->name);
  if (!o) return;
  op->arg_pos = argi + c->fn->leading_args + 1;
  op->present = 1;
  uint32_t single = 0;
  op->v = mem_eval(c->f, c->s, o, &single);
  if (op->v.k == AV_BOT) {
    /* never written on this path (an uninitialized slot: the loop that fills it did not run
       here): the program cannot get here with it, so this path neither passes nor fails */
    op->poison = c->poisoned = 1;
    return;
  }
  if (op->v.k == AV_TOP && single && o->kind == TC_OPND_PATH) {
    op->v = symbolic_tensor(single);
    mem_write(e, c->s, single, &op->v, 0);
  }
  if (op->v.k == AV_ADDR && op->v.i == IDX_NONE) {
    /* an object that recorded the tensors given to it (a graph): their placement */
    uint32_t rec = loc_find_child(e, op->v.loc, LK_FIELD, e->f_tag, 0);
    if (rec) op->v = mem_eff(e, c->s, rec);
  }
  if (op->v.k == AV_TENSOR) {
    op->tag = op->v.tag;
    op->prov = op->v.prov;
    op->ts = tagset_get(e, (uint32_t)op->v.i) ? (uint32_t)op->v.i : 0;
    apply_choice(c, op);
  }
  if (op->v.k == AV_POISON) op->poison = c->poisoned = 1;
  /* a NULL handle fails the call before any tag is compared (and aborts by default): this
     path ends here, it neither passes nor fails a tag check (a lookup that found nothing) */
  if (op->v.k == AV_INT && op->v.i == 0) op->poison = c->poisoned = 1;
}

/* The text of string argument argi when it is known to be one literal (at the call, or carried
   there by variables, parameters, fields and string objects holding it): its symbol, else 0. */
tc_sym api_string_arg(call_ctx *c, int argi) {
  const tc_opnd *o = api_arg_of(c, argi);
  aval text = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  if (text.k == AV_ADDR && text.i == IDX_NONE) /* a string object holding the text */
    text = mem_eff(c->f->e, c->s, text.loc);
  return text.k == AV_STR ? (tc_sym)text.i : 0;
}

/* The source placements graph argument argi recorded besides its first ($sources): up to
   max operands, named after the argument; 0 for anything else. */
int api_read_sources(call_ctx *c, int argi, operand *out, int max) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, argi);
  aval g = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  if (g.k != AV_ADDR || g.i != IDX_NONE) return 0;
  uint32_t srcs = loc_find_child(e, g.loc, LK_FIELD, e->f_sources, 0);
  int n = 0;
  for (uint32_t k = srcs ? e->locs[srcs].first_child : 0; k && n < max;
       k = e->locs[k].next_sibling) {
    aval v = mem_eff(e, c->s, k);
    if (v.k != AV_TENSOR) continue;
    operand *op = &out[n++];
    memset(op, 0, sizeof *op);
    opnd_name(e, o, argi, op->name, sizeof op->name);
    op->arg_pos = argi + c->fn->leading_args + 1;
    op->present = 1;
    op->v = v;
    op->tag = v.tag;
    op->prov = v.prov;
  }
  return n;
}

/* The tensor with no memory yet that graph argument argi holds ($memory), in op: not a
   tensor when it holds none (or it is not known); op->present when the graph is known. */
void api_read_graph_memory(call_ctx *c, int argi, operand *op) {
  tc_eng *e = c->f->e;
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  op->v = av_top();
  const tc_opnd *o = api_arg_of(c, argi);
  opnd_name(e, o, argi, op->name, sizeof op->name);
  if (!o) return;
  op->arg_pos = argi + c->fn->leading_args + 1;
  aval g = mem_eval(c->f, c->s, o, NULL);
  if (g.k != AV_ADDR || g.i != IDX_NONE) return;
  uint32_t at = loc_find_child(e, g.loc, LK_FIELD, e->f_memory, 0);
  aval v = at ? mem_eff(e, c->s, at) : av_make(AV_INT, 0);
  if (v.k == AV_INT && v.i == 0) {
    op->present = 1; /* a graph known to hold no such tensor */
    return;
  }
  if (v.k == AV_POISON) op->poison = c->poisoned = 1; /* a consequence of a finding */
  if (v.k != AV_TENSOR) return;
  op->present = 1;
  op->v = v;
  op->tag = v.tag;
  op->prov = v.prov;
}

/* The elements of an array argument that points into a container's elements (`v.data()`,
   one summary for all of them): when the summary holds one tensor tag (not one of several),
   every element has it, however many there are — read as one element; -1 otherwise. */
static int summary_elements(call_ctx *c, const tc_opnd *ao, int array_arg, const aval *base,
                            operand *out) {
  tc_eng *e = c->f->e;
  uint32_t any = e->locs[base->loc].kind == LK_ANY ? base->loc
                                                   : loc_find_child(e, base->loc, LK_ANY, 0, 0);
  aval v = any ? mem_eff(e, c->s, any) : av_top();
  const tagset *ts = v.k == AV_TENSOR ? tagset_get(e, (uint32_t)v.i) : NULL;
  if (v.k != AV_TENSOR || (ts && ts->joined)) return -1;
  char base_name[80];
  opnd_name(e, ao, array_arg, base_name, sizeof base_name);
  operand *op = &out[0];
  memset(op, 0, sizeof *op);
  op->present = 1;
  op->v = v;
  op->tag = v.tag;
  op->prov = v.prov;
  snprintf(op->name, sizeof op->name, "%s[i]", base_name);
  return 1;
}

/* The elements of an array argument: up to max, from `count` when it is known. Returns the
   number read, or -1 when they cannot be enumerated. */
int api_read_elements(call_ctx *c, int array_arg, int count_arg, operand *out, int max) {
  tc_eng *e = c->f->e;
  const tc_opnd *ao = api_arg_of(c, array_arg);
  if (!ao) return -1;
  aval base = mem_eval(c->f, c->s, ao, NULL);
  if (base.k == AV_ADDR && base.i == IDX_ANY) return summary_elements(c, ao, array_arg, &base, out);
  if (base.k != AV_ADDR) return -1;
  int64_t n = -1;
  if (count_arg >= 0) {
    const tc_opnd *co = api_arg_of(c, count_arg);
    aval cv = co ? mem_eval(c->f, c->s, co, NULL) : av_top();
    if (cv.k == AV_INT) n = cv.i;
  }
  if (n < 1 || n > max) return -1;
  char base_name[80];
  opnd_name(e, ao, array_arg, base_name, sizeof base_name);
  int64_t first = base.i == IDX_NONE ? 0 : base.i;
  if (base.i == IDX_NONE && !e->locs[base.loc].is_array && n != 1) return -1;
  for (int64_t j = 0; j < n; j++) {
    operand *op = &out[j];
    memset(op, 0, sizeof *op);
    op->present = 1;
    op->tag = tc_tag_unknown();
    uint32_t loc = (base.i == IDX_NONE && !e->locs[base.loc].is_array)
                       ? base.loc
                       : loc_child(e, base.loc, LK_INDEX, 0, first + j);
    op->v = loc ? mem_eff(e, c->s, loc) : av_top();
    if (op->v.k == AV_POISON) op->poison = c->poisoned = 1;
    if (op->v.k == AV_TENSOR) {
      op->tag = op->v.tag;
      op->prov = op->v.prov;
    }
    snprintf(op->name, sizeof op->name, "%s[%lld]", base_name, (long long)(first + j));
  }
  return (int)n;
}

void api_read_pointer(call_ctx *c, int argi, operand *op) {
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  const tc_opnd *o = api_arg_of(c, argi);
  opnd_name(c->f->e, o, argi, op->name, sizeof op->name);
  if (!o) return;
  op->arg_pos = argi + c->fn->leading_args + 1;
  op->present = 1;
  op->v = mem_eval(c->f, c->s, o, NULL);
  if (op->v.k == AV_DATAPTR) {
    op->tag = op->v.tag;
    op->prov = op->v.prov;
    op->ts = tagset_get(c->f->e, (uint32_t)op->v.i) ? (uint32_t)op->v.i : 0;
    apply_choice(c, op);
  }
  if (op->v.k == AV_POISON) op->poison = c->poisoned = 1;
}

/* ------------------------------------------------------------------ results */

/* The object a pointer argument designates, or 0 (unknown, or inside an array). */
uint32_t api_struct_arg_field(call_ctx *c, int argi, const char *name) {
  const tc_opnd *o = api_arg_of(c, argi);
  targets t;
  if (!name || !o || o->kind != TC_OPND_PATH || !mem_resolve(c->f, c->s, &o->path, &t) || t.n != 1)
    return 0;
  return loc_child(c->f->e, t.loc[0], LK_FIELD, field_id_of_name(c->f->e, name), 0);
}

uint32_t api_pointee_of(call_ctx *c, int argi) {
  const tc_opnd *o = api_arg_of(c, argi);
  if (!o) return 0;
  aval v = mem_eval(c->f, c->s, o, NULL);
  if (v.k != AV_ADDR || (v.i != IDX_NONE && v.i != 0)) return 0;
  return v.loc;
}

/* The argument names an array itself (`memset(reps, 0, sizeof reps)`: the name decays to a
   pointer to element 0), not an element of it nor a pointer held somewhere. */
static int names_whole_array(const tc_opnd *o) {
  if (o->kind != TC_OPND_ADDR) return 0;
  if (!o->path.n_elems) return 1;
  tc_elem_kind last = o->path.elems[o->path.n_elems - 1].kind;
  return last != TC_ELEM_INDEX && last != TC_ELEM_INDEX_ANY;
}

/* The object a memory function's pointer argument starts at: the object itself, the whole
   array when the argument names the array, else element i of the array pointed into
   (`memset(&reps[k], 0, sizeof reps[k])`, or through a `rep *r`: one replica, even for k = 0).
   *elem says it is an element: the byte count is not known in elements (the IR knows no
   sizes), so the caller forgets the elements after it. 0 when not known. */
uint32_t api_memory_target(call_ctx *c, int argi, int *elem) {
  const tc_opnd *o = api_arg_of(c, argi);
  *elem = 0;
  if (!o) return 0;
  aval v = mem_eval(c->f, c->s, o, NULL);
  if (v.k != AV_ADDR || v.i == IDX_ANY) return 0;
  if (v.i == IDX_NONE || (v.i == 0 && names_whole_array(o))) return v.loc;
  if (v.i == 0 && !c->f->e->locs[v.loc].is_array) return v.loc; /* a lone object */
  *elem = 1;
  return loc_child(c->f->e, v.loc, LK_INDEX, 0, v.i);
}

int32_t api_int_arg_field(call_ctx *c, int argi, int as_backend) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, argi);
  if (!o) return TC_TAGF_UNKNOWN;
  uint32_t single = 0;
  aval v = mem_eval(c->f, c->s, o, &single);
  if ((v.k == AV_TOP || v.k == AV_BOT) && single) v = mem_read_materialized(e, c->s, single, 0);
  return as_backend ? backend_of_int(e, &v) : tagf_of_int(&v, 0);
}

/* The contexts object pointer argi may point to, or that the objects it may point to
   remember (a graph made in one of several contexts: one per trip of a loop); how many. */
int api_contexts_of_arg(call_ctx *c, int argi, ptset *out) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = api_arg_of(c, argi);
  aval p = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
  ptset objs;
  av_targets(e, &p, &objs);
  out->n = 0;
  for (uint32_t i = 0; i < objs.n; i++) {
    uint32_t via = loc_find_child(e, objs.loc[i], LK_FIELD, e->f_context, 0);
    aval v = via ? mem_eff(e, c->s, via) : av_make(AV_ADDR, IDX_NONE);
    if (!via) v.loc = objs.loc[i];
    ptset ctxs;
    av_targets(e, &v, &ctxs);
    if (!ctxs.n) return 0; /* one of them is not known */
    for (uint32_t k = 0; k < ctxs.n && out->n < PTS_MAX; k++) out->loc[out->n++] = ctxs.loc[k];
  }
  return (int)out->n;
}

/* The context object argi points to, or the context the object it points to remembers (a
   graph made in a context); 0 when not known. */
uint32_t api_context_of_arg(call_ctx *c, int argi) {
  tc_eng *e = c->f->e;
  uint32_t ctx = api_pointee_of(c, argi);
  uint32_t via = ctx ? loc_find_child(e, ctx, LK_FIELD, e->f_context, 0) : 0;
  if (via) {
    aval v = mem_eff(e, c->s, via);
    ctx = v.k == AV_ADDR && v.i == IDX_NONE ? v.loc : 0;
  }
  return ctx;
}
