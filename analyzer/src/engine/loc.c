/* analyzer/src/engine/loc.c — the table of abstract memory locations (a tree: roots and their
 * fields/elements, each with a small integer id that states index by), field names, and the
 * device/tensor types the rules name. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

#define LOC_LIMIT (1u << 22)

static uint64_t loc_key(uint32_t parent, loc_kind k, uint32_t a, int64_t b, uint64_t attempt) {
  uint64_t h = hash_mix(parent, (uint64_t)k);
  h = hash_mix(h, a);
  h = hash_mix(h, (uint64_t)b);
  return attempt ? hash_mix(h, attempt) : h;
}

static int loc_matches(const eloc *l, uint32_t parent, loc_kind k, uint32_t a, int64_t b) {
  return l->parent == parent && l->kind == k && l->a == a && l->b == b;
}

static int field_is_device(const tc_eng *e, uint32_t f) {
  for (size_t i = 0; i < e->n_devtypes; i++)
    if (f == e->devtypes[i].f_backend || f == e->devtypes[i].f_ordinal ||
        f == e->devtypes[i].f_autodiff)
      return 1;
  return 0;
}

static uint32_t loc_lookup(tc_eng *e, uint32_t parent, loc_kind k, uint32_t a, int64_t b,
                           int create, uint32_t owner_fn) {
  uint64_t attempt = 0;
  for (;;) {
    uint64_t key = loc_key(parent, k, a, b, attempt);
    uint32_t id;
    if (!map_get(&e->loc_index, key, &id)) break;
    if (loc_matches(&e->locs[id], parent, k, a, b)) return id;
    attempt++;
  }
  if (!create) return 0;
  if (e->n_locs >= LOC_LIMIT) return 0;
  if (parent && e->locs[parent].depth >= LOC_MAX_DEPTH) return 0;
  if (e->n_locs == 0) { /* id 0 is "no location" */
    if (!VEC_PUSH(e->locs, e->n_locs, e->cap_locs)) {
      e->oom = 1;
      return 0;
    }
    memset(&e->locs[0], 0, sizeof e->locs[0]);
  }
  eloc *l = VEC_PUSH(e->locs, e->n_locs, e->cap_locs);
  if (!l) {
    e->oom = 1;
    return 0;
  }
  uint32_t id = (uint32_t)(e->n_locs - 1);
  memset(l, 0, sizeof *l);
  l->parent = parent;
  l->kind = (uint8_t)k;
  l->a = a;
  l->b = b;
  l->devfield = (uint8_t)(k == LK_FIELD && field_is_device(e, a));
  if (parent) {
    eloc *p = &e->locs[parent];
    l->root = p->root;
    l->depth = (uint16_t)(p->depth + 1);
    l->next_sibling = p->first_child;
    p->first_child = id;
    if (k == LK_ANY) p->any_child = id;
    l->summarized = (uint8_t)(k == LK_ANY || p->summarized);
    if (k == LK_INDEX || k == LK_ANY) p->is_array = 1;
  } else {
    l->root = id;
    /* a block from an allocator, or what an unknown pointer points to, may be indexed: it
       is an array of what the pointer points to (`items[1]` of a malloc'd list) */
    if (k == LK_HEAP || k == LK_EXT) l->is_array = 1;
    if (k == LK_GLOBAL) {
      uint32_t *g = VEC_PUSH(e->global_roots, e->n_global_roots, e->cap_global_roots);
      if (g) *g = id;
    } else if (k == LK_LOCAL || k == LK_PARAM || k == LK_TEMP || k == LK_RET) {
      fninfo *fi = &e->fns[owner_fn];
      uint32_t *r = VEC_PUSH(fi->roots, fi->n_roots, fi->cap_roots);
      if (r) *r = id;
    }
  }
  uint64_t key = loc_key(parent, k, a, b, attempt);
  if (map_put(&e->loc_index, key, id)) e->oom = 1;
  return id;
}

/* Frame roots (a function activation's locals, parameters, temporaries and return slot) are
   looked up at every access: their ids are remembered in a table per function. */
static uint32_t *frame_slot(tc_eng *e, loc_kind k, uint32_t a, int64_t b, uint32_t owner_fn) {
  if (k != LK_LOCAL && k != LK_PARAM && k != LK_TEMP && k != LK_RET) return NULL;
  if (owner_fn >= e->n_fns || (a & 0xffffffu) != owner_fn || b < 0) return NULL;
  uint32_t inst = FRAME_INST(a);
  if (inst >= MAX_INSTANCES) return NULL;
  fninfo *fi = &e->fns[owner_fn];
  size_t nl = fi->fn->n_locals, np = fi->fn->n_params, nt = fi->fn->n_temps;
  size_t base = 0, lim = 1;
  switch (k) {
    case LK_LOCAL: base = 0, lim = nl; break;
    case LK_PARAM: base = nl, lim = np; break;
    case LK_TEMP: base = nl + np, lim = nt; break;
    case LK_RET: base = nl + np + nt, lim = 1; break;
    case LK_NONE:
    case LK_GLOBAL:
    case LK_HEAP:
    case LK_EXT:
    case LK_FIELD:
    case LK_INDEX:
    case LK_ANY:
      return NULL;
  }
  if ((uint64_t)b >= lim) return NULL;
  size_t per = nl + np + nt + 1;
  if (!fi->frame_locs) {
    fi->frame_locs = calloc(per * MAX_INSTANCES, sizeof *fi->frame_locs);
    if (!fi->frame_locs) return NULL;
  }
  return &fi->frame_locs[inst * per + base + (size_t)b];
}

