/* analyzer/src/frontend/lower.c — lowering a whole translation unit: walks the top-level
 * declarations (skipping system headers), lowers each function definition of the main file and
 * of the project's headers, registers file-scope variables and lowers their initializers (and
 * function-local statics') into the unit's synthetic __tc_global_init. C++: namespaces and
 * classes are walked for their members (constructors, destructors, operators, methods defined
 * in or out of their class); template specializations called are lowered with their concrete
 * types, and the patterns of templates never instantiated with dependent values unknown. */
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
  if (u->oom) return;
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
    u->globals = lw_grow(u, u->globals, &u->cap_globals, idx + 1, sizeof *u->globals);
    if (idx >= u->cap_globals) return; /* out of memory: the unit fails */
    *slot = idx;
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
    enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
    if (k == CXCursor_CompoundStmt || k == CXCursor_CXXTryStmt) { /* f() try { … } catch … */
      body = ch.v[i];
      break;
    }
  }
  lw_cursors_free(&ch);
  return body;
}

static int is_member_kind(enum CXCursorKind k) {
  return k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
         k == CXCursor_ConversionFunction;
}

/* The type of `this` in a member of the class cursor cls: a pointer to it. */
static tc_type this_type_of(lw_unit *u, CXCursor cls) {
  tc_type rec = lw_type(u, clang_getCursorType(cls));
  tc_type t = {0};
  t.cls = TC_TY_POINTER;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s *", tc_str(u->prog, rec.name));
  t.name = tc_intern(u->prog, buf);
  t.pointee_name = rec.name;
  t.record_name = rec.record_name ? rec.record_name : rec.base_record;
  t.base_record = rec.base_record;
  t.ptr_depth = 1;
  return t;
}

/* A constructor's member and base initializers, then the in-class initializers of the fields
   it does not name: `S(dt_device d) : dev(d), n(0) {}` writes this->dev and this->n. */
static void constructor_inits(lw_fn *fn, CXCursor ctor) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(ctor, &ch);
  tc_sym *named = ch.n ? calloc(ch.n, sizeof *named) : NULL;
  uint32_t n_named = 0;
  lw_place obj;
  tc_opnd self = lw_this(fn);
  obj.path = lw_path_extend(fn, &self.path, (tc_elem){.kind = TC_ELEM_DEREF});
  obj.type = clang_getCursorType(clang_getCursorSemanticParent(ctor));
  for (uint32_t i = 0; named && i + 1 < ch.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
    if (k == CXCursor_MemberRef)
      named[n_named++] = lw_intern_cx(fn->u, clang_getCursorSpelling(ch.v[i]));
  }
  lw_field_defaults(fn, &obj, named, n_named);
  for (uint32_t i = 0; i + 1 < ch.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
    CXCursor init = ch.v[i + 1];
    if (!clang_isExpression(clang_getCursorKind(init))) continue;
    if (k == CXCursor_MemberRef) {
      CXCursor field = clang_getCursorReferenced(ch.v[i]);
      lw_place m;
      m.type = clang_getCursorType(field);
      tc_sym name = lw_intern_cx(fn->u, clang_getCursorSpelling(field));
      m.path = lw_path_extend(fn, &obj.path, (tc_elem){.kind = TC_ELEM_FIELD, .field = name});
      if (lw_type_is_reference(m.type)) lw_bind_reference(fn, &m, init);
      else lw_init(fn, init, &m);
      i++;
    } else if (k == CXCursor_TypeRef || k == CXCursor_TemplateRef) {
      lw_place base = obj; /* a base's constructor writes the object's own fields */
      base.type = clang_getCursorType(ch.v[i]);
      lw_expr_into(fn, init, &base);
      i++;
    }
  }
  free(named);
  lw_cursors_free(&ch);
}

