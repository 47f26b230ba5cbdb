/* analyzer/src/engine/per_object.c — one state per object a range-for's element points to.
 * A container's elements are one summary (docs/rules.md), so a pointer read from it — a
 * std::vector<std::unique_ptr<Layer>> filled with layers of two classes — may point to one of
 * several objects, whose fields (a device, a weight) and virtual slots differ. The front end
 * copies the element a range-for visits into its variable or a hidden copy (insn per_object);
 * there the state splits into one per object, the copy's pointer narrowed to it, so what the
 * iteration does with the object — `st->device()`, the input moved there, the call of its
 * class's overrider — is computed with that object alone. The container keeps every object;
 * the states join where the budget says (a loop head, past max_states). */
#include "engine/eng.h"

/* The place at or directly inside loc (a raw pointer, a smart pointer's one field) holding
   the address of several objects, each known (no unknown index); 0 when none does. */
static uint32_t several_objects_at(tc_eng *e, const astate *s, uint32_t loc, ptset *pts) {
  uint32_t cand = loc;
  for (int depth = 0; cand; depth++) {
    aval v = mem_eff(e, s, cand);
    if (v.k == AV_ADDRSET) {
      av_targets(e, &v, pts);
      int known = pts->n >= 2;
      for (uint32_t i = 0; i < pts->n; i++) known &= pts->idx[i] != IDX_ANY;
      if (known) return cand;
    }
    cand = depth == 0 ? e->locs[loc].first_child : e->locs[cand].next_sibling;
  }
  return 0;
}

/* The location of the hidden temp 1 + id of f's function (a range-for's visit count or bound). */
static uint32_t hidden_temp(frame *f, uint32_t id_plus_1) {
  if (!id_plus_1 || id_plus_1 - 1 >= f->fi->fn->n_temps) return 0;
  return loc_root(f->e, LK_TEMP, FRAME_KEY(f->fi->idx, f->inst), id_plus_1 - 1, f->fi->idx);
}

void flow_split_per_object(frame *f, astate s, const tc_insn *in, state_list *out) {
  tc_eng *e = f->e;
  targets dt;
  ptset pts;
  uint32_t at = 0;
  if (in->has_dst && mem_resolve(f, &s, &in->dst, &dt) && dt.n == 1 && !dt.weak &&
      !dt.overflow)
    at = several_objects_at(e, &s, dt.loc[0], &pts);
  if (!at) {
    slist_push(e, out, s);
    return;
  }
  aval all = mem_eff(e, &s, at);
  /* a range-for that counts its visits: the k-th iteration visits the k-th object, and the
     loop runs once per object (docs/engine.md, "Range-for over objects") */
  uint32_t kl = hidden_temp(f, in->visit_index), nl = hidden_temp(f, in->visit_count);
  aval k = kl ? mem_eff(e, &s, kl) : av_top();
  if (nl && k.k == AV_INT && k.i >= 0 && (uint64_t)k.i < pts.n) {
    aval one = av_make(AV_ADDR, pts.idx[k.i]);
    one.loc = pts.loc[k.i];
    one.prov = all.prov;
    one.neg = all.neg;
    st_set(e, &s.mem, at, &one);
    aval n = av_make(AV_INT, (int64_t)pts.n);
    st_set(e, &s.mem, nl, &n);
    slist_push(e, out, s);
    return;
  }
  for (uint32_t i = 0; i < pts.n; i++) {
    astate c = i + 1 < pts.n ? state_copy(&s) : s;
    aval one = av_make(AV_ADDR, pts.idx[i]);
    one.loc = pts.loc[i];
    one.prov = all.prov;
    one.neg = all.neg;
    st_set(e, &c.mem, at, &one);
    c.uncertain = 1; /* which element it is, the path does not decide */
    slist_push(e, out, c);
  }
}
