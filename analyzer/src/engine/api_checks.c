/* analyzer/src/engine/api_checks.c — what each check of rules.def decides for one state
 * (check_<name>): pass, fail with a rule slot and a message slot, or unknown. Unknown tags
 * never fail. The checks run in the precedence order of SPEC §4 (engine/api.c). */
#include <string.h>

#include "engine/api_call.h"

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

static chk_res agree_operands(const operand *ops, int n) {
  for (int i = 0; i < n; i++)
    if (ops[i].v.k != AV_TENSOR) return unknown();
  int i = 0, j = 0;
  tc_tri t = compare_field(ops, n, f_autodiff, &i, &j);
  if (t == TC_TRI_NO)
    return agree_fail(
        TC_RULE_AUTODIFF_EXPECTED,
        ops[i].tag.autodiff == 1 ? TC_MSG_AUTODIFF_MIXED : TC_MSG_AUTODIFF_MIXED_PLAIN, ops, n, i,
        j);
  if (t == TC_TRI_UNKNOWN) return unknown();
  t = compare_field(ops, n, f_backend, &i, &j);
  if (t == TC_TRI_NO) {
    int ad = ops[i].tag.autodiff == 1;
    return agree_fail(ad ? TC_RULE_AUTODIFF_INNER_BACKEND : TC_RULE_BACKEND_MISMATCH,
                      ad ? TC_MSG_INNER_BACKEND : TC_MSG_BACKEND, ops, n, i, j);
  }
  if (t == TC_TRI_UNKNOWN) return unknown();
  t = compare_field(ops, n, f_ordinal, &i, &j);
  if (t == TC_TRI_NO) return agree_fail(TC_RULE_DEVICE_MISMATCH, TC_MSG_DEVICE, ops, n, i, j);
  if (t == TC_TRI_UNKNOWN) return unknown();
  return pass();
}

static chk_res kinds_operands(const tc_check *ck, const operand *ops, int n) {
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
chk_res api_check_host_memory(const tc_eng *e, const operand *op) {
  if (op->v.k != AV_DATAPTR) return pass();
  const tc_backend_def *b = api_backend_def(e, op->tag.backend);
  if (!b) return unknown();
  if (b->no_memory) return fail(TC_RULE_HOST_ACCESS, TC_MSG_NULL_DATA, NULL, op);
  return b->host_memory ? pass() : fail(TC_RULE_HOST_ACCESS, TC_MSG_HOST_ACCESS, NULL, op);
}

/* The tensors an agree or kinds check compares: its args, or the elements of its array
   argument; how many, or -1 when the elements are not known. */
static int read_compared(call_ctx *c, const tc_check *ck, operand **out) {
  operand *ops = &c->ops[c->n_ops];
  int room = (int)(sizeof c->ops / sizeof c->ops[0]) - c->n_ops;
  int n;
  if (ck->array_arg >= 0) {
    n = api_read_elements(c, ck->array_arg, ck->count_arg, ops, room);
    if (n < 0) return -1;
  } else {
    n = ck->n_args;
    for (int i = 0; i < n; i++) api_read_tensor(c, ck->args[i], &ops[i]);
    /* a graph's other source placements: each must agree too */
    for (int i = 0; i < ck->n_args && n < room; i++)
      n += api_read_sources(c, ck->args[i], &ops[n], room - n);
  }
  for (int i = 0; i < n; i++) ops[i].index = i;
  c->n_ops += n;
  *out = ops;
  return n;
}

/* The next operand slot of the call. */
static operand *next_operand(call_ctx *c) { return &c->ops[c->n_ops++]; }

/* Drops the operands in memory every device reads in a compute (a backend with
   "device_readable": pinned host memory): they agree with any placement. The new count. */
static int drop_device_readable(const tc_eng *e, operand *ops, int n) {
  int kept = 0;
  for (int i = 0; i < n; i++) {
    const tc_backend_def *b =
        ops[i].v.k == AV_TENSOR ? api_backend_def(e, ops[i].tag.backend) : NULL;
    if (b && b->device_readable) continue;
    if (kept != i) ops[kept] = ops[i];
    kept++;
  }
  return kept;
}

static chk_res check_agree(call_ctx *c, const tc_check *ck) {
  operand *ops;
  int n = read_compared(c, ck, &ops);
  if (n < 0) return unknown();
  return agree_operands(ops, drop_device_readable(c->f->e, ops, n));
}

static chk_res check_agree_array(call_ctx *c, const tc_check *ck) { return check_agree(c, ck); }

static chk_res check_kinds(call_ctx *c, const tc_check *ck) {
  operand *ops;
  int n = read_compared(c, ck, &ops);
  return n < 0 ? unknown() : kinds_operands(ck, ops, n);
}

static chk_res check_autodiff_required(call_ctx *c, const tc_check *ck) {
  operand *t = next_operand(c);
  api_read_tensor(c, ck->arg, t);
  if (t->v.k != AV_TENSOR) return unknown();
  if (t->tag.autodiff == 0)
    return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_REQUIRED, NULL, t);
  return t->tag.autodiff == 1 ? pass() : unknown();
}

