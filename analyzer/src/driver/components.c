/* analyzer/src/driver/components.c — connected components of a database's units (see
 * components.h). Symbols are compared by their USR strings (each unit has its own string
 * table). A function defined in several units (each program's `main`, `init_model`) does not
 * link its definers to each other — the engine keeps such definitions apart — but a unit
 * calling it is linked to every unit that defines it. Globals link every unit that names them. */
#include "driver/components.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "base/bytes.h"

typedef struct sym_slot {
  const char *name; /* borrowed from a unit's string table; NULL: empty */
  uint64_t hash;
  size_t unit;      /* the first unit that defines (functions) or names (globals) it */
  int several;      /* functions: more than one unit defines it */
} sym_slot;

typedef struct comp_ctx {
  size_t *parent; /* union-find over units */
  sym_slot *fns, *globals;
  size_t cap; /* of each table (a power of two) */
  int oom;
} comp_ctx;

static size_t find(comp_ctx *c, size_t u) {
  while (c->parent[u] != u) {
    c->parent[u] = c->parent[c->parent[u]];
    u = c->parent[u];
  }
  return u;
}

static void unite(comp_ctx *c, size_t a, size_t b) {
  a = find(c, a);
  b = find(c, b);
  if (a == b) return;
  if (a < b)
    c->parent[b] = a;
  else
    c->parent[a] = b;
}

/* The slot of name in table t (an empty one when absent), or NULL when the table is full. */
static sym_slot *lookup(comp_ctx *c, sym_slot *t, const char *name) {
  uint64_t h = tc_fnv64_str(name);
  for (size_t i = 0; i < c->cap; i++) {
    sym_slot *s = &t[(h + i) & (c->cap - 1)];
    if (!s->name || (s->hash == h && strcmp(s->name, name) == 0)) {
      s->hash = h;
      return s;
    }
  }
  return NULL;
}

/* Unit u names global `usr`: linked to the first unit that did. */
static void name_global(comp_ctx *c, size_t u, const char *usr) {
  if (!usr[0]) return;
  sym_slot *s = lookup(c, c->globals, usr);
  if (!s) {
    c->oom = 1;
    return;
  }
  if (!s->name) {
    s->name = usr;
    s->unit = u;
  } else {
    unite(c, u, s->unit);
  }
}

static void scan_path(comp_ctx *c, size_t u, const tc_program *p, const tc_path *path) {
  if (path->root == TC_ROOT_GLOBAL) name_global(c, u, tc_str(p, path->id));
  for (uint32_t i = 0; i < path->n_elems; i++)
    if (path->elems[i].kind == TC_ELEM_INDEX_ANY && path->elems[i].index_root == TC_ROOT_GLOBAL)
      name_global(c, u, tc_str(p, path->elems[i].index_id));
}

static void scan_opnd(comp_ctx *c, size_t u, const tc_program *p, const tc_opnd *o) {
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) scan_path(c, u, p, &o->path);
}

/* Pass 1: the functions each unit defines with external linkage; every global it names. */
static void scan_defs(comp_ctx *c, size_t u, const tc_program *p) {
  for (uint32_t k = 0; k < p->n_units; k++) {
    const tc_unit *unit = &p->units[k];
    for (uint32_t f = 0; f < unit->n_functions; f++) {
      const tc_function *fn = &unit->functions[f];
      if (fn->is_static || !fn->n_blocks || !fn->usr) continue;
      sym_slot *s = lookup(c, c->fns, tc_str(p, fn->usr));
      if (!s) {
        c->oom = 1;
        return;
      }
      if (!s->name) {
        s->name = tc_str(p, fn->usr);
        s->unit = u;
      } else if (s->unit != u) {
        s->several = 1;
      }
    }
    const tc_function *fns[2] = {NULL, unit->global_init};
    for (uint32_t f = 0; f <= unit->n_functions; f++) {
      const tc_function *fn = f < unit->n_functions ? &unit->functions[f] : fns[1];
      if (!fn) continue;
      for (uint32_t b = 0; b < fn->n_blocks; b++) {
        const tc_block *bl = &fn->blocks[b];
        for (uint32_t i = 0; i < bl->n_insns; i++) {
          const tc_insn *in = &bl->insns[i];
          if (in->has_dst) scan_path(c, u, p, &in->dst);
          scan_opnd(c, u, p, &in->a);
          scan_opnd(c, u, p, &in->b);
          scan_opnd(c, u, p, &in->callee.target);
          for (uint32_t a = 0; a < in->n_args; a++) scan_opnd(c, u, p, &in->args[a]);
        }
        scan_opnd(c, u, p, &bl->term.cond);
      }
    }
  }
}

