/* analyzer/src/engine/api.c — one API call applied to one state, as the rules describe it:
 * its checks run (api_checks.c) in the precedence of SPEC §4, once per choice of a member for
 * each tag set among the operands; failures become outcomes (findings.c) with their detail
 * (api_messages.c), and what the fix of a failure changes is forgotten (one root cause, one
 * finding); then its effects and its result (api_effects.c, api_results.c). Also the host
 * accesses the transfer function finds, and the tensors of function families. */
#include <stdio.h>
#include <string.h>

#include "engine/api_call.h"

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
  c->loaded = av_top();
}

/* Whether failures of a rule slot are reported: the rules name a rule for it (rules/messages.c
   makes them name every slot a check in use can fail with) and it is not disabled. */
static int reported(const tc_eng *e, tc_rule_slot rule) {
  const char *id = e->rules->rule_ids[rule];
  if (!id) return 0;
  for (size_t i = 0; i < e->n_disabled; i++)
    if (strcmp(e->disabled[i], id) == 0) return 0;
  return 1;
}

/* Records how this state's checks went (a failure of a disabled rule passes); 1 when it
   failed. */
static int record_outcome(call_ctx *c, const chk_res *res) {
  tc_eng *e = c->f->e;
  if (res->st == CHK_FAIL && reported(e, res->rule)) {
    fix_step steps[FIX_MAX_STEPS];
    uint8_t n_steps;
    uint32_t key = api_plan_fix(c, res, steps, &n_steps);
    outcome_record_fix(e, c->f->fi->idx, c->in, (int)res->rule, api_make_detail(c, res), key);
    if (res->after_unknown) outcome_record(e, c->f->fi->idx, c->in, -1, 0); /* maybe another rule */
    return 1;
  }
  outcome_record(e, c->f->fi->idx, c->in, -1, 0);
  return 0;
}

/* Runs the checks in order: the first failure decides. A check that cannot be decided does not
   stop the others: a later one that fails for sure makes the call fail on every path — with its
   rule when the undecided checks before it can only fail with that rule, else perhaps with
   theirs (after_unknown: a warning). Unknown when nothing fails and something is undecided. */
static chk_res run_checks(call_ctx *c) {
  chk_res res = {.st = CHK_PASS}, first_unknown = {.st = CHK_PASS};
  unsigned undecided_rules = 0;
  c->n_ops = 0;
  for (size_t i = 0; i < c->fn->n_checks; i++) {
    tc_check_kind kind = c->fn->checks[i].kind;
    res = api_run_check(c, &c->fn->checks[i]);
    res.check = (int)kind;
    res.check_pos = (int)i + 1;
    res.undecided_before = first_unknown.st != CHK_PASS;
    if (res.st == CHK_FAIL) {
      res.after_unknown = (undecided_rules & ~(1u << res.rule)) != 0;
      return res;
    }
    if (res.st == CHK_UNKNOWN) {
      if (first_unknown.st == CHK_PASS) first_unknown = res;
      undecided_rules |= tc_check_rule_slots(kind);
    }
  }
  return first_unknown.st == CHK_UNKNOWN ? first_unknown : res;
}

/* The positions of the tag sets of origin var whose members already failed a call on this
   path (a warning: the path goes on where the call passed; one mistake, one finding), kept in
   the state's memory under a pseudo global root so that joins and callees' exits carry it
   (paths that disagree join to unknown: nothing excluded). */
static uint32_t excluded_loc(tc_eng *e, uint32_t var) { return loc_root(e, LK_GLOBAL, 0, var, 0); }

static uint32_t excluded_members(call_ctx *c, uint32_t var) {
  const aval *v = st_get(&c->s->mem, excluded_loc(c->f->e, var));
  return v && v->k == AV_INT ? (uint32_t)v->i : 0;
}

/* After a call that failed for some choices and passed for others: the positions of each set
   that passed in no choice are excluded on this path from now on. */
