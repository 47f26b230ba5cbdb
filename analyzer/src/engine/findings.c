/* analyzer/src/engine/findings.c — outcomes and findings. Every check of an API call, in every
 * state, is logged with its calling context (a chain of call sites). At the end a call's
 * finding is an error when, in some context, every state reaching it failed the rule, and a
 * warning when only some did (SPEC §5); one finding per call and rule. Messages were written at
 * check time; the notes (provenance of each tag, the path's undecided branches, the caller
 * chain) are rendered here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"
#include "base/path.h"

const char *srcloc_file(const tc_eng *e, const tc_srcloc *l) {
  return l ? tc_str(e->prog, l->file) : "";
}


static uint64_t chain_hash(const chain_node *c) {
  uint64_t h = c->n;
  for (uint32_t i = 0; i < c->n; i++) h = hash_mix(h, (uint64_t)(uintptr_t)c->call[i]);
  return h;
}

static uint32_t chain_of(tc_eng *e, const chain_node *c) {
  uint64_t key = chain_hash(c);
  for (uint64_t attempt = 0;; attempt++) {
    uint64_t k = attempt ? hash_mix(key, attempt) : key;
    uint32_t id;
    if (!map_get(&e->chain_index, k, &id)) {
      if (!e->n_chains) { /* id 0: the root context */
        chain_node *z = VEC_PUSH(e->chains, e->n_chains, e->cap_chains);
        if (!z) break;
        memset(z, 0, sizeof *z);
        if (c->n == 0) return 0;
      }
      chain_node *n = VEC_PUSH(e->chains, e->n_chains, e->cap_chains);
      if (!n) break;
      *n = *c;
      id = (uint32_t)(e->n_chains - 1);
      if (map_put(&e->chain_index, k, id)) e->oom = 1;
      return id;
    }
    const chain_node *x = &e->chains[id];
    if (x->n == c->n && !memcmp(x->call, c->call, c->n * sizeof c->call[0])) return id;
  }
  e->oom = 1;
  return 0;
}

uint32_t chain_intern(tc_eng *e, uint32_t parent, const tc_insn *call, uint32_t callee) {
  chain_node c;
  memset(&c, 0, sizeof c);
  if (parent && parent < e->n_chains) c = e->chains[parent];
  if (c.n == CHAIN_K) {
    memmove(c.call, c.call + 1, (CHAIN_K - 1) * sizeof c.call[0]);
    memmove(c.callee, c.callee + 1, (CHAIN_K - 1) * sizeof c.callee[0]);
    c.n--;
  }
  c.call[c.n] = call;
  c.callee[c.n] = callee;
  c.n++;
  return chain_of(e, &c);
}

/* The log entry for (chain, insn) in the current slice, appended when there is none. */
static outcome *slot_for(tc_eng *e, uint32_t chain, uint32_t fn, const tc_insn *in,
                         uint32_t depth) {
  uint64_t key = hash_mix(chain, (uint64_t)(uintptr_t)in);
  uint32_t idx;
  if (map_get(&e->out_index, key, &idx) && idx >= e->slice_begin && idx < e->n_outs &&
      e->outs[idx].chain == chain && e->outs[idx].insn == in)
    return &e->outs[idx];
  outcome *o = VEC_PUSH(e->outs, e->n_outs, e->cap_outs);
  if (!o) {
    e->oom = 1;
    return NULL;
  }
  memset(o, 0, sizeof *o);
  o->chain = chain;
  o->fn = fn;
  o->insn = in;
  o->depth = depth;
  o->entry_certain = !e->outer_uncertain;
  if (map_put(&e->out_index, key, (uint32_t)(e->n_outs - 1))) e->oom = 1;
  return o;
}

