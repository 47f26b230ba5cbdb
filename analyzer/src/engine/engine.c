/* analyzer/src/engine/engine.c — the engine's entry point: indexes the whole program's
 * functions (matched across units by USR), runs every unit's global initializers, then
 * analyzes the roots — main, every function no one calls (with unknown parameters; a lambda
 * only where called), and any function the first passes never reached — and turns the outcomes into findings. A large
 * program's roots are split in independent groups (an engine each, run on -j threads) whose
 * logs are merged in the order one engine would have written them. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "engine/eng.h"

/* A per-unit object (a static global or static local, named "...#unit:FILE" by the front end:
   frontend/lower_util.c lw_decl_usr) read or written through path p. */
static int path_names_unit_object(const tc_program *prog, const tc_path *p) {
  return p->root == TC_ROOT_GLOBAL && strstr(tc_str(prog, p->id), "#unit:") != NULL;
}

static int opnd_names_unit_object(const tc_program *prog, const tc_opnd *o) {
  return (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) &&
         path_names_unit_object(prog, &o->path);
}

/* fn names an object of its own unit directly. */
static int names_unit_object(const tc_program *prog, const tc_function *fn) {
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const tc_block *bl = &fn->blocks[b];
    if (opnd_names_unit_object(prog, &bl->term.cond)) return 1;
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const tc_insn *in = &bl->insns[i];
      if ((in->has_dst && path_names_unit_object(prog, &in->dst)) ||
          opnd_names_unit_object(prog, &in->a) || opnd_names_unit_object(prog, &in->b))
        return 1;
      for (uint32_t a = 0; a < in->n_args; a++)
        if (opnd_names_unit_object(prog, &in->args[a])) return 1;
    }
  }
  return 0;
}

static int calls_any_of(const tc_function *fn, const tc_map *usrs) {
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const tc_insn *in = &fn->blocks[b].insns[i];
      if (in->kind == TC_I_CALL && in->callee.usr && map_get(usrs, in->callee.usr, NULL)) return 1;
    }
  return 0;
}

/* The functions (by USR) whose copies in different units are different functions: they name
   an object of their own unit (a static inline function of a header using a static global or
   a static local), or call such a function. The copies of any other inline helper are one
   function, analyzed once. */
static int unit_bound_functions(const tc_program *prog, tc_map *out) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t u = 0; u < prog->n_units; u++)
      for (uint32_t i = 0; i < prog->units[u].n_functions; i++) {
        const tc_function *fn = &prog->units[u].functions[i];
        if (!fn->usr || map_get(out, fn->usr, NULL)) continue;
        if (!names_unit_object(prog, fn) && !calls_any_of(fn, out)) continue;
        if (map_put(out, fn->usr, 1)) return -1;
        changed = 1;
      }
  }
  return 0;
}

static int is_global_init_name(const tc_eng *e, const tc_function *fn) {
  return strcmp(tc_str(e->prog, fn->name), "__tc_global_init") == 0;
}

