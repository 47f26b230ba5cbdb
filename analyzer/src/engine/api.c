/* analyzer/src/engine/api.c — what an API call does, read from the rules: its checks, in the
 * precedence of SPEC §4 (autodiff-nested, autodiff-expected, autodiff-inner-backend /
 * backend-mismatch, device-mismatch, kind-mismatch, then backend-unavailable), each deciding
 * pass / fail / unknown for one state, and the value its result gets (a device, a tensor with a
 * tag, an availability test, fresh memory, …). Failures become outcomes (findings.c) with a
 * message naming the operation, both tags and where each came from. Unknown tags never fail. */
#include <stdio.h>
#include <string.h>

#include "engine/eng.h"

/* ------------------------------------------------------------------ operands */

/* Objects one allocation site keeps apart per calling context on one path (docs/engine.md). */
#define HEAP_ORDINALS 8

typedef struct operand {
  int present;
  int index;       /* its position among the operands checked together (0-based) */
  int poison;      /* the value comes from a call already flagged */
  aval v;          /* tensors: the handle's value */
  tc_tag tag;      /* tensors and devices */
  const prov *prov;
  char name[96];   /* how the source spells it */
  int is_device;
  uint32_t ts;     /* one of the tags of this tag set (tagset.c), 0: tag says it all */
  int arg_pos;     /* 1 + its index among the call's arguments; 0: no one argument (fix-its) */
} operand;

typedef struct call_ctx {
  frame *f;
  astate *s;
  const tc_insn *in;
  const tc_api_fn *fn;
  operand ops[72];
  int n_ops;
  int poisoned; /* some operand read comes from a call already flagged */
  const char *op_name; /* what messages call the operation when it is no call (else NULL) */
  /* Origins of the tag sets among the operands (tagset.c: a set's `var`; one set of each in
     sets[]): checks run once per choice of a position for each (check_choices); while
     `choosing`, an operand whose set has origin vars[i] reads as its member choice[i]. */
  uint32_t vars[4], sets[4];
  uint32_t choice[4];
  int n_sets, sets_overflow, choosing;
} call_ctx;

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
#define PF_ELEMENTS "$elements" /* a container's elements, as an array of unknown length */

void api_prepare(tc_eng *e) {
  e->f_placement = field_id_of_name(e, PF_PLACEMENT);
  e->f_tag = field_id_of_name(e, PF_TAG);
  e->f_context = field_id_of_name(e, PF_CONTEXT);
  e->f_elements = field_id_of_name(e, PF_ELEMENTS);
  e->f_data = e->rules->data_field ? field_id_of_name(e, e->rules->data_field) : 0;
  e->f_buffer = e->rules->buffer_field ? field_id_of_name(e, e->rules->buffer_field) : 0;
  e->f_view_src = e->rules->view_src_field ? field_id_of_name(e, e->rules->view_src_field) : 0;
}

static uint32_t pseudo_field(tc_eng *e, uint32_t obj, uint32_t field) {
  return obj ? loc_child(e, obj, LK_FIELD, field, 0) : 0;
}

/* The description of backend index b, or NULL when b is not known. */
static const tc_backend_def *backend_def(const tc_eng *e, int32_t b) {
  return TC_TAGF_KNOWN(b) && (size_t)b < e->rules->n_backends ? &e->rules->backends[b] : NULL;
}