void lw_lower_body(lw_unit *u, CXCursor c, CXCursor body, const tc_type *this_type,
                   const lw_capture *caps, uint32_t n_caps, int captures_this, int is_lambda) {
  lw_fn *fn = lw_fn_new(u);
  if (!fn) return;
  /* the parameters: a function template's pattern has no argument list in libclang's C API,
     its ParmDecl children are the parameters */
  lw_cursors pattern_params;
  lw_cursors_init(&pattern_params);
  int n = clang_Cursor_getNumArguments(c);
  if (n < 0) {
    lw_children(c, &pattern_params);
    uint32_t k = 0;
    for (uint32_t i = 0; i < pattern_params.n; i++)
      if (clang_getCursorKind(pattern_params.v[i]) == CXCursor_ParmDecl)
        pattern_params.v[k++] = pattern_params.v[i];
    pattern_params.n = k;
    n = (int)k;
  }
  uint32_t first = this_type ? 1 : 0;
  fn->decl = c;
  fn->has_this = this_type != NULL;
  if (this_type) fn->this_type = *this_type;
  fn->caps = (lw_capture *)caps;
  fn->n_caps = n_caps;
  fn->captures_this = captures_this;
  CXType rt = clang_getResultType(clang_getCursorType(c));
  fn->ret_is_ref = lw_type_is_reference(rt);
  if (n + first > 0) {
    fn->params = lw_alloc(u, (size_t)(n + first) * sizeof *fn->params);
    if (!fn->params) { /* out of memory: the unit fails */
      lw_fn_free(fn);
      return;
    }
    fn->n_params = (uint32_t)n + first;
  }
  if (this_type) {
    tc_var *v = &fn->params[0];
    v->name = tc_intern(u->prog, "this");
    v->type = *this_type;
    CXSourceLocation at = clang_getCursorLocation(c);
    v->loc = lw_loc_range(u, clang_getRange(at, at));
  }
  for (int i = 0; i < n; i++) {
    CXCursor p = pattern_params.n ? pattern_params.v[i] : clang_Cursor_getArgument(c, (unsigned)i);
    tc_var *v = &fn->params[first + (uint32_t)i];
    v->name = lw_intern_cx(u, clang_getCursorSpelling(p));
    v->type = lw_type(u, clang_getCursorType(p));
    CXSourceLocation at = clang_getCursorLocation(p);
    v->loc = lw_loc_range(u, clang_getRange(at, at));
    lw_cmap_entry *e = lw_cmap_put(&fn->vars, p, NULL);
    if (e) {
      e->value = TC_ROOT_PARAM;
      e->sym = first + (tc_sym)i;
    }
  }
  lw_cursors_free(&pattern_params);
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_Constructor && this_type) {
    constructor_inits(fn, c);
    lw_place self; /* from here on the object is of this constructor's class */
    tc_opnd t = lw_this(fn);
    self.path = lw_path_extend(fn, &t.path, (tc_elem){.kind = TC_ELEM_DEREF});
    self.type = clang_getCursorType(clang_getCursorSemanticParent(c));
    lw_store_overriders(fn, &self, c);
  }
  lw_stmt(fn, body);
  if (fn->depth == 0 && lw_too_deep(fn)) u->stats.truncated++;
  tc_function f;
  memset(&f, 0, sizeof f);
  f.name = lw_intern_cx(u, clang_getCursorSpelling(c));
  f.usr = lw_decl_usr(u, c);
  CXSourceLocation at = clang_getCursorLocation(c);
  f.loc = lw_loc_range(u, clang_getRange(at, at));
  f.is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static && !is_member_kind(k);
  f.is_inline = clang_Cursor_isFunctionInlined(c) != 0;
  f.in_header = !clang_Location_isFromMainFile(at);
  f.is_variadic = clang_Cursor_isVariadic(c) != 0;
  f.is_lambda = is_lambda;
  f.ret_type = lw_type(u, rt);
  lw_fn_finish(fn, &f);
  lw_fn_free(fn);
  if (u->oom) return;
  u->functions = lw_grow(u, u->functions, &u->cap_functions, u->n_functions + 1,
                         sizeof *u->functions);
  if (u->n_functions >= u->cap_functions) return; /* out of memory: u->oom is set */
  u->functions[u->n_functions++] = f;
  u->stats.functions++;
  if (k == CXCursor_Constructor || k == CXCursor_Destructor) u->stats.constructors++;
  else if (is_lambda) u->stats.lambdas++;
  else if (is_member_kind(k)) u->stats.methods++;
}

static void lower_function(lw_unit *u, CXCursor c) {
  CXCursor body = body_of(c);
  if (clang_Cursor_isNull(body)) return;
  enum CXCursorKind k = clang_getCursorKind(c);
  int has_this = is_member_kind(k) && !clang_CXXMethod_isStatic(c);
  tc_type tt;
  if (has_this) tt = this_type_of(u, clang_getCursorSemanticParent(c));
  lw_lower_body(u, c, body, has_this ? &tt : NULL, NULL, 0, 0, 0);
}

static void list_push(lw_unit *u, lw_cursor_list *l, CXCursor c) {
  l->v = lw_grow(u, l->v, &l->cap, l->n + 1, sizeof *l->v);
  l->v[l->n++] = c;
}

/* Whether c is, or is a member of, a template (its body is a pattern with dependent types). */
static int in_template(CXCursor c) {
  for (int guard = 0; guard < 64 && !clang_Cursor_isNull(c); guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate ||
        k == CXCursor_ClassTemplatePartialSpecialization)
      return 1;
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) return 0;
    c = clang_getCursorSemanticParent(c);
  }
  return 0;
}