static int setup(tc_eng *e, const tc_program *prog, const tc_rules *rules,
                 const tc_engine_opts *opts) {
  e->prog = prog;
  e->rules = rules;
  e->names = tc_rules_tag_names(rules);
  e->max_states = opts && opts->max_states ? opts->max_states : 16;
  e->max_contexts = opts && opts->max_contexts ? opts->max_contexts : 64;
  if (opts) {
    for (size_t i = 0; i < opts->n_unavailable; i++) {
      int b = tc_rules_backend_by_name(rules, opts->unavailable[i]);
      if (b >= 0 && b < 32) e->unavailable_mask |= 1u << b;
    }
    e->disabled = opts->disabled_rules;
    e->n_disabled = opts->n_disabled_rules;
  }
  if (opts && opts->observe && !(e->observe = observe_questions_of(opts->observe))) return -1;
  e->stamp = 1;
  e->devtypes = calloc(rules->n_device_types ? rules->n_device_types : 1, sizeof *e->devtypes);
  if (!e->devtypes) return -1;
  for (size_t i = 0; i < rules->n_device_types; i++) {
    const tc_device_type *d = &rules->device_types[i];
    e->devtypes[i].name = d->name;
    e->devtypes[i].f_backend = field_id_of_name(e, d->backend_field);
    e->devtypes[i].f_ordinal = field_id_of_name(e, d->ordinal_field);
    e->devtypes[i].f_autodiff = field_id_of_name(e, d->autodiff_field);
  }
  e->n_devtypes = rules->n_device_types;
  api_prepare(e);

  size_t n = 0;
  for (uint32_t u = 0; u < prog->n_units; u++)
    n += prog->units[u].n_functions + (prog->units[u].global_init ? 1 : 0);
  e->fns = calloc(n ? n : 1, sizeof *e->fns);
  if (!e->fns) return -1;
  uint64_t total_insns = 0;
  tc_map unit_bound = {0};
  if (unit_bound_functions(prog, &unit_bound)) {
    map_free(&unit_bound);
    return -1;
  }
  for (uint32_t u = 0; u < prog->n_units; u++) {
    const tc_unit *unit = &prog->units[u];
    for (uint32_t i = 0; i <= unit->n_functions; i++) {
      const tc_function *fn = i < unit->n_functions ? &unit->functions[i] : unit->global_init;
      if (!fn) continue;
      int is_init = i == unit->n_functions || is_global_init_name(e, fn);
      uint32_t first = 0;
      fninfo *last_same = NULL;
      if (!is_init && fn->usr && map_get(&e->fn_by_usr, fn->usr, &first)) {
        /* The same definition (an inline helper of a header) seen from another unit, or
           another program's function of the same name (a database with several mains). */
        int duplicate = 0, own_objects = map_get(&unit_bound, fn->usr, NULL);
        for (fninfo *c = &e->fns[first]; c; c = c->next_same_usr ? &e->fns[c->next_same_usr - 1] : NULL) {
          if (!own_objects && c->fn->loc.file == fn->loc.file && c->fn->loc.line == fn->loc.line)
            duplicate = 1;
          last_same = c;
        }
        if (duplicate) continue;
      }
      fninfo *fi = &e->fns[e->n_fns];
      fi->fn = fn;
      fi->unit = unit;
      fi->idx = (uint32_t)e->n_fns++;
      fi->is_init = is_init;
      fi->is_main = !is_init && strcmp(tc_str(prog, fn->name), "main") == 0;
      total_insns += engine_fn_insns(fn);
      if (is_init) continue;
      if (last_same) {
        last_same->next_same_usr = fi->idx + 1;
        continue;
      }
      if (fn->usr && map_put(&e->fn_by_usr, fn->usr, fi->idx)) e->oom = 1;
      if (!fn->is_static && fn->name && !map_get(&e->fn_by_name, fn->name, NULL) &&
          map_put(&e->fn_by_name, fn->name, fi->idx))
        e->oom = 1;
    }
  }
  map_free(&unit_bound);
  if (e->oom) return -1;
  e->work_limit = engine_work_limit(total_insns);
  return 0;
}

unsigned long long engine_work_limit(unsigned long long insns) { return 20000000ull + 200ull * insns; }

unsigned long long engine_fn_insns(const tc_function *fn) {
  unsigned long long n = 0;
  for (uint32_t b = 0; b < fn->n_blocks; b++) n += fn->blocks[b].n_insns + 1;
  return n;
}

/* Who is called directly, who allocates (transitively), which globals change after their
   initializers. */