static const tc_opnd *arg_of(const call_ctx *c, int i) {
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

/* The value of a place, made a symbol when nothing is known and it is one place (so that
   two reads of the same unknown agree). The symbol is named after the place, so a loop that
   reads an unknown again and again reaches a fixpoint. */
static aval read_materialized(tc_eng *e, astate *s, uint32_t loc, int weak) {
  aval v = mem_eff(e, s, loc);
  if (!weak && (v.k == AV_TOP || v.k == AV_BOT)) {
    v = av_make(AV_SYM, sym_of_loc(loc, 0));
    mem_write(e, s, loc, &v, 0);
  }
  return v;
}

static void read_device(call_ctx *c, int argi, operand *op) {
  tc_eng *e = c->f->e;
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  op->is_device = 1;
  const tc_opnd *o = arg_of(c, argi);
  opnd_name(e, o, argi, op->name, sizeof op->name);
  if (o) op->arg_pos = argi + c->fn->leading_args + 1;
  if (!o || o->kind != TC_OPND_PATH) return;
  op->present = 1;
  const struct devtype *dt = devtype_for(e, &o->type);
  targets t;
  if (!dt || !mem_resolve(c->f, c->s, &o->path, &t)) return;
  int weak = t.weak || t.n > 1;
  uint32_t fids[3] = {dt->f_backend, dt->f_ordinal, dt->f_autodiff};
  aval fv[3];
  tagset members = {0};
  int members_known = 1;
  for (int j = 0; j < t.n; j++) {
    aval one[3];
    for (int k = 0; k < 3; k++) {
      uint32_t fl = loc_child(e, t.loc[j], LK_FIELD, fids[k], 0);
      one[k] = fl ? read_materialized(e, c->s, fl, weak) : av_top();
      fv[k] = j ? av_join(e, &fv[k], &one[k]) : one[k];
    }
    /* the devices this element can be, added to those of the others (a table of devices
       indexed by a value read from input is one of them) */
    tagset m, u;
    if (!members_known || !device_members(e, one, &m)) {
      members_known = 0;
      continue;
    }
    if (!j) {
      members = m; /* one place: its set as it is (its origin kept) */
    } else if (tagset_union(&members, &m, &u)) {
      members_known = 0;
    } else {
      members = u;
    }
  }
  if (members_known && members.n > 1) op->ts = tagset_intern(e, &members);
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

static void read_tensor(call_ctx *c, int argi, operand *op) {
  tc_eng *e = c->f->e;
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  const tc_opnd *o = arg_of(c, argi);
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

/* The elements of an array argument: up to max, from `count` when it is known. Returns the
   number read, or -1 when they cannot be enumerated. */
static int read_elements(call_ctx *c, int array_arg, int count_arg, operand *out, int max) {
  tc_eng *e = c->f->e;
  const tc_opnd *ao = arg_of(c, array_arg);
  if (!ao) return -1;
  aval base = mem_eval(c->f, c->s, ao, NULL);
  if (base.k != AV_ADDR || base.i == IDX_ANY) return -1;
  int64_t n = -1;
  if (count_arg >= 0) {
    const tc_opnd *co = arg_of(c, count_arg);
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

/* ------------------------------------------------------------------ checks */

typedef enum chk_status { CHK_PASS = 0, CHK_UNKNOWN, CHK_FAIL } chk_status;

typedef struct chk_res {
  chk_status st;
  tc_rule_slot rule;
  tc_msg_slot msg;
  const operand *expected, *got; /* the two sides (got alone for one-operand rules) */
  const operand *all;            /* KINDS: every operand */
  int n_all;
  const char *why;
  int backend;
  int check; /* the tc_check_kind that decided (fix-its) */
} chk_res;

static chk_res pass(void) {
  chk_res r;
  memset(&r, 0, sizeof r);
  r.st = CHK_PASS;
  return r;
}

static chk_res unknown(void) {
  chk_res r = pass();
  r.st = CHK_UNKNOWN;
  return r;
}

static chk_res fail(tc_rule_slot rule, tc_msg_slot msg, const operand *expected,
                    const operand *got) {
  chk_res r = pass();
  r.st = CHK_FAIL;
  r.rule = rule;
  r.msg = msg;
  r.expected = expected;
  r.got = got;
  return r;
}

typedef int32_t (*field_fn)(const tc_tag *t);
static int32_t f_autodiff(const tc_tag *t) { return t->autodiff; }
static int32_t f_backend(const tc_tag *t) { return t->backend; }
static int32_t f_ordinal(const tc_tag *t) { return t->ordinal; }
static int32_t f_kind(const tc_tag *t) { return t->kind; }

/* Compares one field over operands: a pair certainly different -> *i,*j set, returns NO;
   some pair undecided -> UNKNOWN; all equal -> YES. */
static tc_tri compare_field(const operand *ops, int n, field_fn fld, int *pi, int *pj) {
  tc_tri res = TC_TRI_YES;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      tc_tri t = tc_tagf_equal(fld(&ops[i].tag), fld(&ops[j].tag));
      if (t == TC_TRI_NO) {
        *pi = i;
        *pj = j;
        return TC_TRI_NO;
      }
      if (t == TC_TRI_UNKNOWN) res = TC_TRI_UNKNOWN;
    }
  return res;
}

static chk_res agree_fail(tc_rule_slot rule, tc_msg_slot msg, const operand *ops, int n, int i,
                          int j) {
  chk_res r = fail(rule, msg, &ops[i], &ops[j]);
  r.all = ops; /* every operand, for the fix-it (the message names the two) */
  r.n_all = n;
  return r;
}

static chk_res check_agree(const operand *ops, int n) {
  for (int i = 0; i < n; i++)
    if (ops[i].v.k != AV_TENSOR) return unknown();
  int i = 0, j = 0;
  tc_tri t = compare_field(ops, n, f_autodiff, &i, &j);
  if (t == TC_TRI_NO)
    return agree_fail(TC_RULE_AUTODIFF_EXPECTED,
                      ops[i].tag.autodiff == 1 ? TC_MSG_AUTODIFF_MIXED : TC_MSG_AUTODIFF_MIXED_PLAIN,
                      ops, n, i, j);
  if (t == TC_TRI_UNKNOWN) return unknown();
  t = compare_field(ops, n, f_backend, &i, &j);
  if (t == TC_TRI_NO) {
    int ad = ops[i].tag.autodiff == 1;
    return agree_fail(ad ? TC_RULE_AUTODIFF_INNER_BACKEND : TC_RULE_BACKEND_MISMATCH,
                      ad ? TC_MSG_INNER_BACKEND : TC_MSG_BACKEND, ops, n, i, j);
  }
  if (t == TC_TRI_UNKNOWN) return unknown();
  t = compare_field(ops, n, f_ordinal, &i, &j);
  if (t == TC_TRI_NO)
    return agree_fail(TC_RULE_DEVICE_MISMATCH, TC_MSG_DEVICE, ops, n, i, j);
  if (t == TC_TRI_UNKNOWN) return unknown();
  return pass();
}

static chk_res check_kinds(const tc_eng *e, const tc_check *ck, const operand *ops, int n) {
  (void)e;
  for (int i = 0; i < n; i++)
    if (ops[i].v.k != AV_TENSOR) return unknown();
  chk_res r = pass();
  if (ck->same) {
    int i = 0, j = 0;
    tc_tri t = compare_field(ops, n, f_kind, &i, &j);
    if (t == TC_TRI_NO) {
      r = fail(TC_RULE_KIND_MISMATCH, TC_MSG_KIND, &ops[i], &ops[j]);
      r.all = ops;
      r.n_all = n;
      return r;
    }
    if (t == TC_TRI_UNKNOWN) return unknown();
    if (!ck->n_accept) return pass();
  }
  for (int i = 0; i < n; i++)
    if (!TC_TAGF_KNOWN(ops[i].tag.kind)) return unknown();
  int width = ck->array_arg >= 0 ? 1 : ck->n_args;
  if (ck->array_arg >= 0) {
    /* every element must be one of the accepted kinds */
    for (int i = 0; i < n; i++) {
      int ok = 0;
      for (int row = 0; row < ck->n_accept; row++)
        if (ck->accept[row] == ops[i].tag.kind) ok = 1;
      if (!ok) {
        r = fail(TC_RULE_KIND_MISMATCH, TC_MSG_KIND, NULL, &ops[i]);
        r.all = ops;
        r.n_all = n;
        return r;
      }
    }
    return pass();
  }
  for (int row = 0; row < ck->n_accept; row++) {
    int ok = 1;
    for (int i = 0; i < width && i < n; i++)
      if (ck->accept[row * width + i] != ops[i].tag.kind) ok = 0;
    if (ok) return pass();
  }
  /* name the operand that differs from the first, or the only one */
  const operand *got = &ops[n - 1], *exp = n > 1 ? &ops[0] : NULL;
  for (int i = 1; i < n; i++)
    if (ops[i].tag.kind != ops[0].tag.kind) {
      got = &ops[i];
      break;
    }
  r = fail(TC_RULE_KIND_MISMATCH, TC_MSG_KIND, exp, got);
  r.all = ops;
  r.n_all = n;
  return r;
}

/* A pointer the host is about to read or write: fails when it is the data of a tensor whose
   memory is not host memory (or that has none). Other pointers pass. */
static chk_res check_host_memory(const tc_eng *e, const operand *op) {
  if (op->v.k != AV_DATAPTR) return pass();
  const tc_backend_def *b = backend_def(e, op->tag.backend);
  if (!b) return unknown();
  if (b->no_memory) return fail(TC_RULE_HOST_ACCESS, TC_MSG_NULL_DATA, NULL, op);
  return b->host_memory ? pass() : fail(TC_RULE_HOST_ACCESS, TC_MSG_HOST_ACCESS, NULL, op);
}

static void read_pointer(call_ctx *c, int argi, operand *op) {
  memset(op, 0, sizeof *op);
  op->tag = tc_tag_unknown();
  const tc_opnd *o = arg_of(c, argi);
  opnd_name(c->f->e, o, argi, op->name, sizeof op->name);
  if (!o) return;
  op->arg_pos = argi + c->fn->leading_args + 1;
  op->present = 1;
  op->v = mem_eval(c->f, c->s, o, NULL);
  if (op->v.k == AV_DATAPTR) {
    op->tag = op->v.tag;
    op->prov = op->v.prov;
  }
  if (op->v.k == AV_POISON) op->poison = c->poisoned = 1;
}

static chk_res run_check(call_ctx *c, const tc_check *ck) {
  tc_eng *e = c->f->e;
  operand *ops = &c->ops[c->n_ops];
  int room = (int)(sizeof c->ops / sizeof c->ops[0]) - c->n_ops;
  switch (ck->kind) {
    case TC_CHECK_AGREE:
    case TC_CHECK_KINDS:
    case TC_CHECK_AGREE_ARRAY: {
      int n;
      if (ck->array_arg >= 0) {
        n = read_elements(c, ck->array_arg, ck->count_arg, ops, room);
        if (n < 0) return unknown();
      } else {
        n = ck->n_args;
        for (int i = 0; i < n; i++) read_tensor(c, ck->args[i], &ops[i]);
      }
      for (int i = 0; i < n; i++) ops[i].index = i;
      c->n_ops += n;
      if (ck->kind == TC_CHECK_KINDS) return check_kinds(e, ck, ops, n);
      return check_agree(ops, n);
    }
    case TC_CHECK_AUTODIFF_REQUIRED:
      read_tensor(c, ck->arg, &ops[0]);
      c->n_ops++;
      if (ops[0].v.k != AV_TENSOR) return unknown();
      if (ops[0].tag.autodiff == 0)
        return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_REQUIRED, NULL, &ops[0]);
      return ops[0].tag.autodiff == 1 ? pass() : unknown();
    case TC_CHECK_PLAIN_DEVICE:
      read_device(c, ck->arg, &ops[0]);
      c->n_ops++;
      if (ops[0].tag.autodiff == 1)
        return fail(TC_RULE_AUTODIFF_NESTED, TC_MSG_AUTODIFF_NESTED_DEVICE, NULL, &ops[0]);
      return ops[0].tag.autodiff == 0 ? pass() : unknown();
    case TC_CHECK_SAME_AUTODIFF: {
      read_tensor(c, ck->tensor_arg, &ops[0]);
      read_device(c, ck->device_arg, &ops[1]);
      c->n_ops += 2;
      if (ops[0].v.k != AV_TENSOR) return unknown();
      tc_tri t = tc_tagf_equal(ops[0].tag.autodiff, ops[1].tag.autodiff);
      if (t == TC_TRI_NO)
        return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_MOVE, &ops[1], &ops[0]);
      return t == TC_TRI_YES ? pass() : unknown();
    }
    case TC_CHECK_WRAPS: {
      read_device(c, ck->device_arg, &ops[0]);
      read_tensor(c, ck->tensor_arg, &ops[1]);
      c->n_ops += 2;
      if (ops[1].v.k != AV_TENSOR) return unknown();
      if (ops[1].tag.autodiff == 1)
        return fail(TC_RULE_AUTODIFF_NESTED, TC_MSG_AUTODIFF_NESTED_TENSOR, &ops[0], &ops[1]);
      if (ops[1].tag.autodiff != 0) return unknown();
      if (ops[0].tag.autodiff == 0)
        return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_PLAIN_DEVICE, NULL, &ops[0]);
      if (ops[0].tag.autodiff != 1) return unknown();
      tc_tri t = tc_tagf_equal(ops[0].tag.backend, ops[1].tag.backend);
      if (t == TC_TRI_NO)
        return fail(TC_RULE_AUTODIFF_INNER_BACKEND, TC_MSG_INNER_BACKEND, &ops[0], &ops[1]);
      if (t == TC_TRI_UNKNOWN) return unknown();
      t = tc_tagf_equal(ops[0].tag.ordinal, ops[1].tag.ordinal);
      if (t == TC_TRI_NO) return fail(TC_RULE_DEVICE_MISMATCH, TC_MSG_DEVICE, &ops[0], &ops[1]);
      return t == TC_TRI_YES ? pass() : unknown();
    }
    case TC_CHECK_BUFFER_SET: {
      read_tensor(c, ck->arg, &ops[0]);
      c->n_ops++;
      const tc_backend_def *b = backend_def(e, ops[0].tag.backend);
      if (ops[0].v.k != AV_TENSOR || !b) return unknown();
      return b->no_buffer ? fail(TC_RULE_BUFFER_NOT_SET, TC_MSG_BUFFER_NOT_SET, NULL, &ops[0])
                          : pass();
    }
    case TC_CHECK_HOST_POINTER:
      read_pointer(c, ck->arg, &ops[0]);
      c->n_ops++;
      return check_host_memory(e, &ops[0]);
    case TC_CHECK_HOST_TENSOR: { /* the tensor's data, read or written by the call */
      read_tensor(c, ck->arg, &ops[0]);
      c->n_ops++;
      if (ops[0].v.k != AV_TENSOR) return unknown();
      ops[0].v.k = AV_DATAPTR;
      return check_host_memory(e, &ops[0]);
    }
    case TC_CHECK_ALLOCATES: {
      read_device(c, ck->device_arg, &ops[0]);
      c->n_ops++;
      int32_t b = ops[0].tag.backend;
      if (!TC_TAGF_KNOWN(b) || b >= 32) return pass();
      if (c->s->avail_reported & (1u << b)) { /* the first allocation there was reported */
        c->poisoned = 1;
        return pass();
      }
      chk_res r = fail(TC_RULE_BACKEND_UNAVAILABLE, TC_MSG_UNAVAILABLE, NULL, &ops[0]);
      r.backend = b;
      if (e->unavailable_mask & (1u << b)) {
        r.why = "the configuration marks it unavailable";
        return r;
      }
      if (c->s->avail_no & (1u << b)) {
        r.why = "this path found it unavailable";
        return r;
      }
      return pass();
    }
  }
  return unknown();
}

/* ------------------------------------------------------------------ messages */

static void origin_text(const tc_eng *e, const prov *p, char *buf, size_t len) {
  buf[0] = '\0';
  for (; p; p = p->prev) {
    if (p->kind == PV_TENSOR || p->kind == PV_DEVICE || p->kind == PV_RETURN ||
        p->kind == PV_PLACED) {
      const char *file = p->loc ? base_name(srcloc_file(e, p->loc)) : "";
      snprintf(buf, len, " (from %s at %s:%u)", p->name || !p->text ? tc_str(e->prog, p->name) : p->text,
               file, p->loc ? p->loc->line : 0);
      return;
    }
  }
}

static void describe_operand(const tc_eng *e, const operand *op, int with_kind, char *buf,
                             size_t len) {
  char dev[96], org[256];
  tc_tag_format_device(&op->tag, &e->names, dev, sizeof dev);
  origin_text(e, op->prov, org, sizeof org);
  if (with_kind)
    snprintf(buf, len, "'%s' is a %s tensor on %s%s", op->name,
             tc_tag_kind_name(&op->tag, &e->names), dev, org);
  else
    snprintf(buf, len, "'%s' is %s%s", op->name, dev, org);
}

static void append(char *buf, size_t len, size_t *pos, const char *s) {
  size_t n = strlen(s);
  if (*pos + n + 1 > len) n = len > *pos + 1 ? len - *pos - 1 : 0;
  memcpy(buf + *pos, s, n);
  *pos += n;
  buf[*pos] = '\0';
}

static void fill_template(const tc_eng *e, const char *tmpl, const chk_res *r, const char *op,
                          char *buf, size_t len) {
  size_t pos = 0;
  buf[0] = '\0';
  char tmp[256];
  for (const char *p = tmpl; *p;) {
    if (*p != '{') {
      char ch[2] = {*p++, 0};
      append(buf, len, &pos, ch);
      continue;
    }
    const char *end = strchr(p, '}');
    if (!end) {
      append(buf, len, &pos, p);
      break;
    }
    size_t kl = (size_t)(end - p - 1);
    const char *key = p + 1;
    tmp[0] = '\0';
    const operand *x = NULL;
    int inner = 0;
    if (kl == 2 && !strncmp(key, "op", 2)) {
      snprintf(tmp, sizeof tmp, "%s", op);
    } else if (kl == 8 && !strncmp(key, "expected", 8)) {
      x = r->expected;
    } else if (kl == 3 && !strncmp(key, "got", 3)) {
      x = r->got;
    } else if (kl == 14 && !strncmp(key, "expected_inner", 14)) {
      x = r->expected;
      inner = 1;
    } else if (kl == 9 && !strncmp(key, "got_inner", 9)) {
      x = r->got;
      inner = 1;
    } else if (kl == 4 && !strncmp(key, "kind", 4)) {
      const operand *k = r->got ? r->got : r->expected;
      snprintf(tmp, sizeof tmp, "%s",
               k && TC_TAGF_KNOWN(k->tag.kind) ? tc_tag_kind_name(&k->tag, &e->names) : "float");
    } else if (kl == 5 && !strncmp(key, "kinds", 5)) {
      size_t tp = 0;
      for (int i = 0; i < r->n_all; i++) {
        if (i) append(tmp, sizeof tmp, &tp, i == r->n_all - 1 ? " and " : ", ");
        append(tmp, sizeof tmp, &tp, tc_tag_kind_name(&r->all[i].tag, &e->names));
      }
    } else if (kl == 7 && !strncmp(key, "backend", 7)) {
      snprintf(tmp, sizeof tmp, "%s",
               r->backend >= 0 && (size_t)r->backend < e->names.n_backends
                   ? e->names.backends[r->backend]
                   : "?");
    } else if (kl == 5 && !strncmp(key, "index", 5)) {
      snprintf(tmp, sizeof tmp, "%d", r->got ? r->got->index + 1 : 1);
    } else if (kl == 3 && !strncmp(key, "why", 3)) {
      snprintf(tmp, sizeof tmp, "%s", r->why ? r->why : "");
    } else {
      snprintf(tmp, sizeof tmp, "%.*s", (int)(kl + 2), p);
    }
    if (x) {
      if (inner)
        tc_tag_format_inner(&x->tag, &e->names, tmp, sizeof tmp);
      else
        tc_tag_format_device(&x->tag, &e->names, tmp, sizeof tmp);
    }
    append(buf, len, &pos, tmp);
    p = end + 1;
  }
}

/* ------------------------------------------------------------------ fix-its */

/* How operand op disagrees with the reference operand of an agree check (the first, as the
   runtime expects): its failure's message slot, -1 when it agrees, -2 when undecided. */
static int agree_failure(const operand *ref, const operand *op) {
  tc_tri t = tc_tagf_equal(ref->tag.autodiff, op->tag.autodiff);
  if (t == TC_TRI_NO) return ref->tag.autodiff == 1 ? TC_MSG_AUTODIFF_MIXED : TC_MSG_AUTODIFF_MIXED_PLAIN;
  if (t == TC_TRI_UNKNOWN) return -2;
  t = tc_tagf_equal(ref->tag.backend, op->tag.backend);
  if (t == TC_TRI_NO) return ref->tag.autodiff == 1 ? TC_MSG_INNER_BACKEND : TC_MSG_BACKEND;
  if (t == TC_TRI_UNKNOWN) return -2;
  t = tc_tagf_equal(ref->tag.ordinal, op->tag.ordinal);
  if (t == TC_TRI_NO) return TC_MSG_DEVICE;
  return t == TC_TRI_YES ? -1 : -2;
}

static fix_candidate candidate(int msg, const operand *got, const operand *expected) {
  fix_candidate fc = {msg, got->arg_pos - 1, expected ? expected->arg_pos - 1 : -1,
                      got->tag.autodiff, expected ? expected->tag.autodiff : TC_TAGF_UNKNOWN};
  return fc;
}

/* The fix plan of a failed check (engine/fixes.c): an agree check moves every operand that
   disagrees with the first; other checks fix the one operand they name. Returns its key. */
static uint32_t plan_fix(call_ctx *c, const chk_res *r, fix_step *steps, uint8_t *n_steps) {
  *n_steps = 0;
  tc_eng *e = c->f->e;
  if (!e->rules->n_fixes || r->st != CHK_FAIL || !r->got) return 0;
  fix_candidate cands[FIX_MAX_STEPS];
  int n = 0;
  if (r->check == TC_CHECK_AGREE && r->all) {
    for (int k = 1; k < r->n_all; k++) {
      int msg = agree_failure(&r->all[0], &r->all[k]);
      if (msg == -2 || (msg >= 0 && n == FIX_MAX_STEPS)) return 0;
      if (msg >= 0) cands[n++] = candidate(msg, &r->all[k], &r->all[0]);
    }
  } else {
    cands[n++] = candidate((int)r->msg, r->got, r->expected);
  }
  return fix_plan(e, c->in, r->check, cands, n, steps, n_steps);
}

static uint32_t make_detail(call_ctx *c, const chk_res *r) {
  tc_eng *e = c->f->e;
  const char *op = c->op_name ? c->op_name : tc_str(e->prog, c->in->callee.name);
  if (!op[0]) op = c->fn->name;
  char body[512], msg[1536];
  fill_template(e, e->rules->messages[r->msg], r, op, body, sizeof body);
  size_t pos = 0;
  msg[0] = '\0';
  append(msg, sizeof msg, &pos, op);
  append(msg, sizeof msg, &pos, ": ");
  append(msg, sizeof msg, &pos, body);
  detail d;
  memset(&d, 0, sizeof d);
  const operand *list[4];
  int n = 0;
  int with_kind = r->rule == TC_RULE_KIND_MISMATCH;
  if (with_kind && r->all) {
    for (int i = 0; i < r->n_all && n < 4; i++) list[n++] = &r->all[i];
  } else {
    if (r->expected) list[n++] = r->expected;
    if (r->got) list[n++] = r->got;
  }
  for (int i = 0; i < n; i++) {
    char od[512];
    describe_operand(e, list[i], with_kind && !list[i]->is_device, od, sizeof od);
    append(msg, sizeof msg, &pos, i ? ", " : ": ");
    append(msg, sizeof msg, &pos, od);
    d.provs[d.n_provs] = list[i]->prov;
    d.names[d.n_provs] = 0;
    d.n_provs++;
  }
  d.message = msg;
  d.path = c->s->path;
  d.op = op;
  (void)plan_fix(c, r, d.fix, &d.n_fix);
  return detail_new(e, &d);
}

/* ------------------------------------------------------------------ results */

/* The object a pointer argument designates, or 0 (unknown, or inside an array). */
static uint32_t pointee_of(call_ctx *c, int argi) {
  const tc_opnd *o = arg_of(c, argi);
  if (!o) return 0;
  aval v = mem_eval(c->f, c->s, o, NULL);
  if (v.k != AV_ADDR || (v.i != IDX_NONE && v.i != 0)) return 0;
  return v.loc;
}

/* The object a memory function's pointer argument starts at: the object itself, or element i
   of an array for a pointer to element i > 0 (`memset(&reps[1], 0, sizeof reps[1])`: one
   replica). A pointer to element 0 is the whole array (an array name decays to it); *elem says
   which. 0 when not known. */
static uint32_t memory_target(call_ctx *c, int argi, int *elem) {
  const tc_opnd *o = arg_of(c, argi);
  *elem = 0;
  if (!o) return 0;
  aval v = mem_eval(c->f, c->s, o, NULL);
  if (v.k != AV_ADDR || v.i == IDX_ANY) return 0;
  if (v.i == IDX_NONE || v.i == 0) return v.loc;
  *elem = 1;
  return loc_child(c->f->e, v.loc, LK_INDEX, 0, v.i);
}

static void havoc_arg(call_ctx *c, int argi) {
  const tc_opnd *o = arg_of(c, argi);
  if (!o) return;
  aval v = mem_eval(c->f, c->s, o, NULL);
  ptset pts;
  av_targets(c->f->e, &v, &pts);
  for (uint32_t i = 0; i < pts.n; i++) mem_havoc_reachable(c->f->e, c->s, pts.loc[i]);
}

/* The elements of the container object obj (rules: "element_of_arg", "store"): a pseudo-field
   holding them as an array whose elements are one summary (so every write joins, every read
   sees them all), or the field `field` of that summary ("" none). 0 without obj. */
static uint32_t container_elements(tc_eng *e, uint32_t obj, const char *field) {
  uint32_t any = loc_child(e, pseudo_field(e, obj, e->f_elements), LK_ANY, 0, 0);
  return field[0] && any ? loc_child(e, any, LK_FIELD, field_id_of_name(e, field), 0) : any;
}

/* Whether what loc holds (and what its pointers lead to, `depth` levels deep) stands for
   several things: one of several tags, one of several objects. */
static int holds_alternatives(tc_eng *e, const astate *s, uint32_t loc, int depth) {
  const aval *v = st_get(&s->mem, loc);
  if (v && v->k == AV_TENSOR && tagset_get(e, (uint32_t)v->i)) return 1;
  if (v && v->k == AV_ADDRSET) return 1;
  if (v && v->k == AV_ADDR && depth > 0 && v->loc != loc &&
      holds_alternatives(e, s, v->loc, depth - 1))
    return 1;
  for (uint32_t k = e->locs[loc].first_child; k; k = e->locs[k].next_sibling)
    if (holds_alternatives(e, s, k, depth)) return 1;
  return 0;
}

/* The address of what element_of_arg names: a pointer into the elements (indexing it reaches
   them all), or the address of their field. A lookup by key picks one element, which one is
   not known: when they differ, an unknown one (never a guess among them). */
static aval element_address(call_ctx *c, const tc_result_spec *r) {
  tc_eng *e = c->f->e;
  int elem;
  uint32_t obj = memory_target(c, r->arg, &elem);
  if (!obj) return av_top();
  aval a = av_make(AV_ADDR, IDX_NONE);
  uint32_t whole = container_elements(e, obj, r->elem_field);
  if (r->elem_lookup && whole && holds_alternatives(e, c->s, whole, 3)) return av_top();
  if (r->elem_field[0]) {
    a.loc = whole;
  } else {
    a.loc = pseudo_field(e, obj, e->f_elements);
    a.i = IDX_ANY;
  }
  return a.loc ? a : av_top();
}

/* The object ef->arg2 points to joins the elements of the container ef->arg points to (what
   is not known makes them unknown). */
static void store_element(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  int elem, from_elem;
  uint32_t obj = memory_target(c, ef->arg, &elem);
  uint32_t dst = obj ? container_elements(e, obj, ef->field) : 0;
  if (!dst) {
    havoc_arg(c, ef->arg);
    return;
  }
  /* the value is the call's last argument, or the element is made from several (an emplace
     constructing it): unknown */
  int last = (uint32_t)(ef->arg2 + c->fn->leading_args) + 1 == c->in->n_args;
  uint32_t src = last ? memory_target(c, ef->arg2, &from_elem) : 0;
  if (src) {
    mem_copy_subtree(e, c->s, dst, src, 1, NULL);
  } else {
    aval top = av_top();
    mem_write(e, c->s, dst, &top, 1);
  }
}



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

static void write_value(call_ctx *c, const aval *v) {
  if (!c->in->has_dst) return;
  targets t;
  if (!mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
  mem_write_targets(c->f->e, c->s, &t, v);
}

static int32_t int_arg_field(call_ctx *c, int argi, int as_backend) {
  tc_eng *e = c->f->e;
  const tc_opnd *o = arg_of(c, argi);
  if (!o) return TC_TAGF_UNKNOWN;
  uint32_t single = 0;
  aval v = mem_eval(c->f, c->s, o, &single);
  if ((v.k == AV_TOP || v.k == AV_BOT) && single) v = read_materialized(e, c->s, single, 0);
  return as_backend ? backend_of_int(e, &v) : tagf_of_int(&v, 0);
}

/* A tensor made in the context object an argument points to: where the context places its
   tensors, unless an operand it is computed from already lives in a buffer (a graph node
   follows its weights). *obj: the context object (0 if not known). */
static tc_tag context_placement(call_ctx *c, const tc_result_spec *r, const prov **src,
                                uint32_t *obj) {
  tc_eng *e = c->f->e;
  tc_tag tag = tc_tag_unknown();
  *obj = pointee_of(c, r->context_arg);
  if (*obj) {
    aval p = mem_eff(e, c->s, pseudo_field(e, *obj, e->f_placement));
    if (p.k == AV_TENSOR) tag = p.tag;
  }
  for (int i = 0; i < r->n_device_like; i++) {
    operand op;
    read_tensor(c, r->device_like_args[i], &op);
    if (op.v.k != AV_TENSOR) continue;
    const tc_backend_def *b = backend_def(e, op.tag.backend);
    if (b && b->no_buffer) continue;
    tag.backend = op.tag.backend; /* in a buffer, or placed who knows where */
    tag.ordinal = op.tag.ordinal;
    tag.autodiff = op.tag.autodiff;
    *src = op.prov;
    break;
  }
  if (r->like_arg >= 0) { /* the kind of the operand */
    operand op;
    read_tensor(c, r->like_arg, &op);
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
    const tc_opnd *o = arg_of(c, r->placement_arg);
    targets t;
    if (o && o->kind == TC_OPND_PATH && mem_resolve(c->f, c->s, &o->path, &t) && t.n == 1) {
      uint32_t fl = loc_child(e, t.loc[0], LK_FIELD, field_id_of_name(e, r->placement_field), 0);
      aval fv = fl ? mem_eff(e, c->s, fl) : av_top();
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
    mem_write(e, c->s, pseudo_field(e, h, e->f_placement), &p, weak);
  }
  if (r->object_context_arg >= 0) {
    const tc_opnd *o = arg_of(c, r->object_context_arg);
    aval v = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
    mem_write(e, c->s, pseudo_field(e, h, e->f_context), &v, weak);
  }
}

static void apply_result(call_ctx *c) {
  tc_eng *e = c->f->e;
  const tc_result_spec *r = &c->fn->result;
  tc_sym opname = c->in->callee.name;
  operand op1;
  switch (r->what) {
    case TC_RES_NONE: {
      aval top = av_top();
      write_value(c, &top);
      return;
    }
    case TC_RES_DEVICE: {
      tc_tag tag = tc_tag_unknown();
      const prov *src = NULL;
      operand op;
      memset(&op, 0, sizeof op);
      switch (r->dev_src) {
        case TC_DEV_FIXED:
          tag.backend = r->backend;
          break;
        case TC_DEV_BACKEND_ARG:
          tag.backend = int_arg_field(c, r->arg, 1);
          break;
        case TC_DEV_FROM_DEVICE:
          read_device(c, r->arg, &op);
          tag = op.tag;
          src = op.prov;
          break;
        case TC_DEV_OF_TENSOR:
          read_tensor(c, r->arg, &op);
          tag = op.tag;
          tag.kind = TC_TAGF_UNKNOWN;
          src = op.prov;
          break;
      }
      if (r->dev_src == TC_DEV_FIXED || r->dev_src == TC_DEV_BACKEND_ARG) {
        tag.ordinal = r->ordinal >= 0 ? r->ordinal : int_arg_field(c, r->ordinal_arg, 0);
        if (r->ordinal < 0 && r->ordinal_arg < 0) tag.ordinal = TC_TAGF_UNKNOWN;
      }
      if (r->autodiff >= 0) tag.autodiff = r->autodiff;
      tag.kind = TC_TAGF_UNKNOWN;
      const prov *pv =
          prov_new(e, r->dev_src == TC_DEV_OF_TENSOR ? PV_DEVICE_OF : PV_DEVICE, src,
                   &c->in->loc, opname, 0, tag);
      if (!opname && pv) ((prov *)pv)->text = c->fn->name;
      write_device(c, &tag, tagset_remap(e, op.ts, &op.tag, &tag), pv);
      return;
    }
    case TC_RES_TENSOR: {
      tc_tag tag = tc_tag_unknown();
      const prov *src = NULL;
      operand op;
      memset(&op, 0, sizeof op);
      int known_src = 1;
      uint32_t ctx_obj = 0;
      if (r->fixed_device) {
        tag.backend = r->backend_arg >= 0 ? int_arg_field(c, r->backend_arg, 1) : r->backend;
        tag.ordinal = r->ordinal >= 0       ? r->ordinal
                      : r->ordinal_arg >= 0 ? int_arg_field(c, r->ordinal_arg, 0)
                                            : 0;
        tag.autodiff = 0;
      } else if (r->context_arg >= 0) {
        tag = context_placement(c, r, &src, &ctx_obj);
      } else if (r->device_arg >= 0) {
        read_device(c, r->device_arg, &op);
        tag = op.tag;
        tag.kind = TC_TAGF_UNKNOWN;
        src = op.prov;
      } else if (r->like_arg >= 0) {
        read_tensor(c, r->like_arg, &op);
        known_src = op.v.k == AV_TENSOR;
        tag = op.tag;
        src = op.prov;
      } else {
        const tc_opnd *ao = arg_of(c, r->like_array_arg);
        aval base = ao ? mem_eval(c->f, c->s, ao, NULL) : av_top();
        known_src = 0;
        if (base.k == AV_ADDR && base.i != IDX_ANY) {
          uint32_t loc = base.i == IDX_NONE && !e->locs[base.loc].is_array
                             ? base.loc
                             : loc_child(e, base.loc, LK_INDEX, 0,
                                         base.i == IDX_NONE ? 0 : base.i);
          aval v = loc ? mem_eff(e, c->s, loc) : av_top();
          if (v.k == AV_POISON) c->poisoned = 1;
          if (v.k == AV_TENSOR) {
            tag = v.tag;
            src = v.prov;
            known_src = 1;
          }
        }
      }
      if (!known_src) {
        aval top = av_top();
        write_value(c, &top);
        return;
      }
      if (r->tkind >= 0) {
        tag.kind = r->tkind;
      } else if (r->kind_arg >= 0) {
        const tc_opnd *ko = arg_of(c, r->kind_arg);
        aval kv = ko ? mem_eval(c->f, c->s, ko, NULL) : av_top();
        tag.kind = kv.k == AV_INT ? tc_rules_kind_by_value(e->rules, kv.i) : TC_TAGF_UNKNOWN;
        if (tag.kind < 0) tag.kind = TC_TAGF_UNKNOWN;
      } else if (r->kind_of_arg >= 0) {
        operand ko;
        read_tensor(c, r->kind_of_arg, &ko);
        tag.kind = ko.v.k == AV_TENSOR ? ko.tag.kind : TC_TAGF_UNKNOWN;
      }
      if (r->strip_autodiff) tag.autodiff = 0;
      aval v = av_make(AV_TENSOR, 0);
      v.tag = tag;
      if (r->device_arg >= 0 || r->like_arg >= 0) v.i = tagset_remap(e, op.ts, &op.tag, &tag);
      v.loc = ctx_obj;
      v.prov = prov_new(e, PV_TENSOR, src, &c->in->loc, opname, 0, tag);
      if (!opname && v.prov) ((prov *)v.prov)->text = c->fn->name;
      write_value(c, &v);
      return;
    }
    case TC_RES_SAME_AS_ARG: {
      const tc_opnd *o = arg_of(c, r->arg);
      aval v = o ? mem_eval(c->f, c->s, o, NULL) : av_top();
      v.drel = DR_NONE;
      write_value(c, &v);
      return;
    }
    case TC_RES_KIND_OF: {
      operand op;
      read_tensor(c, r->arg, &op);
      aval v = av_top();
      if (op.v.k == AV_TENSOR && TC_TAGF_KNOWN(op.tag.kind) &&
          (size_t)op.tag.kind < e->rules->n_kinds)
        v = av_make(AV_INT, e->rules->kinds[op.tag.kind].value);
      write_value(c, &v);
      return;
    }
    case TC_RES_DEVICES_EQUAL: {
      operand a, b;
      read_device(c, r->arg, &a);
      read_device(c, r->arg2, &b);
      tc_tri t1 = tc_tagf_equal(a.tag.backend, b.tag.backend);
      tc_tri t2 = tc_tagf_equal(a.tag.ordinal, b.tag.ordinal);
      tc_tri t3 = tc_tagf_equal(a.tag.autodiff, b.tag.autodiff);
      aval v = av_top();
      if (t1 == TC_TRI_NO || t2 == TC_TRI_NO || t3 == TC_TRI_NO)
        v = av_make(AV_INT, 0);
      else if (t1 == TC_TRI_YES && t2 == TC_TRI_YES && t3 == TC_TRI_YES)
        v = av_make(AV_INT, 1);
      write_value(c, &v);
      return;
    }
    case TC_RES_BACKEND_AVAILABLE: {
      int32_t b = int_arg_field(c, r->arg, 1);
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
      write_value(c, &v);
      return;
    }
    case TC_RES_NEW_OBJECT: {
      uint32_t site;
      uint64_t key = (uint64_t)(uintptr_t)c->in;
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
      if (!h) {
        aval top = av_top();
        write_value(c, &top);
        return;
      }
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
      write_value(c, &v);
      return;
    }
    case TC_RES_DATA_OF: {
      read_tensor(c, r->arg, &op1);
      aval v = av_top();
      if (op1.v.k == AV_TENSOR) {
        v = av_make(AV_DATAPTR, 0);
        v.tag = op1.tag;
        v.prov = op1.prov;
      }
      write_value(c, &v);
      return;
    }
    case TC_RES_ELEMENT_OF: {
      aval v = element_address(c, r);
      write_value(c, &v);
      return;
    }
    case TC_RES_VALUE_AT: {
      int elem;
      uint32_t obj = memory_target(c, r->arg, &elem);
      aval v = obj ? mem_eff(e, c->s, obj) : av_top();
      v.drel = DR_NONE;
      write_value(c, &v);
      return;
    }
    case TC_RES_RECORDS: {
      /* the struct the result is stored in records the handle (ggml_tallocr_new(buffer)) */
      read_tensor(c, r->arg, &op1);
      targets t;
      if (!c->in->has_dst || !mem_resolve(c->f, c->s, &c->in->dst, &t)) return;
      aval v = op1.v.k == AV_TENSOR ? op1.v : av_top();
      for (int i = 0; i < t.n; i++) {
        mem_clear_subtree(e, c->s, t.loc[i]);
        mem_write(e, c->s, pseudo_field(e, t.loc[i], e->f_tag), &v, t.weak || t.n > 1);
      }
      return;
    }
    case TC_RES_IS_HOST: {
      read_tensor(c, r->arg, &op1);
      const tc_backend_def *b = backend_def(e, op1.tag.backend);
      aval v = op1.v.k == AV_TENSOR && b ? av_make(AV_INT, b->host_memory) : av_top();
      write_value(c, &v);
      return;
    }
  }
}


/* The tensors of a context that are in no memory yet take the device of ef->arg2's handle
   (unknown without one): ggml_backend_alloc_ctx_tensors. The context is the object
   ef->arg points to, or the context that object remembers (a graph's). Tensors made later
   in the context stay where it places them. */
static void bind_context(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t ctx = pointee_of(c, ef->arg);
  uint32_t via = ctx ? loc_find_child(e, ctx, LK_FIELD, e->f_context, 0) : 0;
  if (via) {
    aval v = mem_eff(e, c->s, via);
    ctx = v.k == AV_ADDR && v.i == IDX_NONE ? v.loc : 0;
  }
  if (!ctx) return;
  tc_tag dev = tc_tag_unknown();
  if (ef->arg2 >= 0) {
    operand op;
    read_tensor(c, ef->arg2, &op);
    if (op.v.k == AV_TENSOR) dev = op.tag;
  }
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || v->loc != ctx) continue;
    const tc_backend_def *b = backend_def(e, v->tag.backend);
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
static void record_tensor(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  uint32_t obj = pointee_of(c, ef->arg);
  if (!obj) return;
  uint32_t rec = pseudo_field(e, obj, e->f_tag);
  aval cur = mem_eff(e, c->s, rec);
  /* the first one decides (a new object's pseudo-field reads as its zero fill) */
  if (cur.k != AV_BOT && !(cur.k == AV_INT && cur.i == 0)) return;
  operand op;
  read_tensor(c, ef->arg2, &op);
  const tc_backend_def *b = backend_def(e, op.tag.backend);
  if (op.v.k == AV_TENSOR && b && b->no_buffer) return; /* says nothing about buffers */
  aval v = op.v.k == AV_TENSOR && b ? op.v : av_top();
  mem_write(e, c->s, rec, &v, 0);
}

/* The step that made a tensor handle what it is (an API call made or placed it), past the
   steps that only moved it (stores, parameters, returns): two handles of one origin and one
   context are one tensor. */
static const prov *handle_origin(const prov *p) {
  while (p && p->prev &&
         (p->kind == PV_ASSIGN || p->kind == PV_PARAM || p->kind == PV_RETURN))
    p = p->prev;
  return p;
}

/* Tensor ef->arg2 now lives on the device of handle ef->arg (unknown without one): one
   tensor placed in a buffer (ggml_tallocr_alloc, ggml_backend_tensor_alloc). Every copy of
   the handle (a struct field, a caller's local, a helper's parameter) moves with it. */
static void place_tensor(call_ctx *c, const tc_effect *ef) {
  tc_eng *e = c->f->e;
  operand t;
  read_tensor(c, ef->arg2, &t);
  if (t.v.k != AV_TENSOR) return;
  tc_tag dev = tc_tag_unknown();
  const prov *src = NULL;
  if (ef->arg >= 0) {
    operand op;
    read_tensor(c, ef->arg, &op);
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
  nv.prov = prov_new(e, PV_PLACED, src ? src : t.v.prov, &c->in->loc, c->in->callee.name, 0,
                     nv.tag);
  const prov *was = handle_origin(t.v.prov);
  if (was) {
    for (uint32_t id = 1; id < e->n_locs; id++) {
      const aval *v = st_get(&c->s->mem, id);
      if (v && v->k == AV_TENSOR && v->loc == t.v.loc && handle_origin(v->prov) == was)
        st_set(e, &c->s->mem, id, &nv);
    }
  }
  const tc_opnd *o = arg_of(c, ef->arg2);
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
    if ((e->locs[k].kind == LK_INDEX && e->locs[k].b > e->locs[elem].b) || e->locs[k].kind == LK_ANY)
      mem_write(e, c->s, k, &top, 0);
}

static void apply_effects(call_ctx *c) {
  tc_eng *e = c->f->e;
  for (size_t i = 0; i < c->fn->n_effects; i++) {
    const tc_effect *ef = &c->fn->effects[i];
    switch (ef->kind) {
      case TC_EFFECT_COPY: {
        int to_elem, from_elem;
        uint32_t to = memory_target(c, ef->arg, &to_elem);
        uint32_t from = memory_target(c, ef->arg2, &from_elem);
        if (to && from && to_elem == from_elem) {
          mem_copy_subtree(e, c->s, to, from, 0, NULL);
          if (to_elem) forget_following_elements(c, to);
        } else {
          havoc_arg(c, ef->arg);
        }
        break;
      }
      case TC_EFFECT_FILL: {
        int to_elem;
        uint32_t to = memory_target(c, ef->arg, &to_elem);
        const tc_opnd *vo = arg_of(c, ef->arg2);
        aval v = vo ? mem_eval(c->f, c->s, vo, NULL) : av_top();
        if (to && v.k == AV_INT && v.i == 0) {
          aval z = av_make(AV_INT, 0);
          mem_write(e, c->s, to, &z, 0);
          if (to_elem) forget_following_elements(c, to);
        } else {
          havoc_arg(c, ef->arg);
        }
        break;
      }
      case TC_EFFECT_WRITES:
        havoc_arg(c, ef->arg);
        break;
      case TC_EFFECT_BIND_CONTEXT:
        bind_context(c, ef);
        break;
      case TC_EFFECT_RECORD:
        record_tensor(c, ef);
        break;
      case TC_EFFECT_PLACE:
        place_tensor(c, ef);
        break;
      case TC_EFFECT_STORE:
        store_element(c, ef);
        break;
    }
  }
}

static void call_ctx_init(call_ctx *c, frame *f, astate *s, const tc_insn *in,
                          const tc_api_fn *fn) {
  c->f = f;
  c->s = s;
  c->in = in;
  c->fn = fn;
  c->n_ops = 0;
  c->poisoned = 0;
  c->op_name = NULL;
  c->n_sets = c->sets_overflow = c->choosing = 0;
}

/* Records how this state's checks went (a failure of a disabled rule passes); 1 when it
   failed. */
static int record_outcome(call_ctx *c, const chk_res *res) {
  tc_eng *e = c->f->e;
  int disabled = 0;
  if (res->st == CHK_FAIL) {
    const char *id = e->rules->rule_ids[res->rule];
    for (size_t i = 0; i < e->n_disabled; i++)
      if (strcmp(e->disabled[i], id) == 0) disabled = 1;
  }
  if (res->st == CHK_FAIL && !disabled) {
    fix_step steps[FIX_MAX_STEPS];
    uint8_t n_steps;
    uint32_t key = plan_fix(c, res, steps, &n_steps);
    outcome_record_fix(e, c->f->fi->idx, c->in, (int)res->rule, make_detail(c, res), key);
    return 1;
  }
  outcome_record(e, c->f->fi->idx, c->in, -1, 0);
  return 0;
}

static chk_res run_checks(call_ctx *c) {
  chk_res res = pass();
  c->n_ops = 0;
  for (size_t i = 0; i < c->fn->n_checks; i++) {
    res = run_check(c, &c->fn->checks[i]);
    res.check = (int)c->fn->checks[i].kind;
    if (res.st != CHK_PASS) break;
  }
  return res;
}

/* The operands hold tag sets (tagset.c): the checks run once per choice of a member of each
   set (one choice per set, so two operands of one set agree). A rule that fails for every
   choice fails this state; one that fails for some is recorded as failing on one of the
   paths the state stands for and passing on another (a warning, never an error). Returns 1
   when every choice failed, 0 otherwise, -1 when every choice ends the path (poison). */
#define MAX_CHOICES 64
static int check_choices(call_ctx *c) {
  tc_eng *e = c->f->e;
  uint32_t n_choices = 1, size[4];
  for (int i = 0; i < c->n_sets; i++) {
    const tagset *ts = tagset_get(e, c->sets[i]);
    size[i] = ts ? ts->n : 1;
    n_choices *= size[i];
  }
  /* Sets of two origins that share a device may be one value reached on paths a join merged
     (a tensor moved only when it was not yet there): which member each is, is not known
     independently, so nothing is said unless they are disjoint. */
  for (int i = 0; i < c->n_sets; i++)
    for (int j = i + 1; j < c->n_sets; j++)
      if (tagsets_share_device(tagset_get(e, c->sets[i]), tagset_get(e, c->sets[j])))
        n_choices = MAX_CHOICES + 1;
  if (n_choices > MAX_CHOICES) { /* documented: read as unknown */
    outcome_record(e, c->f->fi->idx, c->in, -1, 0);
    return 0;
  }
  uint32_t fails[TC_RULE_COUNT] = {0}, detail[TC_RULE_COUNT] = {0}, counted = 0, n_fail = 0;
  uint32_t fix_key[TC_RULE_COUNT] = {0}; /* one plan for every failing choice, else none */
  uint16_t fix_mixed = 0;
  for (uint32_t x = 0; x < n_choices; x++) {
    uint32_t rest = x;
    for (int i = 0; i < c->n_sets; i++) {
      c->choice[i] = rest % size[i];
      rest /= size[i];
    }
    c->choosing = 1;
    c->poisoned = 0;
    chk_res res = run_checks(c);
    c->choosing = 0;
    if (c->poisoned) continue;
    counted++;
    if (res.st != CHK_FAIL) continue;
    const char *id = e->rules->rule_ids[res.rule];
    int disabled = 0;
    for (size_t i = 0; i < e->n_disabled; i++)
      if (strcmp(e->disabled[i], id) == 0) disabled = 1;
    if (disabled) continue;
    n_fail++;
    fix_step steps[FIX_MAX_STEPS];
    uint8_t n_steps;
    fix_key_merge(&fix_key[res.rule], &fix_mixed, (int)res.rule, fails[res.rule] > 0,
                  plan_fix(c, &res, steps, &n_steps), 0);
    if (!fails[res.rule]++) detail[res.rule] = make_detail(c, &res);
  }
  c->poisoned = 0;
  if (!counted) return -1;
  if (n_fail && n_fail < counted && c->s->decorrelated) {
    /* some members fail, but the branch that split this merged state may have told them
       apart: unknown (documented) */
    outcome_record(e, c->f->fi->idx, c->in, -1, 0);
    return 0;
  }
  int one_rule_everywhere = 0;
  for (int r = 0; r < TC_RULE_COUNT; r++) {
    if (!fails[r]) continue;
    outcome_record_fix(e, c->f->fi->idx, c->in, r, detail[r],
                       (fix_mixed >> r) & 1 ? 0 : fix_key[r]);
    if (fails[r] == counted) one_rule_everywhere = 1;
  }
  /* the choices that passed (or failed another rule): paths of this state too */
  if (!one_rule_everywhere) outcome_record(e, c->f->fi->idx, c->in, -1, 0);
  return n_fail == counted;
}

/* Registers the tag sets of every check's operands (the first pass stops at the first check
   it cannot decide, which a choice may decide). */
static void find_sets(call_ctx *c) {
  for (size_t i = 0; i < c->fn->n_checks; i++) (void)run_check(c, &c->fn->checks[i]);
  c->n_ops = 0;
}

/* After a reported failure, what the program's fix of it changes, so that one root cause is
   reported once (as when the mistake is fixed and the program rerun): a tensor with no memory
   yet makes every still-unallocated tensor of its context a consequence of this finding
   (poison: the fix allocates the context, and this path has stopped here). Host accesses and
   a context's own memory given to a backend call are not forgotten: each is its own mistake.
   Returns 1 for a kind failure: the fix makes the call pass, so the call goes on (api_call). */
static int forget_fixed_operand(call_ctx *c, const chk_res *res) {
  tc_eng *e = c->f->e;
  const operand *got = res->got;
  if (!got || got->v.k != AV_TENSOR) return 0;
  if (res->rule == TC_RULE_KIND_MISMATCH) return 1;
  const tc_backend_def *gb = backend_def(e, got->tag.backend);
  if (res->rule != TC_RULE_BUFFER_NOT_SET || !gb || !gb->no_memory) return 0;
  aval poison = av_make(AV_POISON, 0);
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || v->loc != got->v.loc || v->i) continue;
    const tc_backend_def *b = backend_def(e, v->tag.backend);
    if (b && b->no_memory) st_set(e, &c->s->mem, id, &poison);
  }
  return 0;
}

/* The call's result tensor, its kind forgotten. */
static void forget_result_kind(call_ctx *c) {
  if (!c->in->has_dst) return;
  tc_opnd dst;
  memset(&dst, 0, sizeof dst);
  dst.kind = TC_OPND_PATH;
  dst.path = c->in->dst;
  aval v = mem_eval(c->f, c->s, &dst, NULL);
  if (v.k != AV_TENSOR) return;
  v.tag.kind = TC_TAGF_UNKNOWN;
  write_value(c, &v);
}

/* An operand alone of a kind not accepted, already reported for this function at another
   call (`ggml_rope(ctx, q, pos)` then `ggml_rope(ctx, k, pos)`): the same mistake, whose fix
   (the tensor's type where it is made) fixes both. Records it otherwise; 1 when a repeat. */
static int kind_report_repeats(call_ctx *c, const chk_res *res) {
  tc_eng *e = c->f->e;
  if (res->rule != TC_RULE_KIND_MISMATCH || res->expected || !res->got ||
      res->got->v.k != AV_TENSOR)
    return 0;
  const prov *origin = handle_origin(res->got->v.prov);
  if (!origin) return 0;
  for (size_t i = 0; i < e->n_kind_reports; i++)
    if (e->kind_reports[i].fn == c->fn && e->kind_reports[i].origin == origin)
      return e->kind_reports[i].in != c->in;
  struct kind_report *r = VEC_PUSH(e->kind_reports, e->n_kind_reports, e->cap_kind_reports);
  if (!r) {
    e->oom = 1;
    return 0;
  }
  r->fn = c->fn;
  r->origin = origin;
  r->in = c->in;
  return 0;
}

/* The host touched memory it cannot reach through data pointer *ptr, and it was reported:
   every copy of that pointer (a local `w`, read again on the next line) is a consequence of
   the finding (poison) on this path, as when the program is fixed and rerun. Another read of
   the tensor's data field (`t->data` again) gives a fresh pointer: reported again. */
static void forget_touched_pointer(call_ctx *c, const aval *ptr) {
  tc_eng *e = c->f->e;
  const prov *was = handle_origin(ptr->prov);
  if (!was) return;
  aval poison = av_make(AV_POISON, 0);
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (v && v->k == AV_DATAPTR && handle_origin(v->prov) == was &&
        tc_tagf_equal(v->tag.backend, ptr->tag.backend) == TC_TRI_YES &&
        tc_tagf_equal(v->tag.ordinal, ptr->tag.ordinal) == TC_TRI_YES)
      st_set(e, &c->s->mem, id, &poison);
  }
}

void api_host_access(frame *f, astate *s, const aval *ptr, tc_sym spelling) {
  if (!f->in) return;
  call_ctx c;
  call_ctx_init(&c, f, s, f->in, NULL);
  c.op_name = "host access";
  operand *op = &c.ops[0];
  memset(op, 0, sizeof *op);
  op->present = 1;
  op->v = *ptr;
  op->tag = ptr->tag;
  op->prov = ptr->prov;
  snprintf(op->name, sizeof op->name, "%s", spelling ? tc_str(f->e->prog, spelling) : "pointer");
  c.n_ops = 1;
  chk_res res = check_host_memory(f->e, op);
  if (record_outcome(&c, &res)) forget_touched_pointer(&c, ptr);
}

uint32_t api_tensor_object(frame *f, astate *s, uint32_t holder, const aval *handle) {
  tc_eng *e = f->e;
  if (!e->f_data && !e->f_buffer && !e->f_view_src) return 0;
  uint32_t obj = loc_root(e, LK_EXT, holder, 1, f->fi->idx);
  if (!obj) return 0;
  if (e->f_data) {
    aval d = av_make(AV_DATAPTR, 0);
    d.tag = handle->tag;
    d.prov = handle->prov;
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_data, 0), &d, 0);
  }
  if (e->f_buffer) {
    const tc_backend_def *b = backend_def(e, handle->tag.backend);
    aval bv = av_top();
    if (b && b->no_buffer) {
      bv = av_make(AV_INT, 0); /* no buffer: NULL */
    } else if (b) {
      bv = av_make(AV_TENSOR, 0);
      bv.tag = handle->tag;
      bv.tag.kind = TC_TAGF_UNKNOWN;
      bv.prov = handle->prov;
    }
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_buffer, 0), &bv, 0);
  }
  if (e->f_view_src) { /* the tensor a view's memory belongs to: placed where the view is */
    aval vs = *handle;
    vs.tag.kind = TC_TAGF_UNKNOWN;
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_view_src, 0), &vs, 0);
  }
  return obj;
}

