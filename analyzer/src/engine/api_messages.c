/* analyzer/src/engine/api_messages.c — the words of a failed check: its message template
 * filled ({op}, {expected}, {got}, {kinds}, …), each operand described with where its tag came
 * from, and the fix-it plan (engine/fixes.c) of the failure. */
#include <stdio.h>
#include <string.h>

#include "base/path.h"
#include "engine/api_call.h"

/* ------------------------------------------------------------------ messages */

static void origin_text(const tc_eng *e, const prov *p, char *buf, size_t len) {
  buf[0] = '\0';
  for (; p; p = p->prev) {
    if (p->kind == PV_TENSOR || p->kind == PV_DEVICE || p->kind == PV_RETURN ||
        p->kind == PV_PLACED) {
      const char *file = p->loc ? tc_path_base_name(srcloc_file(e, p->loc)) : "";
      snprintf(buf, len, " (from %s at %s:%u)",
               p->name || !p->text ? tc_str(e->prog, p->name) : p->text, file,
               p->loc ? p->loc->line : 0);
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
  if (t == TC_TRI_NO)
    return ref->tag.autodiff == 1 ? TC_MSG_AUTODIFF_MIXED : TC_MSG_AUTODIFF_MIXED_PLAIN;
  if (t == TC_TRI_UNKNOWN) return -2;
  t = tc_tagf_equal(ref->tag.backend, op->tag.backend);
  if (t == TC_TRI_NO) return ref->tag.autodiff == 1 ? TC_MSG_INNER_BACKEND : TC_MSG_BACKEND;
  if (t == TC_TRI_UNKNOWN) return -2;
  t = tc_tagf_equal(ref->tag.ordinal, op->tag.ordinal);
  if (t == TC_TRI_NO) return TC_MSG_DEVICE;
  return t == TC_TRI_YES ? -1 : -2;
}

/* Whether argument i is written `t->data` (the rules' data field) of a tensor handle t: the
   fix may then name t ({got_handle}). */
static int arg_is_handle_data(call_ctx *c, int i) {
  tc_eng *e = c->f->e;
  const tc_insn *in = c->in;
  if (i < 0 || (uint32_t)i >= in->n_args || !e->f_data || !in->arg_base_locs ||
      !in->arg_base_locs[i].end_line)
    return 0;
  const tc_opnd *o = &in->args[i];
  uint32_t n = o->path.n_elems;
  if (o->kind != TC_OPND_PATH || n < 2 || o->path.elems[n - 2].kind != TC_ELEM_DEREF ||
      o->path.elems[n - 1].kind != TC_ELEM_FIELD ||
      field_id_of_sym(e, o->path.elems[n - 1].field) != e->f_data)
    return 0;
  tc_opnd handle = *o;
  handle.path.n_elems = n - 2;
  handle.path.spelling = 0;
  return mem_eval(c->f, c->s, &handle, NULL).k == AV_TENSOR;
}

/* Whether the checks of the call other than the one that failed pass (those before it did not
   stop the call, those after it are run here): a new call in its place must not fail them. */
static int other_checks_pass(call_ctx *c, const chk_res *r) {
  if (!c->fn || !r->check_pos || r->undecided_before) return 0;
  int n_ops = c->n_ops, poisoned = c->poisoned, n_sets = c->n_sets, overflow = c->sets_overflow;
  int ok = 1;
  for (size_t i = (size_t)r->check_pos; i < c->fn->n_checks && ok; i++)
    ok = api_run_check(c, &c->fn->checks[i]).st == CHK_PASS && !c->poisoned;
  c->n_ops = n_ops;
  c->poisoned = poisoned;
  c->n_sets = n_sets;
  c->sets_overflow = overflow;
  return ok;
}

static fix_candidate candidate(call_ctx *c, const chk_res *r, int msg, const operand *got,
                               const operand *expected, int whole_call_fixes) {
  fix_candidate fc = {msg, got->arg_pos - 1, expected ? expected->arg_pos - 1 : -1,
                      got->tag.autodiff, expected ? expected->tag.autodiff : TC_TAGF_UNKNOWN,
                      0, 0};
  fc.got_is_handle_data = arg_is_handle_data(c, fc.got);
  fc.others_pass = whole_call_fixes && other_checks_pass(c, r);
  return fc;
}

/* The fix plan of a failed check (engine/fixes.c): an agree check moves every operand that
   disagrees with the first; other checks fix the one operand they name. Returns its key. */
uint32_t api_plan_fix(call_ctx *c, const chk_res *r, fix_step *steps, uint8_t *n_steps) {
  *n_steps = 0;
  tc_eng *e = c->f->e;
  if (!e->rules->n_fixes || r->st != CHK_FAIL || !r->got) return 0;
  int whole_call_fixes = 0;
  for (size_t k = 0; k < e->rules->n_fixes; k++)
    whole_call_fixes |= e->rules->fixes[k].replace_call && (int)e->rules->fixes[k].check == r->check;
  fix_candidate cands[FIX_MAX_STEPS];
  int n = 0;
  if (r->check == TC_CHECK_AGREE && r->all) {
    for (int k = 1; k < r->n_all; k++) {
      int msg = agree_failure(&r->all[0], &r->all[k]);
      if (msg == -2 || (msg >= 0 && n == FIX_MAX_STEPS)) return 0;
      if (msg >= 0) cands[n++] = candidate(c, r, msg, &r->all[k], &r->all[0], whole_call_fixes);
    }
  } else {
    cands[n++] = candidate(c, r, (int)r->msg, r->got, r->expected, whole_call_fixes);
  }
  const char *fn_name = c->fn ? c->fn->name : NULL;
  return fix_plan(e, c->in, fn_name, r->check, cands, n, steps, n_steps);
}

uint32_t api_make_detail(call_ctx *c, const chk_res *r) {
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
  (void)api_plan_fix(c, r, d.fix, &d.n_fix);
  return detail_new(e, &d);
}
