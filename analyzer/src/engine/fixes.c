/* analyzer/src/engine/fixes.c — fix-it plans. When a check fails, api.c describes each operand
 * it found wrong (its failure, its argument, the argument that set the expectation, whether
 * that argument is a tensor's `t->data` and whether the call's other checks pass); this file
 * matches them against the rules' "fixes" (docs/rules.md) and keeps a plan only when every
 * operand gets an edit that is certainly right: arguments whose source text is known (none from
 * a macro), each evaluated as often as before unless it is free of side effects (an argument
 * the edit drops, or reads twice, must be a plain access expression). The engine never sees
 * the sources: it resolves the template's placeholders into source ranges (fix_template), and
 * the report layer renders them (report/fixit.c). */
#include <string.h>

#include "engine/eng.h"

/* Calls with more arguments get no fix (the uses of each are counted in a fixed array). */
#define FIX_MAX_CALL_ARGS 32

static int loc_known(const tc_srcloc *l) { return l->file && l->line && l->end_line; }

/* An access expression that evaluating twice cannot change: names, members, subscripts,
   address-of and dereference, arithmetic; no call, assignment, increment or comma. */
static int text_is_pure(const char *s) {
  if (!s || !s[0]) return 0;
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if ((c == '+' || c == '-') && p[1] == c) return 0;
    if (c == '(' || c == ')' || c == '=' || c == ',' || c == '?' || c == '"' || c == '\'')
      return 0;
  }
  return 1;
}

static int arg_is_pure(const tc_eng *e, const tc_insn *in, int i) {
  const tc_opnd *o = &in->args[i];
  if (o->kind == TC_OPND_INT) return 1;
  if (o->kind != TC_OPND_PATH && o->kind != TC_OPND_ADDR) return 0;
  if (o->path.root == TC_ROOT_TEMP) return 0;
  for (uint32_t k = 0; k < o->path.n_elems; k++)
    if (o->path.elems[k].kind == TC_ELEM_INDEX_ANY && o->path.elems[k].index_root == TC_ROOT_TEMP)
      return 0;
  return o->path.spelling && text_is_pure(tc_str(e->prog, o->path.spelling));
}

static int matches(int32_t autodiff, int want) { return want < 0 || autodiff == want; }

/* How often the edit of def evaluates each argument of the call: reads[i] times argument i's
   text is read by the template, uses[i] that plus once if it stays in place; *handle_uses for
   {got_handle}. -1 when the template names an argument the call lacks, or reads more source
   ranges than an edit holds. */
static int count_uses(const tc_fix_def *d, const tc_insn *in, const fix_candidate *c,
                      int reads[FIX_MAX_CALL_ARGS], int uses[FIX_MAX_CALL_ARGS],
                      int *handle_uses) {
  int n_args = (int)in->n_args, n_refs = 0;
  memset(reads, 0, sizeof(int) * FIX_MAX_CALL_ARGS);
  *handle_uses = 0;
  for (const char *p = d->with; *p; p++) {
    size_t len;
    int arg;
    tc_fix_placeholder_kind k = tc_fix_placeholder(p, &len, &arg);
    if (k == TC_FIX_NOT_PLACEHOLDER) continue;
    if (++n_refs > TC_FIX_MAX_SOURCES) return -1;
    int i = k == TC_FIX_GOT || k == TC_FIX_GOT_HANDLE ? c->got
            : k == TC_FIX_EXPECTED                     ? c->expected
                                                       : arg;
    if (i < 0 || i >= n_args) return -1;
    if (k == TC_FIX_GOT_HANDLE)
      (*handle_uses)++;
    else
      reads[i]++;
    p += len - 1;
  }
  /* unless the whole call is replaced, every argument but the replaced one stays */
  for (int i = 0; i < n_args; i++) uses[i] = reads[i] + (!d->replace_call && i != c->got);
  return 0;
}