int api_family_call(frame *f, astate *s, const tc_insn *in) {
  tc_eng *e = f->e;
  for (size_t i = 0; i < e->rules->n_families; i++) {
    const tc_family *fam = &e->rules->families[i];
    uint32_t cp = (uint32_t)fam->context_param;
    if (!in->has_dst || !loc_type_points_to(e, &in->dst_type, fam->returns) ||
        cp >= in->n_args || !loc_type_points_to(e, &in->args[cp].type, fam->context_type))
      continue;
    /* a tensor made in the context, placed like its tensor arguments; its kind is not known
       (ops make f32 from f16, pooling, convolutions, ...) */
    tc_api_fn fn;
    memset(&fn, 0, sizeof fn);
    fn.name = (char *)tc_str(e->prog, in->callee.name);
    fn.n_params = -1;
    tc_rules_result_defaults(&fn.result);
    fn.result.what = TC_RES_TENSOR;
    fn.result.context_arg = (int)cp;
    for (uint32_t a = 0; a < in->n_args && fn.result.n_device_like < TC_RULES_MAX_ARGS; a++) {
      if (!loc_type_points_to(e, &in->args[a].type, fam->returns)) continue;
      fn.result.device_like_args[fn.result.n_device_like++] = (int)a;
    }
    api_call(f, s, in, &fn);
    return 1;
  }
  return 0;
}

