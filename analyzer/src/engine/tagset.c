/* analyzer/src/engine/tagset.c — "one of these tags": what a join of known tags becomes instead
 * of unknown. A tensor value whose paths (or array elements) disagree holds an interned set of
 * up to TAGSET_MAX whole tags (backend, ordinal, autodiff, kind together, so no combination
 * that no path had is invented); the fields of a device struct joined from disagreeing paths
 * hold "field k of device set T" (an AV_SYM with a negative identity), read back together as
 * that set. The tag lattice (backends x ordinals x autodiff x kinds) is finite, so joins of
 * sets converge; a set that would outgrow TAGSET_MAX falls back to the field-wise join
 * (differing fields unknown). A set made from another (a tensor created on a device of a set,
 * dt_autodiff of it, the device of such a tensor) keeps its members' positions and its
 * origin's `var`: one choice of a position decides every set of one var, so a tensor and the
 * device it was made on stay one member; api.c checks a call once per choice (check_choices). */
#include <string.h>

#include "engine/eng.h"

static int tag_cmp(const tc_tag *a, const tc_tag *b) { return memcmp(a, b, sizeof *a); }

int tagset_add(tagset *s, const tc_tag *t) {
  uint32_t i = 0;
  while (i < s->n && tag_cmp(&s->tag[i], t) < 0) i++;
  if (i < s->n && tag_cmp(&s->tag[i], t) == 0) return 0;
  if (s->n >= TAGSET_MAX) return -1;
  memmove(&s->tag[i + 1], &s->tag[i], (s->n - i) * sizeof s->tag[0]);
  s->tag[i] = *t;
  s->n++;
  return 0;
}

const tagset *tagset_get(const tc_eng *e, uint32_t id) {
  return id && id <= e->n_tagsets ? &e->tagsets[id - 1] : NULL;
}

uint32_t tagset_intern(tc_eng *e, const tagset *s) {
  if (s->n < 2) return 0;
  uint32_t same = 1;
  while (same < s->n && tag_cmp(&s->tag[same], &s->tag[0]) == 0) same++;
  if (same == s->n) return 0; /* one tag after all */
  uint64_t h = hash_mix(hash_mix(hash_mix(0x7a95e7ull, s->var), s->dead), s->joined);
  h = hash_bytes(h, s->tag, s->n * sizeof s->tag[0]);
  for (uint64_t attempt = 0;; attempt++) {
    uint64_t k = attempt ? hash_mix(h, attempt) : h;
    uint32_t id;
    if (!map_get(&e->tagset_index, k, &id)) {
      tagset *p = VEC_PUSH(e->tagsets, e->n_tagsets, e->cap_tagsets);
      if (!p) {
        e->oom = 1;
        return 0;
      }
      *p = *s;
      if (!p->var) p->var = (uint32_t)e->n_tagsets; /* a new origin */
      if (map_put(&e->tagset_index, k, (uint32_t)e->n_tagsets)) e->oom = 1;
      return (uint32_t)e->n_tagsets;
    }
    const tagset *q = &e->tagsets[id - 1];
    if (q->n == s->n && q->dead == s->dead && q->joined == s->joined &&
        (s->var ? q->var == s->var : q->var == id) &&
        !memcmp(q->tag, s->tag, s->n * sizeof s->tag[0]))
      return id;
  }
}

int tagsets_share_device(const tagset *a, const tagset *b) {
  if (!a || !b) return 1;
  for (uint32_t i = 0; i < a->n; i++)
    for (uint32_t j = 0; j < b->n; j++)
      if (tc_tagf_equal(a->tag[i].backend, b->tag[j].backend) != TC_TRI_NO &&
          tc_tagf_equal(a->tag[i].ordinal, b->tag[j].ordinal) != TC_TRI_NO)
        return 1; /* autodiff-ness aside: dt_from_inner pairs autodiff<d> with a plain d */
  return 0;
}

tc_tag tagset_view(const tagset *s) {
  tc_tag t = s->n ? s->tag[0] : tc_tag_unknown();
  for (uint32_t i = 1; i < s->n; i++) t = tc_tag_join(t, s->tag[i]);
  return t;
}

void tagset_of_tensor(const tc_eng *e, const aval *v, tagset *out) {
  const tagset *s =
      v->k == AV_TENSOR || v->k == AV_DATAPTR ? tagset_get(e, (uint32_t)v->i) : NULL;
  if (s) {
    *out = *s;
    return;
  }
  memset(out, 0, sizeof *out);
  out->n = 1;
  out->tag[0] = v->tag;
}

/* Set s's members as a new origin (sorted, without duplicates); -1 if too many. */
static int members_of(const tagset *s, tagset *out) {
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; i < s->n; i++)
    if (tagset_add(out, &s->tag[i])) return -1;
  return 0;
}