static void scan_program(tc_eng *e, tc_map *mutable_globals) {
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    const tc_function *fn = fi->fn;
    /* a function returning a tag, or an integer (a mode, a flag, an enum a caller switches on:
       its return values stay apart instead of joining into "unknown") */
    fi->moves_tags = type_carries_tag(e, &fn->ret_type) || fn->ret_type.cls == TC_TY_INT;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const tc_block *bl = &fn->blocks[b];
      for (uint32_t i = 0; i < bl->n_insns; i++) {
        const tc_insn *in = &bl->insns[i];
        if (in->has_dst && !fi->moves_tags) fi->moves_tags = type_carries_tag(e, &in->dst_type);
        /* a range-for visiting objects one by one keeps its iterations' states apart */
        if (in->per_object) fi->moves_tags = 1;
        if (!fi->is_init) {
          if (in->has_dst && in->dst.root == TC_ROOT_GLOBAL) map_put(mutable_globals, in->dst.id, 1);
          const tc_opnd *ops[2] = {&in->a, &in->b};
          for (int k = 0; k < 2; k++)
            if (ops[k]->kind == TC_OPND_ADDR && ops[k]->path.root == TC_ROOT_GLOBAL)
              map_put(mutable_globals, ops[k]->path.id, 1);
          for (uint32_t a = 0; a < in->n_args; a++)
            if (in->args[a].kind == TC_OPND_ADDR && in->args[a].path.root == TC_ROOT_GLOBAL)
              map_put(mutable_globals, in->args[a].path.id, 1);
        }
        if (in->kind != TC_I_CALL || in->callee.indirect) continue;
        const tc_api_fn *api = api_lookup(e, in->callee.name);
        if (api) {
          if (api->result.what == TC_RES_NEW_OBJECT) fi->allocates = 1;
          if (api->api) fi->relevant = 1;
          continue;
        }
        fninfo *callee = fn_lookup(e, fi->unit, in->callee.usr, in->callee.name);
        if (callee && callee != fi) callee->called = 1;
      }
    }
  }
  /* Function pointers: a designator of an API function or of a relevant function makes its
     holder relevant, and then every indirect call is. */
  int relevant_address_taken = 0;
  for (int changed = 1, guard = 0; changed && guard < 64; guard++) {
    changed = 0;
    for (size_t f = 0; f < e->n_fns; f++) {
      fninfo *fi = &e->fns[f];
      const tc_function *fn = fi->fn;
      for (uint32_t b = 0; b < fn->n_blocks; b++)
        for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
          const tc_insn *in = &fn->blocks[b].insns[i];
          if (in->kind == TC_I_CALL && in->callee.indirect && relevant_address_taken &&
              !fi->relevant) {
            fi->relevant = 1;
            changed = 1;
          }
          const tc_opnd *ops[2] = {&in->a, &in->b};
          for (uint32_t a = 0; a < in->n_args + 2; a++) {
            const tc_opnd *o = a < 2 ? ops[a] : &in->args[a - 2];
            if (o->kind != TC_OPND_FUNC) continue;
            fninfo *target = fn_lookup(e, fi->unit, o->sym, 0);
            int rel = target ? target->relevant : api_usr_is_api(e, o->sym);
            if (rel && !relevant_address_taken) {
              relevant_address_taken = 1;
              changed = 1;
            }
            if (rel && !fi->relevant) {
              fi->relevant = 1;
              changed = 1;
            }
          }
        }
    }
    for (size_t f = 0; f < e->n_fns; f++) {
      fninfo *fi = &e->fns[f];
      if (fi->allocates && fi->relevant) continue;
      const tc_function *fn = fi->fn;
      for (uint32_t b = 0; b < fn->n_blocks && !(fi->allocates && fi->relevant); b++)
        for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
          const tc_insn *in = &fn->blocks[b].insns[i];
          if (in->kind != TC_I_CALL || in->callee.indirect) continue;
          fninfo *callee = fn_lookup(e, fi->unit, in->callee.usr, in->callee.name);
          if (!callee || api_lookup(e, in->callee.name)) continue;
          if (callee->allocates && !fi->allocates) {
            fi->allocates = 1;
            changed = 1;
          }
          if (callee->relevant && !fi->relevant) {
            fi->relevant = 1;
            changed = 1;
          }
        }
    }
  }
}

static void analyze_root(tc_eng *e, fninfo *fi, astate entry) {
  if (!fi->fn->n_blocks || e->oom || !fi->relevant) { /* no API call can be reached from it */
    fi->analyzed = 1;
    state_release(e, &entry);
    return;
  }
  uint64_t saved_limit = e->work_limit;
  uint64_t allowance = 2000000ull + 50ull * fi->n_insns;
  if (e->work + allowance < e->work_limit) e->work_limit = e->work + allowance;
  state_list exits = {0};
  e->n_roots_analyzed++;
  e->cur_chain = 0;
  e->depth = 1;
  e->slice_begin = e->n_outs;
  fi->active++;
  flow_analyze(e, fi, 0, entry, &exits);
  fi->active--;
  fi->analyzed = 1;
  e->depth = 0;
  slist_release(e, &exits);
  e->work_limit = saved_limit;
}