void api_call(frame *f, astate *s, const tc_insn *in, const tc_api_fn *fn) {
  call_ctx c;
  call_ctx_init(&c, f, s, in, fn);
  aval poison = av_make(AV_POISON, 0);
  if (fn->api && fn->n_checks) {
    chk_res res = run_checks(&c);
    if (c.poisoned) { /* a consequence of a mistake already flagged: not counted */
      write_value(&c, &poison);
      return;
    }
    if (c.n_sets) find_sets(&c);
    if (c.n_sets && !c.sets_overflow) {
      int failed = check_choices(&c);
      if (failed < 0) {
        write_value(&c, &poison);
        return;
      }
      if (failed) { /* every choice fails */
        write_value(&c, &poison);
        return;
      }
    } else if (res.st == CHK_FAIL && kind_report_repeats(&c, &res)) {
      write_value(&c, &poison); /* the same mistake again: not counted */
      return;
    } else if (record_outcome(&c, &res)) {
      if (res.rule == TC_RULE_BACKEND_UNAVAILABLE && res.backend >= 0 && res.backend < 32)
        s->avail_reported |= 1u << res.backend;
      if (forget_fixed_operand(&c, &res)) {
        /* the fix gives an operand an accepted kind: the call goes on as the rules say (the
           placement of its operands; the result's kind, unless the rules fix it, is not
           known: it may follow the operand the fix changes) */
        apply_effects(&c);
        apply_result(&c);
        if (c.poisoned) write_value(&c, &poison);
        else if (c.fn->result.tkind < 0) forget_result_kind(&c); /* else a fixed kind */
        return;
      }
      if (c.fn->result.what == TC_RES_DEVICE) {
        /* a device is a value the runtime gives back even when the call fails (dt_autodiff
           returns the device it was given): the program goes on with it, as the rules say */
        apply_result(&c);
        return;
      }
      write_value(&c, &poison); /* one mistake, one finding */
      return;
    }
  }
  apply_effects(&c);
  apply_result(&c);
  if (c.poisoned) write_value(&c, &poison);
}