/* Unit u calls or takes the address of `usr`: linked to its definers. */
static void use_function(comp_ctx *c, const tc_job_unit *units, size_t n, size_t u,
                         const char *usr) {
  if (!usr[0]) return;
  sym_slot *s = lookup(c, c->fns, usr);
  if (!s || !s->name) return; /* defined nowhere: the API, the C library */
  if (!s->several) {
    unite(c, u, s->unit);
    return;
  }
  /* every unit defining it (the engine picks one; being linked to all of them is safe) */
  for (size_t d = 0; d < n; d++) {
    const tc_program *p = units[d].prog;
    if (!p || d == u) continue;
    for (uint32_t k = 0; k < p->n_units; k++)
      for (uint32_t f = 0; f < p->units[k].n_functions; f++) {
        const tc_function *fn = &p->units[k].functions[f];
        if (!fn->is_static && fn->n_blocks && strcmp(tc_str(p, fn->usr), usr) == 0)
          unite(c, u, d);
      }
  }
}

/* Pass 2: the functions each unit calls directly or names. */
static void scan_uses(comp_ctx *c, const tc_job_unit *units, size_t n, size_t u) {
  const tc_program *p = units[u].prog;
  for (uint32_t k = 0; k < p->n_units; k++) {
    const tc_unit *unit = &p->units[k];
    for (uint32_t f = 0; f < unit->n_functions; f++) {
      const tc_function *fn = &unit->functions[f];
      for (uint32_t b = 0; b < fn->n_blocks; b++) {
        const tc_block *bl = &fn->blocks[b];
        for (uint32_t i = 0; i < bl->n_insns; i++) {
          const tc_insn *in = &bl->insns[i];
          if (in->kind == TC_I_CALL && !in->callee.indirect && in->callee.usr)
            use_function(c, units, n, u, tc_str(p, in->callee.usr));
          const tc_opnd *ops[2] = {&in->a, &in->b};
          for (int o = 0; o < 2; o++)
            if (ops[o]->kind == TC_OPND_FUNC) use_function(c, units, n, u, tc_str(p, ops[o]->sym));
          for (uint32_t a = 0; a < in->n_args; a++)
            if (in->args[a].kind == TC_OPND_FUNC)
              use_function(c, units, n, u, tc_str(p, in->args[a].sym));
        }
      }
    }
  }
}

size_t tc_unit_components(const tc_job_unit *units, size_t n, size_t *comp) {
  comp_ctx c;
  memset(&c, 0, sizeof c);
  size_t syms = 64;
  for (size_t u = 0; u < n; u++)
    if (units[u].prog)
      for (uint32_t k = 0; k < units[u].prog->n_units; k++)
        syms += units[u].prog->units[k].n_functions + units[u].prog->units[k].n_globals;
  c.cap = 64;
  while (c.cap < 4 * syms) c.cap *= 2;
  c.parent = malloc((n ? n : 1) * sizeof *c.parent);
  c.fns = calloc(c.cap, sizeof *c.fns);
  /* globals named, declared or defined (a full table reports out of memory: the caller then
     analyzes everything as one component) */
  c.globals = calloc(c.cap, sizeof *c.globals);
  size_t count = 0;
  if (!c.parent || !c.fns || !c.globals) goto done;
  for (size_t u = 0; u < n; u++) c.parent[u] = u;
  for (size_t u = 0; u < n && !c.oom; u++)
    if (units[u].prog) scan_defs(&c, u, units[u].prog);
  for (size_t u = 0; u < n && !c.oom; u++)
    if (units[u].prog) scan_uses(&c, units, n, u);
  if (c.oom) goto done;
  for (size_t u = 0; u < n; u++) {
    comp[u] = find(&c, u);
    count += comp[u] == u;
  }
done:
  free(c.parent);
  free(c.fns);
  free(c.globals);
  return count;
}
