/* analyzer/src/frontend/lower.c — lowering a whole translation unit: walks the top-level
 * declarations (skipping system headers), lowers each function definition of the main file and
 * of the project's headers, registers file-scope variables and lowers their initializers (and
 * function-local statics') into the unit's synthetic __tc_global_init. */
#include "frontend/lower_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lw_fn *lw_global_init(lw_unit *u) {
  if (!u->ginit) u->ginit = lw_fn_new(u);
  return u->ginit;
}

/* A file-scope definition without initializer has static storage: it starts zeroed (NULL
   handles, 0 counters) — `static dt_tensor *registry[8]; static int n;`. Declarations of
   variables defined elsewhere (`extern`) are left alone. */
static void zero_global(lw_unit *u, CXCursor decl, uint32_t idx) {
  if (clang_Cursor_getStorageClass(decl) == CX_SC_Extern) return; /* (tentative definitions
                                                                     count: they are zeroed) */
  lw_fn *gi = lw_global_init(u);
  if (!gi) return;
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  int aggregate = t.kind == CXType_Record || t.kind == CXType_ConstantArray ||
                  t.kind == CXType_IncompleteArray;
  tc_insn *in = lw_emit(gi, aggregate ? TC_I_AGGREGATE : TC_I_ASSIGN, u->globals[idx].loc);
  in->has_dst = 1;
  in->dst = lw_path_root(TC_ROOT_GLOBAL, u->globals[idx].usr);
  in->dst.spelling = u->globals[idx].name;
  in->dst_type = lw_type(u, clang_getCursorType(decl));
  if (!aggregate) {
    in->a.kind = TC_OPND_INT;
    in->a.ival = 0;
  }
}

void lw_global_var(lw_unit *u, CXCursor decl) {
  tc_sym usr = lw_decl_usr(u, decl);
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  int has_init = !clang_Cursor_isNull(init);
  uint32_t *slot = lw_pmap_put(&u->global_seen, (const void *)(uintptr_t)usr, NULL);
  if (!slot) return;
  uint32_t idx = *slot;
  if (idx != LW_NONE) {
    tc_global *g = &u->globals[idx];
    if (g->has_init || !has_init) return; /* a redeclaration, or the initializer is known */
    g->has_init = 1;
  } else {
    idx = u->n_globals;
    *slot = idx;
    u->globals = lw_grow(u, u->globals, &u->cap_globals, idx + 1, sizeof *u->globals);
    tc_global *g = &u->globals[idx];
    memset(g, 0, sizeof *g);
    g->name = lw_intern_cx(u, clang_getCursorSpelling(decl));
    g->usr = usr;
    g->type = lw_type(u, clang_getCursorType(decl));
    CXSourceLocation at = clang_getCursorLocation(decl);
    g->loc = lw_loc_range(u, clang_getRange(at, at));
    g->has_init = has_init;
    u->n_globals = idx + 1;
  }
  if (!has_init) {
    zero_global(u, decl, idx);
    return;
  }
  lw_fn *gi = lw_global_init(u);
  if (!gi) return;
  lw_place p;
  p.path = lw_path_root(TC_ROOT_GLOBAL, usr);
  p.path.spelling = u->globals[idx].name;
  p.type = clang_getCursorType(decl);
  lw_init(gi, init, &p);
}

static CXCursor body_of(CXCursor fn_decl) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(fn_decl, &ch);
  CXCursor body = clang_getNullCursor();
  for (uint32_t i = ch.n; i-- > 0;) {
    if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt) {
      body = ch.v[i];
      break;
    }
  }
  lw_cursors_free(&ch);
  return body;
}