void outcome_record_fix(tc_eng *e, uint32_t fn, const tc_insn *in, int rule, uint32_t detail,
                        uint32_t fix_key) {
  outcome *o = slot_for(e, e->cur_chain, fn, in, e->depth);
  if (!o) return;
  o->total++;
  if (rule >= 0 && rule < TC_RULE_COUNT) {
    fix_key_merge(&o->fix_key[rule], &o->fix_mixed, rule, o->fails[rule] > 0, fix_key, 0);
    o->fails[rule]++;
    if (!o->detail[rule]) o->detail[rule] = detail;
  }
}

void outcome_record(tc_eng *e, uint32_t fn, const tc_insn *in, int rule, uint32_t detail) {
  outcome_record_fix(e, fn, in, rule, detail, 0);
}

uint32_t detail_new(tc_eng *e, const detail *d) {
  detail *x = VEC_PUSH(e->details, e->n_details, e->cap_details);
  if (!x) {
    e->oom = 1;
    return 0;
  }
  *x = *d;
  x->message = bump_strdup(&e->bump, d->message ? d->message : "");
  if (!x->message) e->oom = 1;
  return (uint32_t)e->n_details;
}

void outcomes_replay(tc_eng *e, size_t begin, size_t end, uint32_t depth, uint32_t to_chain,
                     int certain) {
  for (size_t i = begin; i < end && i < e->n_outs; i++) {
    outcome o = e->outs[i];
    /* the calls made below the replayed analysis, then the new context before them */
    uint32_t below = o.depth > depth ? o.depth - depth : 0;
    const chain_node oc = e->chains[o.chain]; /* a copy: interning may move the array */
    uint32_t nc = to_chain;
    if (below >= oc.n && oc.n == CHAIN_K) {
      nc = o.chain;
    } else {
      uint32_t from = below < oc.n ? oc.n - below : 0;
      for (uint32_t k = from; k < oc.n; k++) nc = chain_intern(e, nc, oc.call[k], oc.callee[k]);
    }
    outcome *x = slot_for(e, nc, o.fn, o.insn, e->depth + below);
    if (!x) return;
    if (!(certain && o.entry_certain)) x->entry_certain = 0;
    x->total += o.total;
    for (int r = 0; r < TC_RULE_COUNT; r++) {
      if (o.fails[r])
        fix_key_merge(&x->fix_key[r], &x->fix_mixed, r, x->fails[r] > 0, o.fix_key[r],
                      (o.fix_mixed >> r) & 1);
      x->fails[r] += o.fails[r];
      if (!x->detail[r]) x->detail[r] = o.detail[r];
    }
  }
}

/* Appends outs[begin, end) — the log of engine src, which may be dst itself — to dst's log,
   with their contexts and explanations interned in dst (the explanations' provenance stays in
   src's memory: src must outlive dst's findings_emit). detail_map (src->n_details entries,
   zeroed at first) remembers the explanations already copied. */
int outcomes_import(tc_eng *dst, const tc_eng *src, const outcome *outs, size_t begin,
                    size_t end, uint32_t *detail_map) {
  for (size_t i = begin; i < end && !dst->oom; i++) {
    outcome o = outs[i];
    if (src != dst) {
      o.chain = o.chain ? chain_of(dst, &src->chains[o.chain]) : 0;
      for (int r = 0; r < TC_RULE_COUNT; r++) {
        uint32_t d = o.detail[r];
        if (!d) continue;
        if (!detail_map[d - 1]) detail_map[d - 1] = detail_new(dst, &src->details[d - 1]);
        o.detail[r] = detail_map[d - 1];
      }
    }
    outcome *x = VEC_PUSH(dst->outs, dst->n_outs, dst->cap_outs);
    if (!x) {
      dst->oom = 1;
      break;
    }
    *x = o;
  }
  return dst->oom ? -1 : 0;
}

/* ------------------------------------------------------------------ aggregation */

typedef struct finding {
  const tc_insn *insn;
  uint32_t fn;
  int rule;
  tc_level level;
  uint32_t detail;
  uint32_t chain;
  /* the fix-it over every context: one plan for all failing states (fix_key, fix_mixed), and
     whether every state of every context failed (else only fixes harmless where the check
     passes are offered) */
  uint32_t fix_key;
  uint16_t fix_mixed;
  int seen, all_fail;
} finding;