static void exclude_failed_members(call_ctx *c, const uint32_t *size, const uint32_t *passed,
                                   const uint32_t *excluded) {
  for (int i = 0; i < c->n_sets; i++) {
    uint32_t all = size[i] >= 32 ? ~0u : (1u << size[i]) - 1;
    uint32_t now = excluded[i] | (all & ~passed[i]);
    if (now == excluded[i] || (now & all) == all) continue;
    aval v = av_make(AV_INT, (int64_t)now);
    st_set(c->f->e, &c->s->mem, excluded_loc(c->f->e, c->vars[i]), &v);
  }
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
  uint32_t passed[4] = {0}; /* per set: the positions of the choices that passed */
  uint32_t excluded[4] = {0};
  for (int i = 0; i < c->n_sets; i++) excluded[i] = excluded_members(c, c->vars[i]);
  int after_unknown = 0; /* some choice failed after an undecided check (a warning) */
  for (uint32_t x = 0; x < n_choices; x++) {
    uint32_t rest = x;
    for (int i = 0; i < c->n_sets; i++) {
      c->choice[i] = rest % size[i];
      rest /= size[i];
    }
    int skip = 0;
    for (int i = 0; i < c->n_sets; i++) skip |= (int)((excluded[i] >> c->choice[i]) & 1);
    if (skip) continue;
    c->choosing = 1;
    c->poisoned = 0;
    chk_res res = run_checks(c);
    c->choosing = 0;
    if (c->poisoned) continue;
    counted++;
    if (res.st != CHK_FAIL || !reported(e, res.rule)) {
      for (int i = 0; i < c->n_sets; i++) passed[i] |= 1u << c->choice[i];
      continue;
    }
    n_fail++;
    after_unknown |= res.after_unknown;
    fix_step steps[FIX_MAX_STEPS];
    uint8_t n_steps;
    fix_key_merge(&fix_key[res.rule], &fix_mixed, (int)res.rule, fails[res.rule] > 0,
                  api_plan_fix(c, &res, steps, &n_steps), 0);
    if (!fails[res.rule]++) detail[res.rule] = api_make_detail(c, &res);
  }
  c->poisoned = 0;
  if (!counted) return -1;
  int decorrelated = 0; /* a set that existed when a branch split this merged state */
  for (int i = 0; i < c->n_sets; i++) decorrelated |= c->vars[i] <= c->s->decorrelated;
  if (n_fail && n_fail < counted && decorrelated) {
    /* some members fail, but the branch that split this merged state may have told them
       apart: unknown (documented). A set made after that branch (a device picked later,
       from what the program has then) stands for the paths that reach the call. */
    outcome_record(e, c->f->fi->idx, c->in, -1, 0);
    return 0;
  }
  int one_rule_everywhere = 0;
  for (int r = 0; r < TC_RULE_COUNT; r++) {
    if (!fails[r]) continue;
    outcome_record_fix(e, c->f->fi->idx, c->in, r, detail[r],
                       (fix_mixed >> r) & 1 ? 0 : fix_key[r]);
    if (fails[r] == counted && !after_unknown) one_rule_everywhere = 1;
  }
  /* the choices that passed (or failed another rule): paths of this state too */
  if (!one_rule_everywhere) outcome_record(e, c->f->fi->idx, c->in, -1, 0);
  if (n_fail && n_fail < counted) exclude_failed_members(c, size, passed, excluded);
  return n_fail == counted;
}

/* Registers the tag sets of every check's operands (the first pass stops at the first check
   it cannot decide, which a choice may decide). */
static void find_sets(call_ctx *c) {
  for (size_t i = 0; i < c->fn->n_checks; i++) (void)api_run_check(c, &c->fn->checks[i]);
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
  const tc_backend_def *gb = api_backend_def(e, got->tag.backend);
  if (res->rule != TC_RULE_BUFFER_NOT_SET || !gb || !gb->no_memory) return 0;
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_TENSOR || v->loc != got->v.loc || v->i) continue;
    const tc_backend_def *b = api_backend_def(e, v->tag.backend);
    aval poison = av_poison_over(v); /* a handle not NULL stays so (`if (w)` later) */
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
  api_write_value(c, &v);
}

/* An operand alone of a kind not accepted, already reported for this function at another
   call (`ggml_rope(ctx, q, pos)` then `ggml_rope(ctx, k, pos)`): the same mistake, whose fix
   (the tensor's type where it is made) fixes both. Records it otherwise; 1 when a repeat. */
static int kind_report_repeats(call_ctx *c, const chk_res *res) {
  tc_eng *e = c->f->e;
  if (res->rule != TC_RULE_KIND_MISMATCH || res->expected || !res->got ||
      res->got->v.k != AV_TENSOR)
    return 0;
  const prov *origin = api_handle_origin(res->got->v.prov);
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
   the finding (poison) on this path, as when the program is fixed and rerun (a copy on the
   same backend whose ordinal is not known to differ is that pointer: `gpu:?`; so is one of the
   same tag set). Another read of
   the tensor's data field (`t->data` again) gives a fresh pointer: reported again. */
static void forget_touched_pointer(call_ctx *c, const aval *ptr) {
  tc_eng *e = c->f->e;
  const prov *was = api_handle_origin(ptr->prov);
  if (!was) return;
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&c->s->mem, id);
    if (!v || v->k != AV_DATAPTR || api_handle_origin(v->prov) != was) continue;
    /* the same one of several (a tag set, whose joined tag decides nothing), or a copy with
       the same backend whose ordinal does not differ */
    int same = (ptr->i && v->i == ptr->i) ||
               (tc_tagf_equal(v->tag.backend, ptr->tag.backend) == TC_TRI_YES &&
                tc_tagf_equal(v->tag.ordinal, ptr->tag.ordinal) != TC_TRI_NO);
    aval poison = av_poison_over(v);
    if (same) st_set(e, &c->s->mem, id, &poison);
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
  /* the data of one of several tensors (a tag set): decided per member, so some failing and
     some not is a warning */
  const tagset *ts = tagset_get(f->e, (uint32_t)ptr->i);
  int failed = 0;
  for (uint32_t m = 0; m < (ts ? ts->n : 1); m++) {
    if (ts) op->tag = ts->tag[m];
    chk_res res = api_check_host_memory(f->e, op);
    failed |= record_outcome(&c, &res);
  }
  if (failed) forget_touched_pointer(&c, ptr);
}

