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

const char *srcloc_file(const tc_eng *e, const tc_srcloc *l) {
  return l ? tc_str(e->prog, l->file) : "";
}

const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

uint32_t chain_intern(tc_eng *e, uint32_t parent, const tc_insn *call, uint32_t caller,
                      uint32_t callee) {
  uint64_t key = hash_mix(parent, (uint64_t)(uintptr_t)call);
  for (uint64_t attempt = 0;; attempt++) {
    uint64_t k = attempt ? hash_mix(key, attempt) : key;
    uint32_t id;
    if (!map_get(&e->chain_index, k, &id)) {
      if (!e->n_chains) { /* id 0: the root context */
        chain_node *z = VEC_PUSH(e->chains, e->n_chains, e->cap_chains);
        if (!z) break;
        memset(z, 0, sizeof *z);
      }
      chain_node *n = VEC_PUSH(e->chains, e->n_chains, e->cap_chains);
      if (!n) break;
      n->parent = parent;
      n->call = call;
      n->caller = caller;
      n->callee = callee;
      id = (uint32_t)(e->n_chains - 1);
      if (map_put(&e->chain_index, k, id)) e->oom = 1;
      return id;
    }
    if (e->chains[id].parent == parent && e->chains[id].call == call) return id;
  }
  e->oom = 1;
  return parent;
}

void outcome_record(tc_eng *e, uint32_t fn, const tc_insn *in, int rule, uint32_t detail) {
  outcome *o = VEC_PUSH(e->outs, e->n_outs, e->cap_outs);
  if (!o) {
    e->oom = 1;
    return;
  }
  o->chain = e->cur_chain;
  o->fn = fn;
  o->insn = in;
  o->rule = (int8_t)rule;
  o->detail = detail;
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

void outcomes_replay(tc_eng *e, size_t begin, size_t end, uint32_t from_chain,
                     uint32_t to_chain) {
  for (size_t i = begin; i < end; i++) {
    outcome o = e->outs[i];
    uint32_t suffix[64];
    int n = 0, ok = 0;
    for (uint32_t c = o.chain; n < 64; c = e->chains[c].parent) {
      if (c == from_chain) {
        ok = 1;
        break;
      }
      if (c == 0) break;
      suffix[n++] = c;
    }
    if (!ok) continue;
    uint32_t nc = to_chain;
    for (int k = n - 1; k >= 0; k--) {
      const chain_node *cn = &e->chains[suffix[k]];
      nc = chain_intern(e, nc, cn->call, cn->caller, cn->callee);
    }
    uint32_t saved = e->cur_chain;
    e->cur_chain = nc;
    outcome_record(e, o.fn, o.insn, o.rule, o.detail);
    e->cur_chain = saved;
  }
}

/* ------------------------------------------------------------------ aggregation */

typedef struct agg {
  uint32_t chain;
  const tc_insn *insn;
  uint32_t total;
  uint32_t fails[TC_RULE_COUNT];
  uint32_t first_detail[TC_RULE_COUNT];
} agg;

typedef struct finding {
  const tc_insn *insn;
  uint32_t fn;
  int rule;
  tc_level level;
  uint32_t detail;
  uint32_t chain;
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
  const char *name = tc_str(e->prog, p->name);
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
  for (int guard = 0; chain && guard < 64; guard++) {
    const chain_node *c = &e->chains[chain];
    char msg[512];
    snprintf(msg, sizeof msg, "in call to %s from %s:%u",
             tc_str(e->prog, e->fns[c->callee].fn->name),
             base_name(srcloc_file(e, &c->call->loc)), c->call->loc.line);
    tc_loc l;
    loc_of(e, &c->call->loc, &l);
    tc_diag_add_note(d, &l, msg);
    chain = c->parent;
  }
}

/* Findings are one per source location and rule (inline helpers and macros may put several
   instructions at one place). */
static uint64_t finding_key(const tc_insn *in, int rule) {
  uint64_t h = hash_mix(in->loc.file, ((uint64_t)in->loc.line << 20) ^ in->loc.col);
  return hash_mix(h, (uint64_t)rule + 1);
}

int findings_emit(tc_eng *e, tc_report *out) {
  agg *aggs = NULL;
  size_t n_aggs = 0, cap_aggs = 0;
  tc_map agg_index = {0};
  for (size_t i = 0; i < e->n_outs; i++) {
    const outcome *o = &e->outs[i];
    uint64_t key = hash_mix(o->chain, (uint64_t)(uintptr_t)o->insn);
    uint32_t idx;
    int found = 0;
    for (uint64_t attempt = 0;; attempt++) {
      uint64_t k = attempt ? hash_mix(key, attempt) : key;
      if (!map_get(&agg_index, k, &idx)) {
        agg *a = VEC_PUSH(aggs, n_aggs, cap_aggs);
        if (!a) {
          e->oom = 1;
          break;
        }
        memset(a, 0, sizeof *a);
        a->chain = o->chain;
        a->insn = o->insn;
        idx = (uint32_t)(n_aggs - 1);
        if (map_put(&agg_index, k, idx)) e->oom = 1;
        found = 1;
        break;
      }
      if (aggs[idx].chain == o->chain && aggs[idx].insn == o->insn) {
        found = 1;
        break;
      }
    }
    if (!found) continue;
    agg *a = &aggs[idx];
    a->total++;
    if (o->rule >= 0 && o->rule < TC_RULE_COUNT) {
      a->fails[o->rule]++;
      if (!a->first_detail[o->rule]) a->first_detail[o->rule] = o->detail;
    }
  }
  /* one finding per (call, rule), in the order the calls were first checked */
  finding *fs = NULL;
  size_t n_fs = 0, cap_fs = 0;
  tc_map f_index = {0};
  for (size_t i = 0; i < e->n_outs; i++) {
    const outcome *o = &e->outs[i];
    if (o->rule < 0) continue;
    uint64_t key = finding_key(o->insn, o->rule);
    uint32_t idx;
    if (map_get(&f_index, key, &idx)) continue;
    finding *f = VEC_PUSH(fs, n_fs, cap_fs);
    if (!f) {
      e->oom = 1;
      break;
    }
    f->insn = o->insn;
    f->fn = o->fn;
    f->rule = o->rule;
    f->level = TC_LEVEL_NOTE;
    f->detail = 0;
    if (map_put(&f_index, key, (uint32_t)(n_fs - 1))) e->oom = 1;
  }
  for (size_t i = 0; i < n_aggs; i++) {
    const agg *a = &aggs[i];
    for (int r = 0; r < TC_RULE_COUNT; r++) {
      if (!a->fails[r]) continue;
      uint32_t idx;
      if (!map_get(&f_index, finding_key(a->insn, r), &idx))
        continue;
      finding *f = &fs[idx];
      tc_level lvl = a->fails[r] == a->total ? TC_LEVEL_ERROR : TC_LEVEL_WARNING;
      if (lvl > f->level) {
        f->level = lvl;
        f->detail = a->first_detail[r];
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
  }
  free(aggs);
  map_free(&agg_index);
  free(fs);
  map_free(&f_index);
  return e->oom ? -1 : 0;
}