static void loc_of(const tc_eng *e, const tc_srcloc *s, tc_loc *out) {
  out->file = (char *)srcloc_file(e, s);
  out->line = s ? s->line : 0;
  out->col = s ? s->col : 0;
  out->end_line = s ? s->end_line : 0;
  out->end_col = s ? s->end_col : 0;
}

static void prov_note_text(const tc_eng *e, const prov *p, char *buf, size_t len) {
  char dev[96];
  tc_tag_format_device(&p->tag, &e->names, dev, sizeof dev);
  const char *name = p->name || !p->text ? tc_str(e->prog, p->name) : p->text;
  switch ((prov_kind)p->kind) {
    case PV_DEVICE:
      snprintf(buf, len, "%s gives device %s here", name, dev);
      return;
    case PV_DEVICE_OF:
      snprintf(buf, len, "%s gives device %s here", name, dev);
      return;
    case PV_TENSOR:
      if (TC_TAGF_KNOWN(p->tag.kind))
        snprintf(buf, len, "%s makes a %s tensor on %s here", name,
                 tc_tag_kind_name(&p->tag, &e->names), dev);
      else
        snprintf(buf, len, "%s makes a tensor on %s here", name, dev);
      return;
    case PV_ASSIGN:
      snprintf(buf, len, "'%s' holds %s from here", name, dev);
      return;
    case PV_PARAM:
      snprintf(buf, len, "%s passed to %s as parameter '%s' here", dev, name,
               tc_str(e->prog, p->name2));
      return;
    case PV_RETURN:
      snprintf(buf, len, "%s returns %s here", name, dev);
      return;
    case PV_PLACED:
      snprintf(buf, len, "%s places the tensor in %s memory here", name, dev);
      return;
  }
  snprintf(buf, len, "%s", dev);
}

static void add_prov_notes(const tc_eng *e, tc_diag *d, const prov *head) {
  const prov *steps[256];
  int n = 0;
  for (const prov *p = head; p && n < 256; p = p->prev) steps[n++] = p;
  /* flow order: origin first; long histories keep their start and their end */
  const char *last_msg_loc = NULL;
  char last[512] = "";
  for (int i = n - 1; i >= 0; i--) {
    int pos = n - 1 - i;
    if (n > 8 && pos >= 2 && pos < n - 6) continue;
    const prov *p = steps[i];
    if (!p->loc) continue;
    char msg[512];
    prov_note_text(e, p, msg, sizeof msg);
    if (last_msg_loc == (const char *)p->loc && strcmp(msg, last) == 0) continue;
    tc_loc l;
    loc_of(e, p->loc, &l);
    tc_diag_add_note(d, &l, msg);
    last_msg_loc = (const char *)p->loc;
    snprintf(last, sizeof last, "%s", msg);
  }
}

static void add_path_notes(const tc_eng *e, tc_diag *d, const pathnote *path) {
  const pathnote *steps[4];
  int n = 0;
  for (const pathnote *p = path; p && n < 4; p = p->prev) steps[n++] = p;
  for (int i = n - 1; i >= 0; i--) {
    const pathnote *p = steps[i];
    char msg[256];
    const char *what = p->what ? tc_str(e->prog, p->what) : "";
    if (p->backend >= 0)
      snprintf(msg, sizeof msg, "assuming backend %s is not available",
               (size_t)p->backend < e->names.n_backends ? e->names.backends[p->backend] : "?");
    else if (p->taken >= 2)
      snprintf(msg, sizeof msg, "assuming %s%s%sis %lld", what[0] ? "'" : "the value ", what,
               what[0] ? "' " : "", (long long)p->taken - 2);
    else if (what[0])
      snprintf(msg, sizeof msg, "assuming '%s' is %s", what, p->taken ? "true" : "false");
    else
      snprintf(msg, sizeof msg, "assuming the condition is %s", p->taken ? "true" : "false");
    tc_loc l;
    loc_of(e, p->loc, &l);
    tc_diag_add_note(d, &l, msg);
  }
}