int tensor_join_tags(tc_eng *e, const aval *a, const aval *b, aval *r) {
  tagset s, t, u;
  tagset_of_tensor(e, a, &s);
  tagset_of_tensor(e, b, &t);
  if (members_of(&s, &u)) return 0;
  for (uint32_t i = 0; i < t.n; i++)
    if (tagset_add(&u, &t.tag[i])) return 0;
  u.joined = 1;
  r->tag = tagset_view(&u);
  r->i = tagset_intern(e, &u);
  return 1;
}

uint32_t tagset_remap(tc_eng *e, uint32_t id, const tc_tag *view, const tc_tag *to) {
  const tagset *s = tagset_get(e, id);
  if (!s) return 0;
  tagset out = *s; /* positions kept: the same choice picks the same member */
  for (uint32_t i = 0; i < out.n; i++) {
    tc_tag *m = &out.tag[i];
    if (to->backend != view->backend) m->backend = to->backend;
    if (to->ordinal != view->ordinal) m->ordinal = to->ordinal;
    if (to->autodiff != view->autodiff) m->autodiff = to->autodiff;
    if (to->kind != view->kind) m->kind = to->kind;
  }
  return tagset_intern(e, &out);
}

/* ---- device fields ---- */

int devset_field(const aval *v, uint32_t *set, int *k) {
  if (v->k != AV_SYM || v->i >= 0) return 0;
  int64_t x = -1 - v->i;
  *set = (uint32_t)(x >> 2);
  *k = (int)(x & 3);
  return 1;
}

aval devset_value(uint32_t set, int k) { return av_make(AV_SYM, -1 - (((int64_t)set << 2) | k)); }

static int32_t field_tagf(tc_eng *e, const aval *v, int k) {
  if (v->k == AV_INT) {
    if (k == 0) return tc_rules_backend_by_value(e->rules, v->i);
    if (k == 2) return v->i != 0;
    return v->i >= 0 && v->i < INT32_MAX ? (int32_t)v->i : TC_TAGF_UNKNOWN;
  }
  if (v->k == AV_NE && k == 2 && v->i == 0) return 1;
  if (v->k == AV_SYM && v->i >= 0 && v->i < INT32_MAX / 2) return TC_TAGF_SYM(v->i);
  return TC_TAGF_UNKNOWN;
}

static void set_field(tc_tag *t, int k, int32_t v) {
  if (k == 0) t->backend = v;
  if (k == 1) t->ordinal = v;
  if (k == 2) t->autodiff = v;
}

int device_members(tc_eng *e, const aval fv[3], tagset *out) {
  uint32_t set = 0;
  memset(out, 0, sizeof *out);
  int have = 0;
  for (int k = 0; k < 3; k++) {
    uint32_t s;
    int fk;
    if (!devset_field(&fv[k], &s, &fk)) continue;
    if (fk != k || (have && s != set) || !tagset_get(e, s)) return 0;
    set = s;
    have = 1;
  }
  if (have) {
    *out = *tagset_get(e, set);
  } else {
    out->n = 1;
    out->tag[0] = tc_tag_unknown();
  }
  for (uint32_t i = 0; i < out->n; i++) { /* positions and origin kept */
    tc_tag *m = &out->tag[i];
    m->kind = TC_TAGF_UNKNOWN;
    for (int k = 0; k < 3; k++) {
      uint32_t s;
      int fk;
      if (!devset_field(&fv[k], &s, &fk)) set_field(m, k, field_tagf(e, &fv[k], k));
    }
  }
  return 1;
}

int device_members_at(tc_eng *e, astate *s, const struct devtype *dt, const targets *t,
                      aval fv[3], tagset *members) {
  int weak = t->weak || t->n > 1;
  uint32_t fids[3] = {dt->f_backend, dt->f_ordinal, dt->f_autodiff};
  int members_known = 1;
  memset(members, 0, sizeof *members);
  int have = 0;
  for (int k = 0; k < 3; k++) fv[k] = av_top();
  for (int j = 0; j < t->n; j++) {
    if (t->n > 1 && mem_skip_summary(e, s, t, j, 1)) continue;
    aval one[3];
    for (int k = 0; k < 3; k++) {
      uint32_t fl = loc_child(e, t->loc[j], LK_FIELD, fids[k], 0);
      one[k] = fl ? mem_read_materialized(e, s, fl, weak) : av_top();
      fv[k] = have ? av_join(e, &fv[k], &one[k]) : one[k];
    }
    /* the devices this element can be, added to those of the others (a table of devices
       indexed by a value read from input is one of them) */
    tagset m, u;
    int first = !have;
    have = 1;
    if (!members_known || !device_members(e, one, &m)) {
      members_known = 0;
      continue;
    }
    if (first) {
      *members = m; /* one place: its set as it is (its origin kept) */
    } else if (tagset_union(members, &m, &u)) {
      members_known = 0;
    } else {
      *members = u;
    }
  }
  return members_known;
}