/* Whether fix def may repair candidate c at call in (of function fn_name). */
static int fix_applies(const tc_eng *e, const tc_insn *in, const char *fn_name, int check,
                       const tc_fix_def *d, const fix_candidate *c) {
  if ((int)d->check != check || c->msg < 0 || !((d->failures >> c->msg) & 1u)) return 0;
  if (!matches(c->got_autodiff, d->when_got) || !matches(c->expected_autodiff, d->when_expected))
    return 0;
  if (!tc_fix_applies_to(d, fn_name) || (d->got_arg >= 0 && d->got_arg != c->got)) return 0;
  if (c->got < 0 || (uint32_t)c->got >= in->n_args || !loc_known(&in->arg_locs[c->got]))
    return 0;
  if (d->result_unused && in->has_dst) return 0;
  /* a new call in place of this one: it must not fail what this one's other checks guard */
  if (d->replace_call && (!loc_known(&in->loc) || !c->others_pass)) return 0;
  int reads[FIX_MAX_CALL_ARGS], uses[FIX_MAX_CALL_ARGS], handle_uses;
  if (count_uses(d, in, c, reads, uses, &handle_uses) != 0) return 0;
  if (handle_uses) {
    if (!c->got_is_handle_data || !in->arg_base_locs || !loc_known(&in->arg_base_locs[c->got]))
      return 0;
    /* the handle is part of the argument's text: both read means it is evaluated twice */
    if (handle_uses + uses[c->got] > 1 && !arg_is_pure(e, in, c->got)) return 0;
  }
  for (int i = 0; i < (int)in->n_args; i++) {
    int dropped = uses[i] == 0 && !(i == c->got && handle_uses);
    if ((dropped || uses[i] > 1) && !arg_is_pure(e, in, i)) return 0;
    if (reads[i] && !loc_known(&in->arg_locs[i])) return 0;
  }
  return 1;
}

/* The edit for one candidate: the index of the first rules fix that applies, or -1. */
static int edit_for(const tc_eng *e, const tc_insn *in, const char *fn_name, int check,
                    const fix_candidate *c) {
  for (size_t k = 0; k < e->rules->n_fixes; k++)
    if (fix_applies(e, in, fn_name, check, &e->rules->fixes[k], c)) return (int)k;
  return -1;
}

uint32_t fix_plan(const tc_eng *e, const tc_insn *in, const char *fn_name, int check,
                  const fix_candidate *cands, int n, fix_step *steps, uint8_t *n_steps) {
  *n_steps = 0;
  if (n <= 0 || n > FIX_MAX_STEPS || in->in_macro || !in->arg_locs ||
      in->n_args > FIX_MAX_CALL_ARGS)
    return 0;
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; i++) {
    int k = edit_for(e, in, fn_name, check, &cands[i]);
    if (k < 0) return 0;
    if (e->rules->fixes[k].replace_call && n > 1) return 0; /* edits would overlap */
    for (int j = 0; j < i; j++)
      if (steps[j].got == cands[i].got) return 0;
    steps[i].def = (uint16_t)k;
    steps[i].got = (int16_t)cands[i].got;
    steps[i].expected = (int16_t)cands[i].expected;
    h = hash_mix(h, ((uint64_t)(uint32_t)k << 32) ^ ((uint64_t)(uint16_t)cands[i].got << 16) ^
                        (uint16_t)cands[i].expected);
  }
  *n_steps = (uint8_t)n;
  uint32_t key = (uint32_t)(h ^ (h >> 32));
  return key ? key : 1;
}

int fix_template(const tc_eng *e, const tc_insn *in, const fix_step *st, tc_strbuf *with,
                 const tc_srcloc **sources, size_t *n_sources) {
  const tc_fix_def *d = &e->rules->fixes[st->def];
  *n_sources = 0;
  for (const char *p = d->with; *p;) {
    size_t len;
    int arg;
    tc_fix_placeholder_kind k = tc_fix_placeholder(p, &len, &arg);
    if (k == TC_FIX_NOT_PLACEHOLDER) {
      tc_strbuf_putc(with, *p++);
      continue;
    }
    int i = k == TC_FIX_GOT || k == TC_FIX_GOT_HANDLE ? st->got
            : k == TC_FIX_EXPECTED                     ? st->expected
                                                       : arg;
    if (i < 0 || (uint32_t)i >= in->n_args || *n_sources == TC_FIX_MAX_SOURCES ||
        (k == TC_FIX_GOT_HANDLE && !in->arg_base_locs))
      return -1; /* the plan checked it all: not reached */
    sources[*n_sources] = k == TC_FIX_GOT_HANDLE ? &in->arg_base_locs[i] : &in->arg_locs[i];
    tc_strbuf_printf(with, "{%zu}", (*n_sources)++);
    p += len;
  }
  return with->failed ? -1 : 0;
}

void fix_key_merge(uint32_t *key, uint16_t *mixed, int rule, int had_fails, uint32_t add,
                   int add_mixed) {
  uint16_t bit = (uint16_t)(1u << rule);
  if (add_mixed) *mixed |= bit;
  if (!had_fails)
    *key = add;
  else if (*key != add)
    *mixed |= bit;
}