/* What a tensor's buffer field holds: NULL where its placement has no buffer, else a handle
   on its device (of one of the devices of its tag set, member for member: a member of a
   device the rules cannot name is in that device's buffer); unknown when that is not known
   (or the members differ in having one). */
static aval buffer_of_handle(tc_eng *e, const aval *handle) {
  tagset members;
  tagset_of_tensor(e, handle, &members);
  int no_buffer = -1;
  for (uint32_t m = 0; m < members.n; m++) {
    const tc_backend_def *b = api_backend_def(e, members.tag[m].backend);
    if (!b && members.n > 1) continue;
    if (!b || (no_buffer >= 0 && no_buffer != b->no_buffer)) return av_top();
    no_buffer = b->no_buffer;
  }
  if (no_buffer < 0) return av_top();
  if (no_buffer) return av_make(AV_INT, 0);
  aval bv = av_make(AV_TENSOR, 0);
  bv.tag = handle->tag;
  bv.tag.kind = TC_TAGF_UNKNOWN;
  bv.prov = handle->prov;
  if (members.n > 1) bv.i = tagset_remap(e, (uint32_t)handle->i, &handle->tag, &bv.tag);
  return bv;
}

uint32_t api_tensor_object(frame *f, astate *s, uint32_t holder, const aval *handle) {
  tc_eng *e = f->e;
  if (!e->f_data && !e->f_buffer && !e->f_view_src && !e->f_kind) return 0;
  uint32_t obj = loc_root(e, LK_EXT, holder, 1, f->fi->idx);
  if (!obj) return 0;
  if (e->f_data) {
    aval d = av_make(AV_DATAPTR, handle->k == AV_TENSOR ? handle->i : 0);
    d.tag = handle->tag;
    d.prov = handle->prov;
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_data, 0), &d, 0);
  }
  if (e->f_buffer) {
    aval bv = buffer_of_handle(e, handle);
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_buffer, 0), &bv, 0);
  }
  if (e->f_view_src) { /* the tensor a view's memory belongs to: placed where the view is */
    aval vs = *handle;
    vs.tag.kind = TC_TAGF_UNKNOWN;
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_view_src, 0), &vs, 0);
  }
  if (e->f_kind) { /* its element type: the enum value of its kind (a literal's, as an argument) */
    aval kv = api_kind_value(e, &handle->tag);
    mem_write(e, s, loc_child(e, obj, LK_FIELD, e->f_kind, 0), &kv, 0);
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
  /* what the program holds after the failure: NULL where the API returns it (poison.i) */
  if (f->e->rules->failed_calls_return_null && in->has_dst && in->dst_type.cls == TC_TY_POINTER)
    poison.i = POISON_NULL;
  if (fn->api && fn->n_checks) {
    chk_res res = run_checks(&c);
    if (c.poisoned) { /* a consequence of a mistake already flagged: not counted */
      api_write_value(&c, &poison);
      return;
    }
    if (c.n_sets) find_sets(&c);
    if (c.n_sets && !c.sets_overflow) {
      int failed = check_choices(&c);
      if (failed < 0) {
        api_write_value(&c, &poison);
        return;
      }
      if (failed) { /* every choice fails */
        api_write_value(&c, &poison);
        return;
      }
    } else if (res.st == CHK_FAIL && kind_report_repeats(&c, &res)) {
      api_write_value(&c, &poison); /* the same mistake again: not counted */
      return;
    } else if (record_outcome(&c, &res)) {
      if (res.rule == TC_RULE_BACKEND_UNAVAILABLE && res.backend >= 0 && res.backend < 32)
        s->avail_reported |= 1u << res.backend;
      if (forget_fixed_operand(&c, &res)) {
        /* the fix gives an operand an accepted kind: the call goes on as the rules say (the
           placement of its operands; the result's kind, unless the rules fix it, is not
           known: it may follow the operand the fix changes) */
        api_apply_effects(&c);
        api_apply_result(&c);
        if (c.poisoned) api_write_value(&c, &poison);
        else if (c.fn->result.tkind < 0) forget_result_kind(&c); /* else a fixed kind */
        return;
      }
      if (c.fn->result.what == TC_RES_DEVICE) {
        /* a device is a value the runtime gives back even when the call fails (dt_autodiff
           returns the device it was given): the program goes on with it, as the rules say */
        api_apply_result(&c);
        return;
      }
      api_write_value(&c, &poison); /* one mistake, one finding */
      return;
    }
  }
  api_apply_effects(&c);
  api_apply_result(&c);
  if (c.poisoned) api_write_value(&c, &poison);
}