/* The state every root starts from: the globals' initializers, run unit by unit. */
static astate run_global_inits(tc_eng *e) {
  astate s;
  memset(&s, 0, sizeof s);
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    if (!fi->is_init || !fi->fn->n_blocks) continue;
    state_list exits = {0};
    e->cur_chain = 0;
    fi->active++;
    int rc = flow_analyze(e, fi, 0, state_copy(&s), &exits);
    fi->active--;
    fi->analyzed = 1;
    if (rc == 0 && exits.n) {
      astate j = state_copy(&exits.items[0]);
      for (size_t i = 1; i < exits.n; i++) state_join_into(e, &j, &exits.items[i]);
      frame_clear(e, &j, fi, 0);
      state_release(e, &s);
      s = j;
    }
    slist_release(e, &exits);
  }
  s.path = NULL;
  return s;
}

static astate root_entry(tc_eng *e, const astate *init, const tc_map *mutable_globals) {
  astate s = state_copy(init);
  for (size_t g = 0; g < e->n_global_roots; g++) {
    uint32_t r = e->global_roots[g];
    if (!map_get(mutable_globals, e->locs[r].a, NULL)) continue;
    if (e->locs[r].b != 0) continue; /* function-local statics stay as initialized */
    mem_clear_subtree(e, &s, r);
    aval top = av_top();
    st_set(e, &s.mem, r, &top);
  }
  return s;
}

static void teardown(tc_eng *e) {
  tc_observe_free(e->observe);
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    free(fi->rpo);
    free(fi->loop_head);
    free(fi->loop_last);
    free(fi->by_rpo);
    free(fi->cross_temp);
    free(fi->split_vars);
    free(fi->roots);
    free(fi->frame_locs);
    map_free(&fi->named);
    free(fi->named_roots);
    st_release(e, &fi->hint.mem);
    free(fi->hint.blocks); /* a hint no longer held has neither (call.c) */
    memo_entry *m = fi->memo;
    while (m) {
      memo_entry *nx = m->next;
      for (size_t i = 0; i < m->n_exits; i++) free(m->exits[i].delta);
      free(m->exits);
      free(m);
      m = nx;
    }
  }
  free(e->fns);
  map_free(&e->fn_by_usr);
  map_free(&e->fn_by_name);
  map_free(&e->api_by_name);
  map_free(&e->noreturn_by_name);
  map_free(&e->site_ids);
  map_free(&e->node_ids);
  map_free(&e->term_insns);
  free(e->term_insn_list);
  free(e->field_names);
  map_free(&e->field_by_hash);
  map_free(&e->field_by_sym);
  free(e->devtypes);
  free(e->locs);
  map_free(&e->loc_index);
  free(e->global_roots);
  free(e->chains);
  map_free(&e->chain_index);
  free(e->outs);
  map_free(&e->out_index);
  free(e->details);
  free(e->kind_reports);
  free(e->visit_stamp);
  free(e->ptsets);
  free(e->tagsets);
  map_free(&e->tagset_index);
  free(e->act);
  free(e->hint_holders);
  map_free(&e->ptset_index);
  st_free_all(e);
  bump_free(&e->bump);
  free(e);
}

/* ---- root groups ---- */

/* A program of at least 2 * GROUP_INSNS instructions (and two roots) has its roots analyzed
   in independent groups, up to GROUPS_MAX: each group's engine shares nothing with the others,
   so threads can run them; a smaller program is one group (exactly the serial analysis).
   Splitting costs a little (callees shared by two groups are analyzed in both: +3% CPU in 2
   groups on the 120-unit benchmark, +11% in 4). */
#define GROUP_INSNS 20000ull
#define GROUPS_MAX 4u
#define GROUP_STACK (64u << 20)