int tagset_union(const tagset *a, const tagset *b, tagset *out) {
  if (members_of(a, out)) return -1;
  for (uint32_t i = 0; i < b->n; i++)
    if (tagset_add(out, &b->tag[i])) return -1;
  out->joined = 1;
  return 0;
}

const struct devtype *devtype_of_field(const tc_eng *e, uint32_t field, int *k) {
  for (size_t i = 0; i < e->n_devtypes; i++) {
    const struct devtype *d = &e->devtypes[i];
    *k = field == d->f_backend ? 0 : field == d->f_ordinal ? 1 : field == d->f_autodiff ? 2 : -1;
    if (*k >= 0) return d;
  }
  return NULL;
}

aval device_field_of_set(tc_eng *e, uint32_t set, int k, const prov *pv) {
  const tagset *s = tagset_get(e, set);
  int32_t f = 0;
  for (uint32_t i = 0; s && i < s->n; i++) {
    int32_t x = k == 0 ? s->tag[i].backend : k == 1 ? s->tag[i].ordinal : s->tag[i].autodiff;
    if (i && x != f) {
      aval v = devset_value(set, k);
      v.prov = pv;
      return v;
    }
    f = x;
  }
  if (!s || !TC_TAGF_KNOWN(f)) return av_top();
  aval v = av_make(AV_INT, k == 0 && (size_t)f < e->rules->n_backends ? e->rules->backends[f].value
                                                                        : f);
  v.prov = pv;
  return v;
}

/* ---- tests of the member (a branch on ggml_backend_buffer_is_host of one of several
   buffers) ---- */

aval settest_value(uint32_t var, uint32_t when_true, uint32_t when_false) {
  return av_make(AV_SETTEST, ((int64_t)var << (2 * TAGSET_MAX)) |
                                 ((int64_t)when_true << TAGSET_MAX) | (int64_t)when_false);
}

aval settest_of_members(const tc_eng *e, const tagset *ts,
                        int (*holds)(const tc_backend_def *b, int64_t arg), int64_t arg) {
  uint32_t yes = 0, no = 0, all = ((1u << ts->n) - 1) & ~ts->dead;
  for (uint32_t i = 0; i < ts->n; i++) {
    if (ts->dead & (1u << i)) continue; /* ruled out: neither side keeps it */
    int32_t f = ts->tag[i].backend;
    const tc_backend_def *b =
        TC_TAGF_KNOWN(f) && (size_t)f < e->rules->n_backends ? &e->rules->backends[f] : NULL;
    if (!b || holds(b, arg)) yes |= 1u << i; /* a member not known may be either */
    if (!b || !holds(b, arg)) no |= 1u << i;
  }
  if (yes == all && no == all) return av_top();
  if (!no) return av_make(AV_INT, 1);
  if (!yes) return av_make(AV_INT, 0);
  return settest_value(ts->var, yes, no);
}

static int backend_has_value(const tc_backend_def *b, int64_t value) { return b->value == value; }

aval devset_backend_test(tc_eng *e, uint32_t set, int64_t value) {
  const tagset *ts = tagset_get(e, set);
  return ts ? settest_of_members(e, ts, backend_has_value, value) : av_top();
}

uint32_t settest_var(const aval *v) { return (uint32_t)(v->i >> (2 * TAGSET_MAX)); }

uint32_t settest_mask(const aval *v, int truth) {
  return (uint32_t)(v->i >> (truth ? TAGSET_MAX : 0)) & ((1u << TAGSET_MAX) - 1);
}

/* Set s with the members at positions outside mask replaced by the first kept one: the
   positions, and so what one choice picks in every set of the origin, stay as they were. The
   replaced ones are dead: a later test of the origin's positions (a second branch on a flag
   read before the first) must not keep them, since their member is not the origin's. */
static void keep_positions(const tagset *s, uint32_t mask, tagset *out) {
  *out = *s;
  uint32_t first = 0;
  while (first < s->n && !(mask & (1u << first))) first++;
  for (uint32_t i = 0; i < s->n; i++)
    if (!(mask & (1u << i))) {
      out->tag[i] = s->tag[first];
      out->dead |= 1u << i;
    }
}

int tagset_narrow(tc_eng *e, astate *s, uint32_t var, uint32_t mask) {
  if (!mask) return 0;
  for (uint32_t id = 1; id < e->n_locs; id++) {
    const aval *v = st_get(&s->mem, id);
    if (!v || (v->k != AV_TENSOR && v->k != AV_DATAPTR)) continue;
    const tagset *set = tagset_get(e, (uint32_t)v->i);
    if (!set || set->var != var) continue;
    uint32_t live = ((1u << set->n) - 1) & ~set->dead;
    if ((mask & live) == live) continue;
    if (!(mask & live)) return 0; /* no member this path can be */
    tagset kept;
    keep_positions(set, mask & live, &kept);
    aval nv = *v;
    nv.i = tagset_intern(e, &kept);
    nv.tag = tagset_view(&kept);
    st_set(e, &s->mem, id, &nv);
  }
  return 1;
}