void lw_note_callee(lw_unit *u, CXCursor callee) {
  CXCursor tmpl = clang_getSpecializedCursorTemplate(callee);
  if (clang_Cursor_isNull(tmpl) || !clang_isCursorDefinition(callee)) return;
  if (in_template(callee)) return; /* a member of a pattern: no concrete types yet */
  tc_sym usr = lw_decl_usr(u, callee);
  if (!usr) return;
  CXCursor pattern = clang_getCanonicalCursor(tmpl);
  uint32_t *done = lw_pmap_put(&u->instantiated, pattern.data[0], NULL);
  if (done) *done = 1;
  uint32_t *seen = lw_pmap_put(&u->pending_seen, (const void *)(uintptr_t)usr, NULL);
  if (!seen || *seen != LW_NONE) return;
  *seen = 1;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(callee))) {
    u->stats.skipped_system++;
    return;
  }
  list_push(u, &u->pending, callee);
}

static void function_decl(lw_unit *u, CXCursor c) {
  if (!clang_isCursorDefinition(c)) return;
  if (in_template(c)) {
    list_push(u, &u->patterns, c);
    return;
  }
  lower_function(u, c);
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  lw_unit *u = data;
  if (u->oom) return CXChildVisit_Break; /* the unit fails: nothing more to lower */
  enum CXCursorKind k = clang_getCursorKind(c);
  switch ((int)k) {
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
  case CXCursor_Constructor:
  case CXCursor_Destructor:
  case CXCursor_ConversionFunction:
  case CXCursor_FunctionTemplate:
  case CXCursor_VarDecl:
  case CXCursor_LinkageSpec:
  case CXCursor_UnexposedDecl:
  case CXCursor_Namespace:
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl:
  case CXCursor_UnionDecl:
  case CXCursor_ClassTemplate:
  case CXCursor_ClassTemplatePartialSpecialization:
    break;
  default:
    return CXChildVisit_Continue;
  }
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  switch ((int)k) {
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
  case CXCursor_Constructor:
  case CXCursor_Destructor:
  case CXCursor_ConversionFunction:
  case CXCursor_FunctionTemplate:
    function_decl(u, c);
    break;
  case CXCursor_VarDecl:
    if (in_template(c)) break; /* a static member of a class template */
    if (clang_Cursor_getStorageClass(c) != CX_SC_Extern ||
        !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(c)))
      lw_global_var(u, c);
    break;
  default:
    return CXChildVisit_Recurse; /* namespaces, classes, extern "C" { … } */
  }
  return CXChildVisit_Continue;
}

void lw_lower_decls(lw_unit *u, CXCursor c) { clang_visitChildren(c, top_visit, u); }

/* The specializations calls named (lowering one may name more), then the patterns no
   specialization stood for. */
static void lower_templates(lw_unit *u) {
  for (uint32_t i = 0; i < u->pending.n && !u->oom; i++) {
    CXCursor c = u->pending.v[i];
    u->stats.instantiations++;
    lower_function(u, c);
  }
  for (uint32_t i = 0; i < u->patterns.n && !u->oom; i++) {
    CXCursor c = u->patterns.v[i];
    uint32_t *done = lw_pmap_get(&u->instantiated, clang_getCanonicalCursor(c).data[0], NULL);
    if (done && *done != LW_NONE) {
      u->stats.skipped_instantiated++;
      continue;
    }
    u->stats.patterns++;
    lower_function(u, c);
  }
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
  free(u->pending.v);
  lw_pmap_free(&u->pending_seen);
  free(u->patterns.v);
  lw_pmap_free(&u->instantiated);
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
  lw_lower_decls(&u, clang_getTranslationUnitCursor(tu));
  lower_templates(&u);
  tc_sym file = tc_intern(prog, main_file);
  tc_function *functions = NULL, *ginit = NULL;
  tc_global *globals = NULL;
  if (u.n_functions && (functions = lw_alloc(&u, u.n_functions * sizeof *functions)) != NULL)
    memcpy(functions, u.functions, u.n_functions * sizeof *functions);
  if (u.n_globals && (globals = lw_alloc(&u, u.n_globals * sizeof *globals)) != NULL)
    memcpy(globals, u.globals, u.n_globals * sizeof *globals);
  if (u.ginit && (ginit = lw_alloc(&u, sizeof *ginit)) != NULL) {
    lw_fn_finish(u.ginit, ginit);
    ginit->name = tc_intern(prog, "__tc_global_init");
    char buf[4096];
    snprintf(buf, sizeof buf, "__tc_global_init:%s", main_file);
    ginit->usr = tc_intern(prog, buf);
    ginit->loc.file = file;
  }
  if (u.oom) { /* the unit fails: the caller reports it as not analyzed */
    unit_free(&u);
    return -1;
  }
  int rc = 0;
  tc_unit *out = tc_program_add_unit(prog, file);
  if (!out) {
    rc = -1;
  } else {
    out->functions = functions;
    out->n_functions = u.n_functions;
    out->globals = globals;
    out->n_globals = u.n_globals;
    out->global_init = ginit;
    out->stats = u.stats;
  }
  unit_free(&u);
  return rc;
}