static void add_chain_notes(const tc_eng *e, tc_diag *d, uint32_t chain) {
  if (!chain || chain >= e->n_chains) return;
  const chain_node *c = &e->chains[chain];
  for (uint32_t i = c->n; i-- > 0;) { /* innermost first, like a stack trace */
    const tc_insn *call = c->call[i];
    char msg[512];
    snprintf(msg, sizeof msg, "in call to %s from %s:%u",
             tc_str(e->prog, e->fns[c->callee[i]].fn->name),
             tc_path_base_name(srcloc_file(e, &call->loc)), call->loc.line);
    tc_loc l;
    loc_of(e, &call->loc, &l);
    tc_diag_add_note(d, &l, msg);
  }
}

/* The fix-it of a finding, from its plan (fixes.c): each step's template replaces its argument
   (or the call). A template that is not harmless where the check passes is offered only when
   every state reaching the call failed. */
static void add_fix(tc_eng *e, tc_diag *diag, const tc_insn *in, const detail *d, int all_fail) {
  for (uint8_t i = 0; i < d->n_fix; i++)
    if (!all_fail && !e->rules->fixes[d->fix[i].def].on_warnings) return;
  for (uint8_t i = 0; i < d->n_fix; i++) {
    const fix_step *st = &d->fix[i];
    const tc_fix_def *def = &e->rules->fixes[st->def];
    const tc_srcloc *from[TC_FIX_MAX_SOURCES];
    tc_loc range, sources[TC_FIX_MAX_SOURCES];
    size_t n_sources = 0;
    tc_strbuf with;
    tc_strbuf_init(&with);
    if (fix_template(e, in, st, &with, from, &n_sources) != 0) {
      tc_strbuf_free(&with);
      e->oom = 1;
      return;
    }
    loc_of(e, def->replace_call ? &in->loc : &in->arg_locs[st->got], &range);
    for (size_t k = 0; k < n_sources; k++) loc_of(e, from[k], &sources[k]);
    if (tc_diag_add_fix(diag, &range, tc_strbuf_str(&with), sources, n_sources)) e->oom = 1;
    tc_strbuf_free(&with);
  }
}

/* Findings are one per source location and rule (inline helpers and macros may put several
   instructions at one place). */
static uint64_t finding_key(const tc_insn *in, int rule) {
  uint64_t h = hash_mix(in->loc.file, ((uint64_t)in->loc.line << 20) ^ in->loc.col);
  return hash_mix(h, (uint64_t)rule + 1);
}

typedef struct agg {
  uint32_t chain;
  const tc_insn *insn;
  uint32_t total;
  uint32_t fails[TC_RULE_COUNT];
  uint8_t always[TC_RULE_COUNT]; /* some certainly-entered context failed in every state */
  uint32_t detail[TC_RULE_COUNT];
  uint32_t fix_key[TC_RULE_COUNT];
  uint16_t fix_mixed;
} agg;