uint32_t loc_root(tc_eng *e, loc_kind k, uint32_t a, int64_t b, uint32_t owner_fn) {
  uint32_t *slot = frame_slot(e, k, a, b, owner_fn);
  if (slot && *slot) return *slot;
  uint32_t id = loc_lookup(e, 0, k, a, b, 1, owner_fn);
  if (slot) *slot = id;
  return id;
}

uint32_t loc_child(tc_eng *e, uint32_t parent, loc_kind k, uint32_t a, int64_t b) {
  if (!parent) return 0;
  return loc_lookup(e, parent, k, a, b, 1, 0);
}

uint32_t loc_find_child(const tc_eng *e, uint32_t parent, loc_kind k, uint32_t a, int64_t b) {
  if (!parent) return 0;
  return loc_lookup((tc_eng *)e, parent, k, a, b, 0, 0);
}

/* ---- field names ---- */

uint32_t field_id_of_name(tc_eng *e, const char *name) {
  uint64_t h = hash_bytes(1469598103934665603ull, name, strlen(name));
  for (uint64_t attempt = 0;; attempt++) {
    uint64_t key = attempt ? hash_mix(h, attempt) : h;
    uint32_t id;
    if (!map_get(&e->field_by_hash, key, &id)) {
      char **slot = VEC_PUSH(e->field_names, e->n_fields, e->cap_fields);
      if (!slot) {
        e->oom = 1;
        return 0;
      }
      *slot = bump_strdup(&e->bump, name);
      id = (uint32_t)e->n_fields; /* ids start at 1 */
      if (map_put(&e->field_by_hash, key, id)) e->oom = 1;
      return id;
    }
    if (strcmp(e->field_names[id - 1], name) == 0) return id;
  }
}

uint32_t field_id_of_sym(tc_eng *e, tc_sym s) {
  uint32_t id;
  if (map_get(&e->field_by_sym, s, &id)) return id;
  id = field_id_of_name(e, tc_str(e->prog, s));
  if (map_put(&e->field_by_sym, s, id)) e->oom = 1;
  return id;
}

/* "const struct dt_device *" -> "dt_device" (qualifiers, tags and pointers dropped). */
static size_t core_type_name(const char *t, const char **start) {
  for (;;) {
    if (strncmp(t, "const ", 6) == 0)
      t += 6;
    else if (strncmp(t, "volatile ", 9) == 0)
      t += 9;
    else if (strncmp(t, "struct ", 7) == 0)
      t += 7;
    else
      break;
  }
  size_t n = strlen(t);
  while (n && (t[n - 1] == '*' || t[n - 1] == ' ' || t[n - 1] == ']' || t[n - 1] == '[' ||
               (t[n - 1] >= '0' && t[n - 1] <= '9' && memchr(t, '[', n))))
    n--;
  if (n >= 6 && strncmp(t + n - 6, " const", 6) == 0) n -= 6;
  *start = t;
  return n;
}

static int type_is(const char *type_name, const char *want) {
  const char *s;
  size_t n = core_type_name(type_name, &s);
  return n == strlen(want) && strncmp(s, want, n) == 0;
}

const struct devtype *devtype_for(tc_eng *e, const tc_type *t) {
  if (!e->n_devtypes) return NULL;
  if (t) {
    tc_sym syms[3] = {t->record_name, t->name, t->pointee_name};
    for (int i = 0; i < 3; i++) {
      if (!syms[i]) continue;
      const char *nm = tc_str(e->prog, syms[i]);
      for (size_t d = 0; d < e->n_devtypes; d++)
        if (type_is(nm, e->devtypes[d].name)) return &e->devtypes[d];
    }
  }
  return &e->devtypes[0];
}

int loc_type_points_to(const tc_eng *e, const tc_type *t, const char *want) {
  return t->cls == TC_TY_POINTER && t->ptr_depth == 1 && t->pointee_name &&
         type_is(tc_str(e->prog, t->pointee_name), want);
}

int loc_is_tensor_type(const tc_eng *e, const char *type_name) {
  if (!type_name || !type_name[0]) return 0;
  for (size_t i = 0; i < e->rules->n_tensor_types; i++)
    if (type_is(type_name, e->rules->tensor_types[i])) return 1;
  return 0;
}

int type_carries_tag(const tc_eng *e, const tc_type *t) {
  if (t->cls == TC_TY_POINTER && t->pointee_name)
    return loc_is_tensor_type(e, tc_str(e->prog, t->pointee_name));
  if (t->cls == TC_TY_RECORD && t->record_name) {
    const char *nm = tc_str(e->prog, t->record_name);
    for (size_t d = 0; d < e->n_devtypes; d++)
      if (type_is(nm, e->devtypes[d].name)) return 1;
  }
  return 0;
}

int loc_is_device_field(const tc_eng *e, uint32_t id) {
  return id && id < e->n_locs && e->locs[id].devfield;
}