static void lower_function(lw_unit *u, CXCursor c) {
  CXCursor body = body_of(c);
  if (clang_Cursor_isNull(body)) return;
  lw_fn *fn = lw_fn_new(u);
  if (!fn) return;
  int n = clang_Cursor_getNumArguments(c);
  if (n > 0) {
    fn->params = lw_alloc(u, (size_t)n * sizeof *fn->params);
    fn->n_params = (uint32_t)n;
    for (int i = 0; i < n; i++) {
      CXCursor p = clang_Cursor_getArgument(c, (unsigned)i);
      tc_var *v = &fn->params[i];
      v->name = lw_intern_cx(u, clang_getCursorSpelling(p));
      v->type = lw_type(u, clang_getCursorType(p));
      CXSourceLocation at = clang_getCursorLocation(p);
      v->loc = lw_loc_range(u, clang_getRange(at, at));
      lw_cmap_entry *e = lw_cmap_put(&fn->vars, p, NULL);
      if (e) {
        e->value = TC_ROOT_PARAM;
        e->sym = (tc_sym)i;
      }
    }
  }
  lw_stmt(fn, body);
  tc_function f;
  memset(&f, 0, sizeof f);
  f.name = lw_intern_cx(u, clang_getCursorSpelling(c));
  f.usr = lw_decl_usr(u, c);
  CXSourceLocation at = clang_getCursorLocation(c);
  f.loc = lw_loc_range(u, clang_getRange(at, at));
  f.is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
  f.is_inline = clang_Cursor_isFunctionInlined(c) != 0;
  f.in_header = !clang_Location_isFromMainFile(at);
  f.is_variadic = clang_Cursor_isVariadic(c) != 0;
  f.ret_type = lw_type(u, clang_getResultType(clang_getCursorType(c)));
  lw_fn_finish(fn, &f);
  lw_fn_free(fn);
  u->functions = lw_grow(u, u->functions, &u->cap_functions, u->n_functions + 1,
                         sizeof *u->functions);
  u->functions[u->n_functions++] = f;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  lw_unit *u = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl && k != CXCursor_VarDecl && k != CXCursor_LinkageSpec &&
      k != CXCursor_UnexposedDecl)
    return CXChildVisit_Continue;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  switch ((int)k) {
  case CXCursor_FunctionDecl:
    if (clang_isCursorDefinition(c)) lower_function(u, c);
    break;
  case CXCursor_VarDecl:
    if (clang_Cursor_getStorageClass(c) != CX_SC_Extern ||
        !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(c)))
      lw_global_var(u, c);
    break;
  case CXCursor_LinkageSpec:
  case CXCursor_UnexposedDecl:
    return CXChildVisit_Recurse;
  default:
    break;
  }
  return CXChildVisit_Continue;
}

static void unit_free(lw_unit *u) {
  lw_pmap_free(&u->types);
  free(u->type_vals);
  lw_pmap_free(&u->files);
  free(u->file_vals);
  lw_pmap_free(&u->records);
  free(u->record_vals);
  lw_cmap_free(&u->decls);
  free(u->functions);
  free(u->globals);
  lw_pmap_free(&u->global_seen);
  lw_fn_free(u->ginit);
}

int tc_lower_tu(tc_program *prog, CXTranslationUnit tu, const char *main_file,
                const tc_lower_opts *opts) {
  lw_unit u;
  memset(&u, 0, sizeof u);
  u.prog = prog;
  u.tu = tu;
  u.opts = opts;
  u.stack_floor = opts && opts->stack_floor ? opts->stack_floor : tc_lower_stack_floor();
  u.unit.file = tc_intern(prog, main_file); /* per-unit objects are named by it (lw_decl_usr) */
  clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, &u);
  tc_sym file = tc_intern(prog, main_file);
  tc_function *functions = NULL, *ginit = NULL;
  tc_global *globals = NULL;
  if (u.n_functions) {
    functions = lw_alloc(&u, u.n_functions * sizeof *functions);
    memcpy(functions, u.functions, u.n_functions * sizeof *functions);
  }
  if (u.n_globals) {
    globals = lw_alloc(&u, u.n_globals * sizeof *globals);
    memcpy(globals, u.globals, u.n_globals * sizeof *globals);
  }
  if (u.ginit) {
    ginit = lw_alloc(&u, sizeof *ginit);
    lw_fn_finish(u.ginit, ginit);
    ginit->name = tc_intern(prog, "__tc_global_init");
    char buf[4096];
    snprintf(buf, sizeof buf, "__tc_global_init:%s", main_file);
    ginit->usr = tc_intern(prog, buf);
    ginit->loc.file = file;
  }
  int rc = u.oom ? -1 : 0;
  tc_unit *out = tc_program_add_unit(prog, file);
  if (!out) {
    rc = -1;
  } else {
    out->functions = functions;
    out->n_functions = u.n_functions;
    out->globals = globals;
    out->n_globals = u.n_globals;
    out->global_init = ginit;
  }
  unit_free(&u);
  return rc;
}