static chk_res check_plain_device(call_ctx *c, const tc_check *ck) {
  operand *d = next_operand(c);
  api_read_device(c, ck->arg, d);
  if (d->tag.autodiff == 1)
    return fail(TC_RULE_AUTODIFF_NESTED, TC_MSG_AUTODIFF_NESTED_DEVICE, NULL, d);
  return d->tag.autodiff == 0 ? pass() : unknown();
}

static chk_res check_same_autodiff(call_ctx *c, const tc_check *ck) {
  operand *t = next_operand(c), *d = next_operand(c);
  api_read_tensor(c, ck->tensor_arg, t);
  api_read_device(c, ck->device_arg, d);
  if (t->v.k != AV_TENSOR) return unknown();
  tc_tri eq = tc_tagf_equal(t->tag.autodiff, d->tag.autodiff);
  if (eq == TC_TRI_NO) return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_MOVE, d, t);
  return eq == TC_TRI_YES ? pass() : unknown();
}

static chk_res check_wraps(call_ctx *c, const tc_check *ck) {
  operand *d = next_operand(c), *t = next_operand(c);
  api_read_device(c, ck->device_arg, d);
  api_read_tensor(c, ck->tensor_arg, t);
  if (t->v.k != AV_TENSOR) return unknown();
  if (t->tag.autodiff == 1)
    return fail(TC_RULE_AUTODIFF_NESTED, TC_MSG_AUTODIFF_NESTED_TENSOR, d, t);
  if (t->tag.autodiff != 0) return unknown();
  if (d->tag.autodiff == 0)
    return fail(TC_RULE_AUTODIFF_EXPECTED, TC_MSG_AUTODIFF_PLAIN_DEVICE, NULL, d);
  if (d->tag.autodiff != 1) return unknown();
  tc_tri eq = tc_tagf_equal(d->tag.backend, t->tag.backend);
  if (eq == TC_TRI_NO) return fail(TC_RULE_AUTODIFF_INNER_BACKEND, TC_MSG_INNER_BACKEND, d, t);
  if (eq == TC_TRI_UNKNOWN) return unknown();
  eq = tc_tagf_equal(d->tag.ordinal, t->tag.ordinal);
  if (eq == TC_TRI_NO) return fail(TC_RULE_DEVICE_MISMATCH, TC_MSG_DEVICE, d, t);
  return eq == TC_TRI_YES ? pass() : unknown();
}

static chk_res check_buffer_set(call_ctx *c, const tc_check *ck) {
  operand *t = next_operand(c);
  api_read_tensor(c, ck->arg, t);
  const tc_backend_def *b = api_backend_def(c->f->e, t->tag.backend);
  if (t->v.k != AV_TENSOR || !b) return unknown();
  return b->no_buffer ? fail(TC_RULE_BUFFER_NOT_SET, TC_MSG_BUFFER_NOT_SET, NULL, t) : pass();
}

/* a graph's tensors must have memory (an allocator placed the graph or its context) */
static chk_res check_graph_allocated(call_ctx *c, const tc_check *ck) {
  operand *t = next_operand(c);
  api_read_graph_memory(c, ck->arg, t);
  const tc_backend_def *b = api_backend_def(c->f->e, t->tag.backend);
  if (t->v.k != AV_TENSOR || !b) return t->present ? pass() : unknown();
  return b->no_buffer ? fail(TC_RULE_BUFFER_NOT_SET, TC_MSG_BUFFER_NOT_SET, NULL, t) : pass();
}

static chk_res check_host_pointer(call_ctx *c, const tc_check *ck) {
  operand *p = next_operand(c);
  api_read_pointer(c, ck->arg, p);
  return api_check_host_memory(c->f->e, p);
}

/* the tensor's data, read or written by the call */
static chk_res check_host_tensor(call_ctx *c, const tc_check *ck) {
  operand *t = next_operand(c);
  api_read_tensor(c, ck->arg, t);
  if (t->v.k != AV_TENSOR) return unknown();
  t->v.k = AV_DATAPTR;
  return api_check_host_memory(c->f->e, t);
}

static chk_res check_allocates(call_ctx *c, const tc_check *ck) {
  tc_eng *e = c->f->e;
  operand *d = next_operand(c);
  api_read_device(c, ck->device_arg, d);
  int32_t b = d->tag.backend;
  if (!TC_TAGF_KNOWN(b) || b >= 32) return pass();
  if (c->s->avail_reported & (1u << b)) { /* the first allocation there was reported */
    c->poisoned = 1;
    return pass();
  }
  chk_res r = fail(TC_RULE_BACKEND_UNAVAILABLE, TC_MSG_UNAVAILABLE, NULL, d);
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

/* Runs one check of rules.def: check_<name> above. */
chk_res api_run_check(call_ctx *c, const tc_check *ck) {
  switch (ck->kind) {
#define TC_CHECK(E, name, operands, rules) \
  case TC_CHECK_##E:                       \
    return check_##name(c, ck);
#include "rules/rules.def"
#undef TC_CHECK
  }
  return unknown();
}
