/* analyzer/src/engine/fixes.c — fix-it plans. When a check fails, api.c describes each operand
 * it found wrong (its failure, its argument, the argument that set the expectation); this file
 * matches them against the rules' "fixes" (docs/rules.md) and keeps a plan only when every
 * operand gets an edit that is certainly right: arguments whose source text is known (none from
 * a macro), and a text that the edit would evaluate twice (the expectation's argument, which
 * stays in place) free of side effects. The engine never sees the sources: the report layer
 * renders the templates from the argument ranges (report/fixit.c). */
#include <string.h>

#include "engine/eng.h"

static int loc_known(const tc_srcloc *l) { return l->file && l->line && l->end_line; }

static int count_of(const char *with, const char *placeholder) {
  int n = 0;
  size_t len = strlen(placeholder);
  for (const char *p = strstr(with, placeholder); p; p = strstr(p + len, placeholder)) n++;
  return n;
}

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

/* Whether argument i may stand for a placeholder used `uses` times in the final text. */
static int arg_usable(const tc_eng *e, const tc_insn *in, int i, int uses) {
  if (i < 0 || (uint32_t)i >= in->n_args || !loc_known(&in->arg_locs[i])) return 0;
  return uses <= 1 || arg_is_pure(e, in, i);
}

/* The edit for one candidate: the index of the first rules fix that applies, or -1. */
static int edit_for(const tc_eng *e, const tc_insn *in, int check, const fix_candidate *c) {
  const tc_rules *r = e->rules;
  for (size_t k = 0; k < r->n_fixes; k++) {
    const tc_fix_def *d = &r->fixes[k];
    if ((int)d->check != check || c->msg < 0 || !((d->failures >> c->msg) & 1u)) continue;
    if (!matches(c->got_autodiff, d->when_got) || !matches(c->expected_autodiff, d->when_expected))
      continue;
    int n_got = count_of(d->with, "{got}"), n_exp = count_of(d->with, "{expected}");
    /* replacing the argument keeps the expectation's text where it was: one more use */
    if (!d->replace_call) n_exp += n_exp > 0;
    if (!arg_usable(e, in, c->got, n_got ? n_got : 1)) continue;
    if (n_exp && !arg_usable(e, in, c->expected, n_exp)) continue;
    if (d->replace_call) {
      /* the call's other arguments disappear with it: only if evaluating them did nothing */
      if (!loc_known(&in->loc)) continue;
      int ok = 1;
      for (uint32_t a = 0; a < in->n_args && ok; a++)
        if ((int)a != c->got && (int)a != c->expected) ok = arg_is_pure(e, in, (int)a);
      if (!ok) continue;
    }
    return (int)k;
  }
  return -1;
}

uint32_t fix_plan(const tc_eng *e, const tc_insn *in, int check, const fix_candidate *cands,
                  int n, fix_step *steps, uint8_t *n_steps) {
  *n_steps = 0;
  if (n <= 0 || n > FIX_MAX_STEPS || in->in_macro || !in->arg_locs) return 0;
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; i++) {
    int k = edit_for(e, in, check, &cands[i]);
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

void fix_key_merge(uint32_t *key, uint16_t *mixed, int rule, int had_fails, uint32_t add,
                   int add_mixed) {
  uint16_t bit = (uint16_t)(1u << rule);
  if (add_mixed) *mixed |= bit;
  if (!had_fails)
    *key = add;
  else if (*key != add)
    *mixed |= bit;
}