int findings_emit(tc_eng *e, tc_report *out) {
  /* per (context, call): every state it was checked in */
  agg *aggs = NULL;
  size_t n_aggs = 0, cap_aggs = 0;
  tc_map agg_index = {0};
  for (size_t i = 0; i < e->n_outs; i++) {
    const outcome *o = &e->outs[i];
    uint64_t key = hash_mix(o->chain, (uint64_t)(uintptr_t)o->insn);
    agg *a = NULL;
    for (uint64_t attempt = 0; !a; attempt++) {
      uint64_t k = attempt ? hash_mix(key, attempt) : key;
      uint32_t idx;
      if (!map_get(&agg_index, k, &idx)) {
        a = VEC_PUSH(aggs, n_aggs, cap_aggs);
        if (!a) break;
        memset(a, 0, sizeof *a);
        a->chain = o->chain;
        a->insn = o->insn;
        if (map_put(&agg_index, k, (uint32_t)(n_aggs - 1))) e->oom = 1;
      } else if (aggs[idx].chain == o->chain && aggs[idx].insn == o->insn) {
        a = &aggs[idx];
      }
    }
    if (!a) {
      e->oom = 1;
      break;
    }
    a->total += o->total;
    for (int r = 0; r < TC_RULE_COUNT; r++) {
      if (o->fails[r])
        fix_key_merge(&a->fix_key[r], &a->fix_mixed, r, a->fails[r] > 0, o->fix_key[r],
                      (o->fix_mixed >> r) & 1);
      a->fails[r] += o->fails[r];
      if (o->entry_certain && o->fails[r] && o->fails[r] == o->total) a->always[r] = 1;
      if (!a->detail[r]) a->detail[r] = o->detail[r];
    }
  }
  /* one finding per (call, rule), in the order the calls were first checked */
  finding *fs = NULL;
  size_t n_fs = 0, cap_fs = 0;
  tc_map f_index = {0};
  for (size_t i = 0; i < e->n_outs; i++) {
    const outcome *o = &e->outs[i];
    for (int r = 0; r < TC_RULE_COUNT; r++) {
      if (!o->fails[r]) continue;
      uint64_t key = finding_key(o->insn, r);
      if (map_get(&f_index, key, NULL)) continue;
      finding *f = VEC_PUSH(fs, n_fs, cap_fs);
      if (!f) {
        e->oom = 1;
        break;
      }
      f->insn = o->insn;
      f->fn = o->fn;
      f->rule = r;
      f->level = TC_LEVEL_NOTE;
      f->detail = 0;
      f->chain = 0;
      f->fix_key = 0;
      f->fix_mixed = 0;
      f->seen = 0;
      f->all_fail = 1;
      if (map_put(&f_index, key, (uint32_t)(n_fs - 1))) e->oom = 1;
    }
  }
  for (size_t i = 0; i < n_aggs; i++) {
    const agg *a = &aggs[i];
    for (int r = 0; r < TC_RULE_COUNT; r++) {
      uint32_t idx;
      if (!map_get(&f_index, finding_key(a->insn, r), &idx)) continue;
      finding *f = &fs[idx];
      if (a->fails[r] != a->total) f->all_fail = 0; /* a context where it passes too */
      if (!a->fails[r]) continue;
      fix_key_merge(&f->fix_key, &f->fix_mixed, 0, f->seen, a->fix_key[r],
                    (a->fix_mixed >> r) & 1);
      f->seen = 1;
      /* error: every state of this call chain failed, or every state of one calling context
         (one entry state of the callee) that no undecided branch led to — a helper called in
         a constant-bound loop that fails for one of its iterations' arguments */
      tc_level lvl =
          a->fails[r] == a->total || a->always[r] ? TC_LEVEL_ERROR : TC_LEVEL_WARNING;
      if (lvl > f->level) {
        f->level = lvl;
        f->detail = a->detail[r];
        f->chain = a->chain;
      }
    }
  }
  for (size_t i = 0; i < n_fs; i++) {
    const finding *f = &fs[i];
    if (!f->detail) continue;
    const detail *d = &e->details[f->detail - 1];
    tc_loc l;
    loc_of(e, &f->insn->loc, &l);
    tc_diag *diag = tc_report_add(out, e->rules->rule_ids[f->rule], f->level, &l, d->op,
                                  tc_str(e->prog, e->fns[f->fn].fn->name), d->message);
    if (!diag) {
      e->oom = 1;
      break;
    }
    for (size_t k = 0; k < d->n_provs; k++) add_prov_notes(e, diag, d->provs[k]);
    if (f->level == TC_LEVEL_WARNING) add_path_notes(e, diag, d->path);
    add_chain_notes(e, diag, f->chain);
    if (f->fix_key && !f->fix_mixed && d->n_fix) add_fix(e, diag, f->insn, d, f->all_fail);
  }
  free(aggs);
  map_free(&agg_index);
  free(fs);
  map_free(&f_index);
  return e->oom ? -1 : 0;
}
