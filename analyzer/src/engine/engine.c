/* analyzer/src/engine/engine.c — the engine's entry point: indexes the whole program's
 * functions (matched across units by USR), runs every unit's global initializers, then
 * analyzes the roots — main, every function no one calls (with unknown parameters), and any
 * function the first passes never reached — and turns the outcomes into findings. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

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

  size_t n = 0;
  for (uint32_t u = 0; u < prog->n_units; u++)
    n += prog->units[u].n_functions + (prog->units[u].global_init ? 1 : 0);
  e->fns = calloc(n ? n : 1, sizeof *e->fns);
  if (!e->fns) return -1;
  uint64_t total_insns = 0;
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
        int duplicate = 0;
        for (fninfo *c = &e->fns[first]; c; c = c->next_same_usr ? &e->fns[c->next_same_usr - 1] : NULL) {
          if (c->fn->loc.file == fn->loc.file && c->fn->loc.line == fn->loc.line) duplicate = 1;
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
      for (uint32_t b = 0; b < fn->n_blocks; b++) total_insns += fn->blocks[b].n_insns + 1;
      if (is_init) continue;
      if (last_same) {
        last_same->next_same_usr = fi->idx + 1;
        continue;
      }
      if (fn->usr && map_put(&e->fn_by_usr, fn->usr, fi->idx)) return -1;
      if (!fn->is_static && fn->name && !map_get(&e->fn_by_name, fn->name, NULL) &&
          map_put(&e->fn_by_name, fn->name, fi->idx))
        return -1;
    }
  }
  e->work_limit = 20000000ull + 200ull * total_insns;
  return 0;
}

/* Who is called directly, who allocates (transitively), which globals change after their
   initializers. */
static void scan_program(tc_eng *e, tc_map *mutable_globals) {
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    const tc_function *fn = fi->fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const tc_block *bl = &fn->blocks[b];
      for (uint32_t i = 0; i < bl->n_insns; i++) {
        const tc_insn *in = &bl->insns[i];
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
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    free(fi->rpo);
    free(fi->loop_head);
    free(fi->cross_temp);
    free(fi->roots);
    map_free(&fi->named);
    free(fi->named_roots);
    memo_entry *m = fi->memo;
    while (m) {
      memo_entry *nx = m->next;
      for (size_t i = 0; i < m->n_exits; i++) free(m->exits[i].delta);
      free(m->exits);
      free(m->key);
      free(m);
      m = nx;
    }
  }
  free(e->fns);
  map_free(&e->fn_by_usr);
  map_free(&e->fn_by_name);
  map_free(&e->api_by_name);
  map_free(&e->site_ids);
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
  free(e->visit_stamp);
  free(e->ptsets);
  free(e->act);
  map_free(&e->ptset_index);
  st_free_all(e);
  bump_free(&e->bump);
  free(e);
}

int tc_engine_analyze(const tc_program *prog, const tc_rules *rules, const tc_engine_opts *opts,
                      tc_report *out) {
  if (!prog || !rules || !out) return -1;
  tc_eng *e = calloc(1, sizeof *e);
  if (!e) return -1;
  int rc = -1;
  tc_map mutable_globals = {0};
  if (setup(e, prog, rules, opts)) goto done;
  scan_program(e, &mutable_globals);
  if (call_scope_prepare(e)) goto done;
  astate init = run_global_inits(e);
  for (size_t f = 0; f < e->n_fns; f++)
    if (e->fns[f].is_main) analyze_root(e, &e->fns[f], state_copy(&init));
  for (int pass = 0; pass < 2; pass++)
    for (size_t f = 0; f < e->n_fns; f++) {
      fninfo *fi = &e->fns[f];
      if (fi->is_init || fi->is_main || fi->analyzed) continue;
      if (pass == 0 && fi->called) continue;
      analyze_root(e, fi, root_entry(e, &init, &mutable_globals));
    }
  state_release(e, &init);
  rc = findings_emit(e, out);
  if (e->oom) rc = -1;
done:
  map_free(&mutable_globals);
  teardown(e);
  return rc;
}