typedef struct group {
  tc_eng *e;
  tc_map mutable_globals;
  astate init;
  int ready;
  const uint32_t *roots; /* this phase's candidate roots (function indices) */
  size_t n_roots;
  size_t outs_init, outs_a; /* the log after the initializers, after phase A */
} group;

tc_eng *engine_index(const tc_program *prog, const tc_rules *rules, const tc_engine_opts *opts,
                     tc_map *mutable_globals, int with_names) {
  tc_eng *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  if (setup(e, prog, rules, opts) == 0) {
    scan_program(e, mutable_globals);
    if (call_scope_prepare(e, with_names) == 0 && !e->oom) return e;
  }
  teardown(e);
  return NULL;
}

void engine_free(tc_eng *e) { teardown(e); }

static int group_open(group *g, const tc_program *prog, const tc_rules *rules,
                      const tc_engine_opts *opts) {
  if (!(g->e = engine_index(prog, rules, opts, &g->mutable_globals, 1))) return -1;
  g->init = run_global_inits(g->e);
  g->ready = 1;
  g->outs_init = g->e->n_outs;
  return g->e->oom ? -1 : 0;
}

static void group_close(group *g) {
  if (!g->e) return;
  if (g->ready) state_release(g->e, &g->init);
  map_free(&g->mutable_globals);
  teardown(g->e);
  g->e = NULL;
}

/* Analyzes the group's candidate roots, skipping those already analyzed (as callees) — mains
   always run. */
static void group_run(group *g) {
  tc_eng *e = g->e;
  for (size_t i = 0; i < g->n_roots && !e->oom; i++) {
    fninfo *fi = &e->fns[g->roots[i]];
    if (fi->is_main)
      analyze_root(e, fi, state_copy(&g->init));
    else if (!fi->analyzed)
      analyze_root(e, fi, root_entry(e, &g->init, &g->mutable_globals));
  }
}

typedef struct group_pool {
  group *groups;
  size_t n;
  int phase; /* 0: open and phase A, 1: phase B */
  const tc_program *prog;
  const tc_rules *rules;
  const tc_engine_opts *opts;
  atomic_int failed;
} group_pool;

/* Between phases, and once a group's analysis is done, it keeps only what the next phase and
   the merge read (memo tables, outcomes, provenance): the entry states its key hints held and
   the store nodes its analysis freed go back to malloc, for the next group to use (with -j 1
   the groups run one after the other, and each kept its own peak's nodes). */
static void group_rest(group *g) {
  call_hints_release(g->e);
  st_free_all(g->e);
}

static void run_group(void *ctx, void *state, size_t i) {
  group_pool *p = ctx;
  (void)state;
  group *g = &p->groups[i];
  if (p->phase == 0) {
    if (!g->ready && group_open(g, p->prog, p->rules, p->opts)) {
      atomic_store(&p->failed, 1);
      return;
    }
    group_run(g);
    g->outs_a = g->e->n_outs;
  } else {
    group_run(g);
  }
  group_rest(g);
  if (g->e->oom) atomic_store(&p->failed, 1);
}

/* Runs one phase over every group on up to `jobs` threads (this one included). */
static void pool_run(group_pool *p, unsigned jobs) {
  tc_parallel loop = {p->n, jobs, 1, GROUP_STACK, p, NULL, run_group, NULL};
  tc_parallel_for(&loop);
}

unsigned long long engine_program_insns(const tc_program *prog) {
  unsigned long long n = 0;
  for (uint32_t u = 0; u < prog->n_units; u++) {
    const tc_unit *unit = &prog->units[u];
    for (uint32_t i = 0; i < unit->n_functions; i++)
      for (uint32_t b = 0; b < unit->functions[i].n_blocks; b++)
        n += unit->functions[i].blocks[b].n_insns + 1;
  }
  return n;
}

/* Merges the groups' logs into the first group's engine, phase A of every group before any
   phase B, in group order (what a single engine's log order would be), then emits. */
static int merge_and_emit(group *gs, size_t n, tc_report *out) {
  tc_eng *m = gs[0].e;
  outcome *own = m->outs;
  size_t n_own = m->n_outs;
  m->outs = NULL;
  m->n_outs = m->cap_outs = 0;
  int rc = 0;
  for (int phase = 0; phase < 2 && rc == 0; phase++)
    for (size_t i = 0; i < n && rc == 0; i++) {
      tc_eng *src = gs[i].e;
      const outcome *outs = i == 0 ? own : src->outs;
      size_t begin = phase ? gs[i].outs_a : (i == 0 ? 0 : gs[i].outs_init);
      size_t end = phase ? (i == 0 ? n_own : src->n_outs) : gs[i].outs_a;
      uint32_t *map = NULL;
      if (i > 0 && src->n_details) {
        map = calloc(src->n_details, sizeof *map);
        if (!map) {
          rc = -1;
          break;
        }
      }
      rc = outcomes_import(m, src, outs, begin, end, map);
      free(map);
    }
  free(own);
  if (rc == 0) rc = findings_emit(m, out);
  return rc || m->oom ? -1 : 0;
}

/* Marks the functions that may still be reached some way the analysis has not followed:
   MAYBE_CALLED when called directly by a function not analyzed through (never reached itself,
   or over its budget, in every group), MAYBE_INDIRECT when its address is taken. A called
   function left unmarked and never reached was called only on paths the analysis proved
   impossible (the branch of an availability test of a backend marked unavailable): analyzing
   it alone would report what cannot happen. */
enum { MAYBE_INDIRECT = 1, MAYBE_CALLED = 2 };
static void mark_maybe_reached(const group *gs, size_t n_groups, uint8_t *flags) {
  tc_eng *e = gs[0].e;
  for (size_t f = 0; f < e->n_fns; f++) {
    const fninfo *c = &e->fns[f];
    int caller_followed = 0; /* in some group: its calls there were all followed */
    for (size_t g = 0; g < n_groups; g++)
      caller_followed |= gs[g].e->fns[f].analyzed && !gs[g].e->fns[f].too_costly;
    if (c->address_taken) flags[f] |= MAYBE_INDIRECT;
    if (caller_followed) continue;
    const tc_function *fn = c->fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
        const tc_insn *in = &fn->blocks[b].insns[i];
        if (in->kind != TC_I_CALL || in->callee.indirect) continue;
        fninfo *t = fn_lookup(e, c->unit, in->callee.usr, in->callee.name);
        if (t) flags[t->idx] |= MAYBE_CALLED;
      }
  }
}

size_t engine_entry_roots(const tc_eng *e, uint32_t *roots) {
  size_t n = 0;
  for (size_t f = 0; f < e->n_fns; f++)
    if (e->fns[f].is_main) roots[n++] = (uint32_t)f;
  /* a lambda's body runs only where its closure is called (SPEC §7): never a root of its own;
     a function that reaches no API call would be a root with nothing to analyze */
  for (size_t f = 0; f < e->n_fns; f++) {
    const fninfo *fi = &e->fns[f];
    if (!fi->is_init && !fi->is_main && !fi->called && !fi->fn->is_lambda && fi->relevant)
      roots[n++] = (uint32_t)f;
  }
  return n;
}

size_t engine_group_count(unsigned long long insns, const tc_engine_opts *opts, size_t n_roots) {
  unsigned want = opts && opts->groups ? opts->groups : 1;
  /* a power of two (even shares for 2 or 4 threads), a group per GROUP_INSNS instructions */
  if (!(opts && opts->groups))
    while (want * 2 <= GROUPS_MAX && insns >= GROUP_INSNS * want * 2) want *= 2;
  if (want > GROUPS_MAX) want = GROUPS_MAX;
  return want < n_roots ? want : (n_roots ? n_roots : 1);
}

int tc_engine_analyze(const tc_program *prog, const tc_rules *rules, const tc_engine_opts *opts,
                      tc_report *out) {
  if (!prog || !rules || !out) return -1;
  group first;
  memset(&first, 0, sizeof first);
  int rc = -1;
  uint32_t *roots = NULL;
  uint8_t *maybe_reached = NULL;
  group *gs = NULL;
  size_t n_groups = 1;
  if (group_open(&first, prog, rules, opts)) goto done;
  tc_eng *e = first.e;
  /* phase A: every main, then every function no one calls; phase B: what they never reached */
  roots = calloc(e->n_fns ? e->n_fns : 1, sizeof *roots);
  if (!roots) goto done;
  size_t n_a = engine_entry_roots(e, roots);
  unsigned long long insns = engine_program_insns(prog);
  n_groups = engine_group_count(insns, opts, n_a);
  gs = calloc(n_groups, sizeof *gs);
  if (!gs) goto done;
  gs[0] = first;
  memset(&first, 0, sizeof first);
  for (size_t i = 0; i < n_groups; i++) {
    gs[i].roots = roots + i * n_a / n_groups;
    gs[i].n_roots = (i + 1) * n_a / n_groups - i * n_a / n_groups;
  }
  unsigned jobs = opts && opts->jobs ? opts->jobs : 1;
  group_pool pool;
  memset(&pool, 0, sizeof pool);
  pool.groups = gs;
  pool.n = n_groups;
  pool.prog = prog;
  pool.rules = rules;
  pool.opts = opts;
  atomic_init(&pool.failed, 0);
  pool_run(&pool, n_groups > 1 ? jobs : 1); /* the first group is open already */
  if (atomic_load(&pool.failed) || gs[0].e->oom) goto done;
  /* phase B: a function none of the groups reached, in the group whose share it is — unless
     it was called only where nothing can run */
  maybe_reached = calloc(e->n_fns ? e->n_fns : 1, 1);
  if (!maybe_reached) goto done;
  mark_maybe_reached(gs, n_groups, maybe_reached);
  size_t n_b = 0;
  for (size_t f = 0; f < e->n_fns; f++) {
    if (e->fns[f].is_init || e->fns[f].is_main || !e->fns[f].relevant) continue; /* no-op roots */
    int reached = 0;
    for (size_t i = 0; i < n_groups && !reached && n_groups > 1; i++) reached = gs[i].e->fns[f].analyzed;
    if (reached) continue;
    /* a lambda: only when a call of it was not followed (its closure stored, or passed to
       code not analyzed, runs nowhere the analysis sees) */
    if (e->fns[f].fn->is_lambda ? (maybe_reached[f] & MAYBE_CALLED) != 0
                                : !e->fns[f].called || maybe_reached[f])
      roots[n_b++] = (uint32_t)f;
  }
  for (size_t i = 0; i < n_groups; i++) {
    gs[i].roots = roots + i * n_b / n_groups;
    gs[i].n_roots = (i + 1) * n_b / n_groups - i * n_b / n_groups;
  }
  pool.phase = 1;
  pool_run(&pool, n_groups > 1 ? jobs : 1);
  if (atomic_load(&pool.failed)) goto done;
  if (opts && opts->stats) {
    opts->stats->groups = (unsigned)n_groups;
    opts->stats->insns = insns;
    opts->stats->roots = 0;
    opts->stats->keys_walked = opts->stats->keys_reused = 0;
    opts->stats->budget_reruns = opts->stats->budget_stops = 0;
    opts->stats->work_peak = 0;
    for (size_t i = 0; i < n_groups; i++) {
      if (gs[i].e->work > opts->stats->work_peak) opts->stats->work_peak = gs[i].e->work;
      opts->stats->roots += gs[i].e->n_roots_analyzed;
      opts->stats->keys_walked += gs[i].e->n_keys_walked;
      opts->stats->keys_reused += gs[i].e->n_keys_reused;
      opts->stats->budget_reruns += gs[i].e->n_budget_reruns;
      opts->stats->budget_stops += gs[i].e->n_budget_stops;
    }
  }
  for (size_t i = 0; opts && opts->observe && i < n_groups; i++) observe_merge(gs[i].e, opts->observe);
  rc = n_groups > 1 ? merge_and_emit(gs, n_groups, out) : findings_emit(e, out);
  if (e->oom) rc = -1;
done:
  for (size_t i = 0; gs && i < n_groups; i++) group_close(&gs[i]);
  group_close(&first);
  free(gs);
  free(roots);
  free(maybe_reached);
  return rc;
}
