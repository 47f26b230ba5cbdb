/* analyzer/src/frontend/lower_cxx.c — C++ expressions lowered into the C IR: `this` (parameter
 * 0 of members), references (addresses bound once, dereferenced at each use), calls of member
 * functions and operators (the object's address as first argument), constructors (a call
 * that writes the object; defaulted copies and moves as plain copies, in-class initializers),
 * default arguments, lambdas (a closure object holding the captures, whose operator() is
 * lowered as a function of its own, analyzed where it is called) and new-expressions. */
#include "frontend/lower_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tc_opnd none_opnd(void) {
  tc_opnd o = {0};
  return o;
}

static void expr_kids(CXCursor e, lw_cursors *out) {
  lw_children(e, out);
  uint32_t k = 0;
  for (uint32_t i = 0; i < out->n; i++)
    if (clang_isExpression(clang_getCursorKind(out->v[i]))) out->v[k++] = out->v[i];
  out->n = k;
}

static int is_member_kind(enum CXCursorKind k) {
  return k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
         k == CXCursor_ConversionFunction;
}

/* The IR type of a pointer to t (a reference's slot, `this`). */
static tc_type pointer_to(lw_unit *u, tc_type t) {
  tc_type p = {0};
  p.cls = TC_TY_POINTER;
  const char *name = tc_str(u->prog, t.name);
  size_t n = strlen(name) + 3;
  char *buf = malloc(n);
  if (buf) {
    snprintf(buf, n, "%s *", name);
    p.name = tc_intern(u->prog, buf);
    free(buf);
  }
  p.pointee_name = t.name;
  p.ptr_depth = t.ptr_depth + 1;
  p.base_record = t.base_record;
  if (t.cls == TC_TY_RECORD) p.record_name = t.record_name;
  return p;
}

static tc_opnd addr_of_place(const lw_place *p, tc_type ty);
static void default_construct_described(lw_fn *fn, const lw_place *m, CXCursor at);
static tc_opnd overrider_of(lw_fn *fn, CXCursor method, tc_opnd obj);
static CXCursor plain_call_operator(CXType t);
static int unique_ptr_model(lw_fn *fn, CXCursor e, CXCursor callee, CXType owner,
                            const tc_opnd *args, uint32_t n_args, const lw_place *dst,
                            tc_opnd *result);
static tc_opnd call_held_callable(lw_fn *fn, CXCursor e, tc_opnd obj, tc_opnd *args,
                                  uint32_t n_args, const lw_place *dst);
static enum CXChildVisitResult find_call_operator(CXCursor c, CXCursor parent, CXClientData d);
static int callee_named(lw_unit *u, CXCursor callee, const char *name);
static int make_unique_model(lw_fn *fn, CXCursor e, const tc_opnd *args, uint32_t n_args,
                             const lw_place *dst, tc_opnd *result);
static int std_array_model(lw_fn *fn, CXCursor e, CXCursor callee, const tc_opnd *args,
                           uint32_t n_args, const lw_place *dst, tc_opnd *result);
static void pair_fields(lw_fn *fn, CXCursor e, const lw_place *obj, const tc_opnd *args,
                        CXCursor params_of);
static void emplace_value(lw_fn *fn, CXCursor e, CXCursor callee, tc_opnd **args,
                          uint32_t *n_args);

tc_opnd lw_this(lw_fn *fn) {
  if (fn->self) return addr_of_place(fn->self, pointer_to(fn->u, lw_type(fn->u, fn->self->type)));
  if (!fn->has_this) return lw_opnd_unknown((tc_type){0});
  tc_path p = lw_path_root(TC_ROOT_PARAM, 0);
  p.spelling = tc_intern(fn->u->prog, "this");
  if (fn->captures_this) { /* a lambda: the enclosing member's `this`, copied into the closure */
    tc_path d = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
    p = lw_path_extend(fn, &d, (tc_elem){.kind = TC_ELEM_FIELD,
                                         .field = tc_intern(fn->u->prog, "this")});
    p.spelling = tc_intern(fn->u->prog, "this");
    return lw_opnd_path(&p, (tc_type){.cls = TC_TY_POINTER});
  }
  return lw_opnd_path(&p, fn->this_type);
}

static tc_opnd addr_of_place(const lw_place *p, tc_type ty) {
  if (p->path.n_elems && p->path.elems[p->path.n_elems - 1].kind == TC_ELEM_DEREF) {
    tc_path q = p->path; /* &*p is p */
    q.n_elems--;
    q.spelling = 0;
    return lw_opnd_path(&q, ty);
  }
  tc_opnd o = lw_opnd_path(&p->path, ty);
  o.kind = TC_OPND_ADDR;
  return o;
}

tc_opnd lw_addr_of(lw_fn *fn, CXCursor e) {
  lw_unit *u = fn->u;
  CXType t = clang_getCursorType(e);
  tc_type pty = pointer_to(u, lw_type(u, t));
  lw_place p;
  if (lw_place_of(fn, e, &p)) return addr_of_place(&p, pty);
  lw_place tmp = {lw_temp(fn), t}; /* a temporary the reference keeps alive */
  lw_expr_into(fn, e, &tmp);
  return addr_of_place(&tmp, pty);
}

void lw_bind_reference(lw_fn *fn, const lw_place *dst, CXCursor init) {
  tc_opnd a = lw_addr_of(fn, init);
  tc_insn *in = lw_emit(fn, TC_I_ASSIGN, lw_loc(fn->u, init));
  in->has_dst = 1;
  in->dst = dst->path;
  in->dst_type = lw_type(fn->u, dst->type);
  in->a = a;
}

/* ---- in-class initializers ---- */

/* The in-class initializer of field f (`dt_tensor *w = nullptr;`, `int n{3};`), or a null
   cursor. Its expression children may also be an array bound or a bit-field width, so the
   tokens say whether an `=` or `{` follows the name outside brackets. */
static CXCursor field_initializer(lw_unit *u, CXCursor f) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_kids(f, &ch);
  CXCursor init = ch.n ? ch.v[ch.n - 1] : clang_getNullCursor();
  lw_cursors_free(&ch);
  if (clang_Cursor_isNull(init)) return init;
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(u->tu, clang_getCursorExtent(f), &toks, &n);
  CXString name = clang_getCursorSpelling(f);
  const char *nm = clang_getCString(name);
  int seen_name = 0, depth = 0, found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    CXString ts = clang_getTokenSpelling(u->tu, toks[i]);
    const char *t = clang_getCString(ts);
    if (t && nm && !seen_name && strcmp(t, nm) == 0) seen_name = 1;
    else if (t && seen_name && strcmp(t, "[") == 0) depth++;
    else if (t && seen_name && strcmp(t, "]") == 0) depth--;
    else if (t && seen_name && depth == 0 && (strcmp(t, "=") == 0 || strcmp(t, "{") == 0))
      found = 1;
    clang_disposeString(ts);
  }
  clang_disposeString(name);
  if (toks) clang_disposeTokens(u->tu, toks, n);
  return found ? init : clang_getNullCursor();
}

void lw_field_defaults(lw_fn *fn, const lw_place *obj, const tc_sym *except, uint32_t n_except) {
  const lw_record *rec = lw_record_of(fn->u, obj->type);
  if (!rec) return;
  for (uint32_t i = 0; i < rec->n_fields; i++) {
    const lw_field *fd = &rec->fields[i];
    if (!fd->name) continue;
    int skip = 0;
    for (uint32_t k = 0; k < n_except && !skip; k++) skip = except[k] == fd->name;
    if (skip) continue;
    CXCursor init = field_initializer(fn->u, fd->decl);
    lw_place m;
    m.type = fd->type;
    m.path = lw_path_extend(fn, &obj->path, (tc_elem){.kind = TC_ELEM_FIELD, .field = fd->name});
    if (clang_Cursor_isNull(init)) {
      default_construct_described(fn, &m, fd->decl);
      continue;
    }
    if (lw_type_is_reference(m.type)) lw_bind_reference(fn, &m, init);
    else lw_init(fn, init, &m);
  }
}

/* ---- calls ---- */

/* The name calls of callee carry: its spelling, or for a member of a class or namespace that a
   system header declares, its qualified name without template arguments or inline namespaces
   (`std::vector::push_back`, `std::basic_istream::read`), the name rules/cxx.json describes —
   so a project's own `get` or `reset` never takes the standard library's meaning. */
tc_sym lw_callee_name(lw_unit *u, CXCursor callee) {
  tc_sym plain = lw_intern_cx(u, clang_getCursorSpelling(callee));
  if (!clang_Location_isInSystemHeader(clang_getCursorLocation(callee))) return plain;
  char buf[512];
  size_t len = 0;
  buf[0] = '\0';
  const char *parts[16];
  CXString strs[16];
  int n = 0;
  for (CXCursor c = clang_getCursorSemanticParent(callee); n < 16 && !clang_Cursor_isNull(c);
       c = clang_getCursorSemanticParent(c)) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
    if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(c)) continue;
    if (k != CXCursor_Namespace && k != CXCursor_ClassDecl && k != CXCursor_StructDecl &&
        k != CXCursor_ClassTemplate && k != CXCursor_UnionDecl)
      continue; /* extern "C" blocks */
    strs[n] = clang_getCursorSpelling(c);
    parts[n] = clang_getCString(strs[n]);
    n++;
  }
  if (n == 0) return plain;
  for (int i = n; i-- > 0;) {
    int w = snprintf(buf + len, sizeof buf - len, "%s::", parts[i] ? parts[i] : "");
    if (w > 0) len += (size_t)w < sizeof buf - len ? (size_t)w : sizeof buf - len - 1;
  }
  for (int i = 0; i < n; i++) clang_disposeString(strs[i]);
  snprintf(buf + len, sizeof buf - len, "%s", tc_str(u->prog, plain));
  return tc_intern(u->prog, buf);
}

/* std::move, std::forward, std::as_const: the argument itself (a cast, not a call). */
static int is_identity_cast(lw_unit *u, tc_sym name) {
  const char *s = tc_str(u->prog, name);
  return strcmp(s, "std::move") == 0 || strcmp(s, "std::forward") == 0 ||
         strcmp(s, "std::as_const") == 0;
}

static int swap_values(lw_fn *fn, CXCursor e, const lw_place *pa, const lw_place *pb);

/* std::swap(a, b) of two places: t := a; a := b; b := t, a copy of each value (a tensor handle
   member swapped by a move assignment keeps its tag). 0 (nothing emitted) when an argument is
   no place, or an array (whose swap is element-wise). */
static int swap_places(lw_fn *fn, CXCursor e) {
  lw_place a, b;
  CXCursor ea = clang_Cursor_getArgument(e, 0), eb = clang_Cursor_getArgument(e, 1);
  if (!lw_place_of(fn, ea, &a) || !lw_place_of(fn, eb, &b) || lw_type_is_array(a.type) ||
      lw_type_is_array(b.type))
    return 0;
  return swap_values(fn, e, &a, &b);
}

/* The place pointer operand p points to: *p, or x for &x. 0 when p is no place's address. */
static int pointee_place(lw_fn *fn, tc_opnd p, tc_path *out) {
  if (p.kind == TC_OPND_ADDR) {
    *out = p.path;
    return 1;
  }
  if (p.kind != TC_OPND_PATH) return 0;
  *out = lw_path_extend(fn, &p.path, (tc_elem){.kind = TC_ELEM_DEREF});
  return 1;
}

/* std::iter_swap(p, q) of two raw pointers: swaps *p and *q (iterators of a container address
   its one element summary, which a swap leaves as it is: left to the rules). 0 when not. */
static int iter_swap_pointees(lw_fn *fn, CXCursor e) {
  CXCursor ea = clang_Cursor_getArgument(e, 0), eb = clang_Cursor_getArgument(e, 1);
  CXType ta = clang_getCanonicalType(clang_getCursorType(ea));
  CXType tb = clang_getCanonicalType(clang_getCursorType(eb));
  if (ta.kind != CXType_Pointer || tb.kind != CXType_Pointer) return 0;
  lw_place a = {{0}, clang_getPointeeType(ta)}, b = {{0}, clang_getPointeeType(tb)};
  if (!pointee_place(fn, lw_expr(fn, ea, LW_VALUE), &a.path) ||
      !pointee_place(fn, lw_expr(fn, eb, LW_VALUE), &b.path))
    return 0;
  return swap_values(fn, e, &a, &b);
}

/* t := *a; *a := *b; *b := t (places a and b). */
static int swap_values(lw_fn *fn, CXCursor e, const lw_place *pa, const lw_place *pb) {
  lw_place a = *pa, b = *pb;
  tc_srcloc at = lw_loc(fn->u, e);
  lw_place t = {lw_temp(fn), a.type};
  lw_assign(fn, &t.path, t.type, lw_opnd_path(&a.path, lw_type(fn->u, a.type)), at);
  lw_assign(fn, &a.path, a.type, lw_opnd_path(&b.path, lw_type(fn->u, b.type)), at);
  lw_assign(fn, &b.path, b.type, lw_opnd_path(&t.path, lw_type(fn->u, t.type)), at);
  return 1;
}

/* The expression of parameter i's default argument in callee, or a null cursor. */
static CXCursor default_argument(CXCursor callee, int i) {
  CXCursor p = clang_Cursor_getArgument(callee, (unsigned)i);
  if (clang_Cursor_isNull(p)) return p;
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_kids(p, &ch);
  CXCursor d = ch.n ? ch.v[ch.n - 1] : clang_getNullCursor();
  lw_cursors_free(&ch);
  return d;
}

/* An argument the call leaves to the parameter's default (libclang shows an expression with
   nothing inside and no extent of its own). */
static int is_default_arg(CXCursor a) {
  if (clang_getCursorKind(a) != CXCursor_UnexposedExpr) return 0;
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(a, &ch);
  int empty = ch.n == 0;
  lw_cursors_free(&ch);
  return empty;
}

/* Lowers call e's arguments from index first on into args[at …]: a reference parameter gets
   the argument's address, a default argument its parameter's expression. */
static void lower_args(lw_fn *fn, CXCursor e, CXCursor callee, int first, tc_opnd *args,
                       uint32_t at) {
  int n_call = clang_Cursor_getNumArguments(e);
  int n_par = clang_Cursor_getNumArguments(callee);
  for (int i = first; i < n_call; i++) {
    CXCursor a = clang_Cursor_getArgument(e, (unsigned)i);
    int pi = i - first;
    CXType pt = {0};
    if (pi < n_par) {
      pt = clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)pi));
      if (is_default_arg(a)) {
        CXCursor d = default_argument(callee, pi);
        if (!clang_Cursor_isNull(d)) a = d;
      }
    }
    tc_opnd v = pt.kind != CXType_Invalid && lw_type_is_reference(pt) ? lw_addr_of(fn, a)
                                                                      : lw_expr(fn, a, LW_VALUE);
    if (v.kind == TC_OPND_NONE) v = lw_opnd_unknown(lw_type(fn->u, clang_getCursorType(a)));
    args[at + (uint32_t)(i - first)] = v;
  }
}

/* Emits the call and gives its result: into dst, a temporary, or (a reference returned) the
   referent through the temporary holding its address. */
static tc_opnd emit_call(lw_fn *fn, CXCursor e, CXCursor callee, tc_opnd *args, uint32_t n_args,
                         const lw_place *dst, lw_mode mode) {
  lw_unit *u = fn->u;
  CXType rt = clang_getResultType(clang_getCursorType(callee));
  int ref_ret = rt.kind != CXType_Invalid && lw_type_is_reference(rt);
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  in->callee.name = lw_callee_name(u, callee);
  in->callee.usr = lw_decl_usr(u, callee);
  in->n_args = n_args;
  in->args = args;
  in->in_macro = lw_in_macro(e);
  tc_opnd result = none_opnd();
  if (ref_ret) {
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst_type = lw_type(u, rt);
    tc_path r = lw_path_extend(fn, &in->dst, (tc_elem){.kind = TC_ELEM_DEREF});
    r.spelling = lw_spelling_text(u, e);
    result = lw_opnd_path(&r, lw_type(u, clang_getCursorType(e)));
    if (dst) lw_assign(fn, &dst->path, dst->type, result, lw_loc(u, e));
  } else if (dst) {
    in->has_dst = 1;
    in->dst = dst->path;
    in->dst_type = lw_type(u, dst->type);
    result = lw_opnd_path(&dst->path, in->dst_type);
  } else if (mode == LW_VALUE && clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Void) {
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst.spelling = lw_spelling_text(u, e);
    in->dst_type = lw_type(u, clang_getCursorType(e));
    result = lw_opnd_path(&in->dst, in->dst_type);
  }
  if (lw_is_noreturn(u, callee)) lw_terminate(fn, TC_T_UNREACHABLE, none_opnd(), lw_loc(u, e));
  return result;
}

/* The object a member call `o.f(…)` / `p->f(…)` / `f(…)` (implicit this) is made on, as a
   pointer; the callee expression is e's first child. */
static int member_object(lw_fn *fn, CXCursor e, tc_opnd *obj) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_kids(e, &ch);
  CXCursor callee = ch.n ? lw_strip(ch.v[0]) : clang_getNullCursor();
  lw_cursors_free(&ch);
  if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_MemberRefExpr ||
      !is_member_kind(clang_getCursorKind(clang_getCursorReferenced(callee))))
    return 0; /* an operator's first operand (`m.dev = d`) is no callee */
  expr_kids(callee, &ch);
  if (ch.n == 0) {
    *obj = lw_this(fn);
  } else if (lw_type_is_pointer(clang_getCursorType(ch.v[0]))) {
    *obj = lw_expr(fn, ch.v[0], LW_VALUE);
  } else {
    *obj = lw_addr_of(fn, ch.v[0]);
  }
  lw_cursors_free(&ch);
  return 1;
}

static int params_or_result_are_references(CXCursor callee) {
  CXType ft = clang_getCursorType(callee);
  CXType rt = clang_getResultType(ft);
  if (rt.kind != CXType_Invalid && lw_type_is_reference(rt)) return 1;
  int n = clang_Cursor_getNumArguments(callee);
  for (int i = 0; i < n; i++) {
    CXType pt = clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)i));
    if (lw_type_is_reference(pt)) return 1;
    if (!clang_Cursor_isNull(default_argument(callee, i))) return 1;
  }
  return 0;
}

/* 1 when type t is a std::function. */
static int is_std_function(lw_unit *u, CXType t) {
  CXType c = clang_getCanonicalType(clang_getNonReferenceType(t));
  return c.kind == CXType_Record && callee_named(u, clang_getTypeDeclaration(c), "std::function");
}

/* A std::function *dst made (or assigned) from the lambda or functor `callable`: it holds a copy
   of the callable, field @callable, and calls its operator(), field @call — whichever way it
   is made: converting constructor, aggregate or member initializer, operator=. 0 (nothing
   emitted) when dst is no std::function or the callable has no plain operator(). */
int lw_function_from_callable(lw_fn *fn, CXCursor callable, const lw_place *dst) {
  lw_unit *u = fn->u;
  if (!is_std_function(u, dst->type)) return 0;
  CXCursor op = plain_call_operator(clang_getCursorType(callable));
  if (clang_Cursor_isNull(op)) return 0;
  lw_place held;
  held.path = lw_path_extend(fn, &dst->path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                       .field = tc_intern(u->prog, "@callable")});
  held.type = clang_getNonReferenceType(clang_getCursorType(callable));
  lw_expr_into(fn, callable, &held);
  lw_note_callee(u, op);
  tc_insn *in = lw_emit(fn, TC_I_ASSIGN, lw_loc(u, callable));
  in->has_dst = 1;
  in->dst = lw_path_extend(fn, &dst->path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                     .field = tc_intern(u->prog, "@call")});
  in->dst_type = pointer_to(u, lw_type(u, clang_getCursorType(op)));
  in->a.kind = TC_OPND_FUNC;
  in->a.sym = lw_decl_usr(u, op);
  in->a.type = in->dst_type;
  return 1;
}

/* Where the object expression e makes goes: dst, else a new temporary of e's type. */
static lw_place result_place(lw_fn *fn, CXCursor e, const lw_place *dst) {
  lw_place p;
  if (dst) return *dst;
  p.path = lw_temp(fn);
  p.type = clang_getCursorType(e);
  return p;
}

static tc_opnd construct(lw_fn *fn, CXCursor e, CXCursor ctor, const lw_place *dst,
                         lw_mode mode) {
  lw_unit *u = fn->u;
  int n_call = clang_Cursor_getNumArguments(e);
  if (n_call < 0) n_call = 0;
  int defaulted = clang_CXXMethod_isDefaulted(ctor) != 0;
  /* a std::function copied or moved holds (a copy of) the same callable: a copy of the value,
     its @callable and @call with it */
  int copies_value = defaulted || callee_named(u, ctor, "std::function::function");
  if (copies_value && n_call >= 1 &&
      (clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor))) {
    CXCursor src = clang_Cursor_getArgument(e, 0); /* a member-wise copy: a copy of the value */
    if (dst) {
      lw_expr_into(fn, src, dst);
      lw_store_overriders(fn, dst, e); /* a copy is of the class made (a slice's is its own) */
      return lw_opnd_path(&dst->path, lw_type(u, dst->type));
    }
    return lw_expr(fn, src, mode);
  }
  lw_place obj = result_place(fn, e, dst);
  if (n_call == 1 && callee_named(u, ctor, "std::function::function") &&
      lw_function_from_callable(fn, clang_Cursor_getArgument(e, 0), &obj))
    return lw_opnd_path(&obj.path, lw_type(u, obj.type));
  /* a standard-library class's defaulted constructor (`vector() = default;`) is called as it
     is: the rules describe what it makes (a container's: no element) */
  int described = clang_Location_isInSystemHeader(clang_getCursorLocation(ctor));
  if (defaulted && n_call == 0 && !described) { /* = default / implicit: the in-class
                                                   initializers, whose `this` is the object
                                                   made here */
    const lw_place *saved = fn->self;
    fn->self = &obj;
    lw_field_defaults(fn, &obj, NULL, 0);
    fn->self = saved;
    lw_store_overriders(fn, &obj, e);
    return lw_opnd_path(&obj.path, lw_type(u, obj.type));
  }
  lw_note_callee(u, ctor);
  tc_opnd *args = lw_alloc(u, (size_t)(n_call + 1) * sizeof *args);
  args[0] = addr_of_place(&obj, pointer_to(u, lw_type(u, obj.type)));
  lower_args(fn, e, ctor, 0, args, 1);
  if (n_call == 2 && callee_named(u, ctor, "std::pair::pair")) { /* pair(a, b), {a, b} */
    pair_fields(fn, e, &obj, args + 1, ctor);
    return lw_opnd_path(&obj.path, lw_type(u, obj.type));
  }
  tc_opnd modelled;
  if (unique_ptr_model(fn, e, ctor, obj.type, args, (uint32_t)n_call + 1, NULL, &modelled))
    return lw_opnd_path(&obj.path, lw_type(u, obj.type));
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  in->callee.name = lw_callee_name(u, ctor);
  in->callee.usr = lw_decl_usr(u, ctor);
  in->n_args = (uint32_t)n_call + 1;
  in->args = args;
  in->in_macro = lw_in_macro(e);
  lw_store_overriders(fn, &obj, e); /* the object is of the class made here, whichever
                                       constructor (an inherited one) built it */
  return lw_opnd_path(&obj.path, lw_type(u, obj.type));
}

int lw_cxx_call(lw_fn *fn, CXCursor e, const lw_place *dst, lw_mode mode, tc_opnd *result) {
  lw_unit *u = fn->u;
  CXCursor ref = clang_getCursorReferenced(e);
  enum CXCursorKind k = clang_getCursorKind(ref);
  if (k == CXCursor_Constructor) {
    *result = construct(fn, e, ref, dst, mode);
    return 1;
  }
  if (!is_member_kind(k) && !(k == CXCursor_FunctionDecl && (params_or_result_are_references(ref) ||
                                                               callee_named(u, ref, "std::make_unique") ||
                                                               callee_named(u, ref, "std::make_shared") ||
                                                               callee_named(u, ref, "std::iter_swap"))))
    return 0;
  int n_call = clang_Cursor_getNumArguments(e), n_par = clang_Cursor_getNumArguments(ref);
  if (k == CXCursor_FunctionDecl && n_call == 1 && is_identity_cast(u, lw_callee_name(u, ref))) {
    CXCursor a = clang_Cursor_getArgument(e, 0);
    if (dst) {
      lw_expr_into(fn, a, dst);
      *result = lw_opnd_path(&dst->path, lw_type(u, dst->type));
    } else {
      *result = lw_expr(fn, a, mode);
    }
    return 1;
  }
  if (k == CXCursor_FunctionDecl && n_call == 2 &&
      ((callee_named(u, ref, "std::swap") && swap_places(fn, e)) ||
       (callee_named(u, ref, "std::iter_swap") && iter_swap_pointees(fn, e)))) {
    *result = lw_opnd_unknown(lw_type(u, clang_getCursorType(e)));
    return 1;
  }
  lw_note_callee(u, ref);
  if (n_call < 0) n_call = 0;
  if (n_par < 0) n_par = 0;
  int is_method = is_member_kind(k) && !clang_CXXMethod_isStatic(ref);
  tc_opnd obj = none_opnd();
  int has_obj = 0, first = 0;
  if (is_method) {
    if (member_object(fn, e, &obj)) {
      has_obj = 1;
    } else if (n_call >= 1) { /* an operator: `a = b`, `m(x)`, `v[i]` — the object is arg 0 */
      CXCursor a0 = clang_Cursor_getArgument(e, 0);
      if ((clang_CXXMethod_isDefaulted(ref) || callee_named(u, ref, "std::function::operator=")) &&
          n_call == 2 &&
          (clang_CXXMethod_isCopyAssignmentOperator(ref) ||
           clang_CXXMethod_isMoveAssignmentOperator(ref))) {
        lw_place p; /* a member-wise assignment: the value is copied */
        if (lw_place_of(fn, a0, &p)) {
          lw_expr_into(fn, clang_Cursor_getArgument(e, 1), &p);
          *result = lw_opnd_path(&p.path, lw_type(u, p.type));
        } else {
          lw_expr(fn, clang_Cursor_getArgument(e, 1), LW_EFFECT);
          *result = lw_opnd_unknown(lw_type(u, clang_getCursorType(e)));
        }
        return 1;
      }
      lw_place fp;
      if (n_call == 2 && callee_named(u, ref, "std::function::operator=") &&
          lw_place_of(fn, a0, &fp) &&
          lw_function_from_callable(fn, clang_Cursor_getArgument(e, 1), &fp)) {
        *result = lw_opnd_path(&fp.path, lw_type(u, fp.type)); /* f = lambda */
        return 1;
      }
      obj = lw_addr_of(fn, a0);
      has_obj = 1;
      first = 1;
    }
  }
  uint32_t n_args = (uint32_t)(has_obj + (n_call - first));
  tc_opnd *args = n_args ? lw_alloc(u, n_args * sizeof *args) : NULL;
  if (has_obj) args[0] = obj;
  lower_args(fn, e, ref, first, args, (uint32_t)has_obj);
  if (k == CXCursor_FunctionDecl &&
      (callee_named(u, ref, "std::make_unique") || callee_named(u, ref, "std::make_shared")) &&
      make_unique_model(fn, e, args, n_args, dst, result))
    return 1;
  if (k == CXCursor_FunctionDecl && n_args == 2 && callee_named(u, ref, "std::make_pair")) {
    lw_place obj = result_place(fn, e, dst);
    pair_fields(fn, e, &obj, args, ref);
    *result = lw_opnd_path(&obj.path, lw_type(u, obj.type));
    return 1;
  }
  if (is_method && has_obj) emplace_value(fn, e, ref, &args, &n_args);
  if (is_method && has_obj &&
      unique_ptr_model(fn, e, ref, clang_getCursorType(clang_getCursorSemanticParent(ref)), args,
                       n_args, dst, result))
    return 1;
  if (is_method && has_obj && std_array_model(fn, e, ref, args, n_args, dst, result)) return 1;
  if (is_method && has_obj && callee_named(u, ref, "std::function::operator()")) {
    *result = call_held_callable(fn, e, obj, args, n_args, dst);
    return 1;
  }
  if (is_method && clang_Cursor_isDynamicCall(e)) {
    /* a virtual call: the override that runs is not known here — an unknown callee, never the
       static type's body as a guess */
    tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
    in->callee.indirect = 1;
    in->callee.target = overrider_of(fn, ref, obj);
    in->n_args = n_args;
    in->args = args;
    in->in_macro = lw_in_macro(e);
    if (in->callee.target.kind == TC_OPND_UNKNOWN) u->stats.virtual_calls++;
    *result = lw_opnd_unknown(lw_type(u, clang_getCursorType(e)));
    if (clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Void) {
      in->has_dst = 1;
      in->dst = lw_temp(fn);
      in->dst_type = lw_type(u, clang_getCursorType(e));
      *result = lw_opnd_path(&in->dst, in->dst_type);
      CXType rt = clang_getResultType(clang_getCursorType(ref));
      if (rt.kind != CXType_Invalid && lw_type_is_reference(rt)) {
        in->dst_type = lw_type(u, rt);
        tc_path r = lw_path_extend(fn, &in->dst, (tc_elem){.kind = TC_ELEM_DEREF});
        *result = lw_opnd_path(&r, lw_type(u, clang_getCursorType(e)));
      }
      if (dst) lw_assign(fn, &dst->path, dst->type, *result, lw_loc(u, e));
    }
    return 1;
  }
  *result = emit_call(fn, e, ref, args, n_args, dst, mode);
  return 1;
}

/* ---- std::unique_ptr ---- */

/* The field `@ptr` of the unique_ptr that operand p points to (0: p is no place). */
static int held_pointer(lw_fn *fn, tc_opnd p, tc_path *out) {
  if (p.kind != TC_OPND_PATH && p.kind != TC_OPND_ADDR) return 0;
  tc_path q = p.path;
  if (p.kind == TC_OPND_PATH) q = lw_path_extend(fn, &q, (tc_elem){.kind = TC_ELEM_DEREF});
  *out = lw_path_extend(fn, &q, (tc_elem){.kind = TC_ELEM_FIELD,
                                          .field = tc_intern(fn->u->prog, "@ptr")});
  return 1;
}

static void store_held(lw_fn *fn, const tc_path *dst, tc_type ty, tc_opnd v, CXCursor at) {
  tc_insn *in = lw_emit(fn, lw_opnd_is_havoc(&v) ? TC_I_HAVOC : TC_I_ASSIGN, lw_loc(fn->u, at));
  in->has_dst = 1;
  in->dst = *dst;
  in->dst_type = ty;
  if (!lw_opnd_is_havoc(&v)) in->a = v;
}

/* Parameter i of callee: 'p' a raw pointer, 'u' a unique_ptr by reference (moved from), 'n'
   std::nullptr_t, 0 anything else. */
static int param_class(CXCursor callee, int i) {
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(callee,
                                                                                 (unsigned)i)));
  if (t.kind == CXType_NullPtr) return 'n';
  if (t.kind == CXType_Pointer) return 'p';
  if (t.kind == CXType_RValueReference) return 'u';
  return 0;
}

/* The member a call names when it is one of a smart pointer's — std::unique_ptr's, or
   std::shared_ptr's (libstdc++ defines get, operator bool, reset in its base __shared_ptr, and
   operator-> and operator* in __shared_ptr_access) —: "get", "shared_ptr", …; else NULL. */
static const char *smart_pointer_member(const char *name) {
  static const char *const owners[] = {"std::unique_ptr::", "std::shared_ptr::",
                                       "std::__shared_ptr::", "std::__shared_ptr_access::"};
  for (size_t i = 0; i < sizeof owners / sizeof *owners; i++)
    if (strncmp(name, owners[i], strlen(owners[i])) == 0) return name + strlen(owners[i]);
  return NULL;
}

/* Whether a value of type t is one pointer: a raw pointer, a std::unique_ptr or a
   std::shared_ptr (field `@ptr`, below). */
int lw_type_is_pointer_like(lw_unit *u, CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_Pointer) return 1;
  if (c.kind != CXType_Record) return 0;
  const char *name = tc_str(u->prog, lw_callee_name(u, clang_getTypeDeclaration(c)));
  return strcmp(name, "std::unique_ptr") == 0 || strcmp(name, "std::shared_ptr") == 0;
}

/* What the standard library's unique_ptr and shared_ptr do, in the IR: each holds one
   pointer, field `@ptr` (a shared_ptr's copies, defaulted, copy it; its count is not
   followed)
   (made, reset, moved from another — which is left NULL —, read by get(), operator->,
   operator* and operator bool, its comparison with nullptr).
   Its other members are rules/cxx.json's (they write the object: unknown). 1 when modelled. */
static int unique_ptr_model(lw_fn *fn, CXCursor e, CXCursor callee, CXType owner,
                            const tc_opnd *args, uint32_t n_args, const lw_place *dst,
                            tc_opnd *result) {
  lw_unit *u = fn->u;
  const char *member = smart_pointer_member(tc_str(u->prog, lw_callee_name(u, callee)));
  if (!member || n_args == 0) return 0;
  CXType pointee = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(owner), 0);
  if (pointee.kind == CXType_Invalid) return 0;
  tc_type ty = pointer_to(u, lw_type(u, pointee));
  tc_path held;
  if (!held_pointer(fn, args[0], &held)) return 0;
  tc_opnd null = {0};
  null.kind = TC_OPND_NULL;
  null.type = ty;
  int is_ctor = strcmp(member, "unique_ptr") == 0 || strcmp(member, "shared_ptr") == 0 ||
                strcmp(member, "__shared_ptr") == 0;
  int set = is_ctor || strcmp(member, "reset") == 0 || strcmp(member, "operator=") == 0;
  if (set) {
    int k = n_args == 1 ? 'n' : param_class(callee, 0);
    if (n_args == 1 && strcmp(member, "operator=") == 0) return 0;
    if (k == 'n') {
      store_held(fn, &held, ty, null, e);
    } else if (k == 'p' && strcmp(member, "operator=") != 0) {
      store_held(fn, &held, ty, args[1], e);
    } else if (k == 'u' && strcmp(member, "reset") != 0) {
      tc_path from;
      if (!held_pointer(fn, args[1], &from)) return 0;
      tc_path t = lw_temp(fn); /* p = std::move(p) keeps p's pointer */
      store_held(fn, &t, ty, lw_opnd_path(&from, ty), e);
      store_held(fn, &from, ty, null, e);
      store_held(fn, &held, ty, lw_opnd_path(&t, ty), e);
    } else {
      return 0;
    }
    *result = args[0];
    if (is_ctor || strcmp(member, "reset") == 0)
      *result = lw_opnd_unknown(lw_type(u, clang_getCursorType(e)));
    return 1;
  }
  if (strcmp(member, "operator*") == 0) { /* *p: the object the held pointer points to */
    tc_path obj = lw_path_extend(fn, &held, (tc_elem){.kind = TC_ELEM_DEREF});
    obj.spelling = lw_spelling_text(u, e);
    *result = lw_opnd_path(&obj, lw_type(u, clang_getCursorType(e)));
    if (dst) lw_assign(fn, &dst->path, dst->type, *result, lw_loc(u, e));
    return 1;
  }
  if (strcmp(member, "operator bool") == 0 && n_args == 1) { /* p != nullptr */
    tc_insn *in = lw_emit(fn, TC_I_BINOP, lw_loc(u, e));
    in->opc = TC_OPC_NE;
    in->a = lw_opnd_path(&held, ty);
    in->b = null;
    in->has_dst = 1;
    in->dst = dst ? dst->path : lw_temp(fn);
    in->dst_type = lw_type(u, clang_getCursorType(e));
    *result = lw_opnd_path(&in->dst, in->dst_type);
    return 1;
  }
  if (strcmp(member, "get") == 0 || strcmp(member, "operator->") == 0) {
    *result = lw_opnd_path(&held, ty);
    if (dst) {
      lw_assign(fn, &dst->path, dst->type, *result, lw_loc(u, e));
      *result = lw_opnd_path(&dst->path, lw_type(u, dst->type));
    }
    return 1;
  }
  return 0;
}

/* ---- std::make_unique ---- */

typedef struct ctor_pick {
  int arity;
  CXCursor found;
  int n_found;
} ctor_pick;

/* Whether constructor c can be called with `arity` arguments: as many parameters, or more whose
   later ones all have defaults. */
static int takes_arity(CXCursor c, int arity) {
  int n = clang_Cursor_getNumArguments(c);
  if (n < arity) return 0;
  for (int i = arity; i < n; i++)
    if (clang_Cursor_isNull(default_argument(c, i))) return 0;
  return 1;
}

/* Counts constructor c into p when a call with p->arity arguments may pick it. */
static void consider_ctor(CXCursor c, ctor_pick *p) {
  if (clang_getCursorKind(c) != CXCursor_Constructor || !takes_arity(c, p->arity) ||
      clang_CXXConstructor_isCopyConstructor(c) || clang_CXXConstructor_isMoveConstructor(c))
    return;
  p->found = c;
  p->n_found++;
}

static enum CXChildVisitResult pick_ctor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  consider_ctor(c, d);
  return CXChildVisit_Continue;
}

/* The base constructors a class inherits (`using Base::Base;`), considered as its own: the
   derived object is built by the base's constructor, its own members by their initializers
   (none here: a class that inherits its constructors rarely adds members). */
static enum CXChildVisitResult pick_inherited_ctor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_UsingDeclaration) return CXChildVisit_Continue;
  CXCursor ref = clang_getCursorReferenced(c);
  unsigned n = clang_getNumOverloadedDecls(ref);
  for (unsigned i = 0; i < n; i++) consider_ctor(clang_getOverloadedDecl(ref, i), d);
  if (!n) consider_ctor(ref, d);
  return CXChildVisit_Continue;
}

/* A constructor that takes no argument at all (the default one, not one whose parameters
   all have defaults). */
static enum CXChildVisitResult pick_nullary_ctor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ctor_pick *p = d;
  if (clang_getCursorKind(c) == CXCursor_Constructor && clang_Cursor_getNumArguments(c) == 0) {
    p->found = c;
    p->n_found++;
  }
  return CXChildVisit_Continue;
}

/* A member of a standard-library class that nothing initializes (no in-class initializer, not
   in the constructor's list) and whose default constructor is defaulted is made by it, called
   as it is so that the rules say what that makes (a container: no element, rules/cxx.json
   constructs_empty). The
   call is named as calls of it are (`std::vector::vector`), whether the class's members are
   its own or, for an implicit instantiation, its template's. */
static void default_construct_described(lw_fn *fn, const lw_place *m, CXCursor at) {
  lw_unit *u = fn->u;
  CXType t = clang_getCanonicalType(m->type);
  if (t.kind != CXType_Record) return;
  CXCursor decl = clang_getTypeDeclaration(t);
  if (!clang_Location_isInSystemHeader(clang_getCursorLocation(decl))) return;
  ctor_pick pick = {0, clang_getNullCursor(), 0};
  clang_visitChildren(decl, pick_nullary_ctor, &pick);
  CXCursor pattern = clang_getSpecializedCursorTemplate(decl); /* its definition, not a
                                                                  forward declaration */
  if (!clang_Cursor_isNull(pattern) && !clang_Cursor_isNull(clang_getCursorDefinition(pattern)))
    pattern = clang_getCursorDefinition(pattern);
  if (!pick.n_found && !clang_Cursor_isNull(pattern))
    clang_visitChildren(pattern, pick_nullary_ctor, &pick);
  /* a defaulted one (the containers'): a local of the class calls it too (construct); one of
     the class's own making (a smart pointer's, a string's) is left as the member was */
  if (pick.n_found != 1 || !clang_CXXMethod_isDefaulted(pick.found)) return;
  char name[512];
  const char *cls = tc_str(u->prog, lw_callee_name(u, decl));
  const char *last = strrchr(cls, ':');
  snprintf(name, sizeof name, "%s::%s", cls, last ? last + 1 : cls);
  tc_opnd *args = lw_alloc(u, sizeof *args);
  if (!args) return;
  args[0] = addr_of_place(m, pointer_to(u, lw_type(u, m->type)));
  tc_insn *c = lw_emit(fn, TC_I_CALL, lw_loc(u, at));
  c->callee.name = tc_intern(u->prog, name);
  c->callee.usr = lw_decl_usr(u, pick.found);
  c->n_args = 1;
  c->args = args;
}

/* The value an argument bound to a reference parameter denotes (args hold its address). */
static tc_opnd referent_of(lw_fn *fn, tc_opnd a, tc_type ty) {
  if (a.kind == TC_OPND_ADDR) {
    a.kind = TC_OPND_PATH;
  } else if (a.kind == TC_OPND_PATH) {
    a.path = lw_path_extend(fn, &a.path, (tc_elem){.kind = TC_ELEM_DEREF});
  } else {
    return lw_opnd_unknown(ty);
  }
  a.type = ty;
  return a;
}

/* Builds the T at obj (whose address is addr) from args…, as make_unique and emplace do: a copy
   of an argument that is a T; a unique_ptr holding the one raw pointer given; else by T's one
   constructor taking that many arguments (or, with none of its own, the one it inherits with
   `using Base::Base`), its later parameters left to their defaults (the one
   the call must resolve to; a non-template constructor, whose body is analyzed); with none or
   several, the new object's contents are unknown. a0 is the type of argument 0. */
static void construct_in_place(lw_fn *fn, CXCursor e, const lw_place *obj, tc_opnd addr,
                               CXType a0, const tc_opnd *args, uint32_t n_args) {
  lw_unit *u = fn->u;
  CXType t = obj->type;
  tc_type ty = lw_type(u, t);
  if (n_args >= 1)
    a0 = clang_getCanonicalType(clang_getUnqualifiedType(clang_getNonReferenceType(a0)));
  if (n_args == 1 && clang_equalTypes(a0, clang_getCanonicalType(t))) {
    lw_assign(fn, &obj->path, t, referent_of(fn, args[0], ty), lw_loc(u, e));
    return;
  }
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
  if (n_args == 2 && strcmp(tc_str(u->prog, lw_callee_name(u, decl)), "std::pair") == 0) {
    pair_fields(fn, e, obj, args, clang_getNullCursor()); /* forwarded: references */
    return;
  }
  if (n_args == 1 && a0.kind == CXType_Pointer &&
      strcmp(tc_str(u->prog, lw_callee_name(u, decl)), "std::unique_ptr") == 0) {
    CXType held = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(t), 0);
    tc_type hty = pointer_to(u, lw_type(u, held));
    tc_path at = lw_path_extend(fn, &obj->path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                          .field = tc_intern(u->prog, "@ptr")});
    store_held(fn, &at, hty, referent_of(fn, args[0], hty), e);
    return;
  }
  ctor_pick pick = {(int)n_args, clang_getNullCursor(), 0};
  clang_visitChildren(decl, pick_ctor, &pick);
  if (!pick.n_found) clang_visitChildren(decl, pick_inherited_ctor, &pick);
  if (pick.n_found != 1) return;
  lw_note_callee(u, pick.found);
  uint32_t n_par = (uint32_t)clang_Cursor_getNumArguments(pick.found);
  tc_opnd *cargs = lw_alloc(u, (n_par + 1) * sizeof *cargs);
  if (!cargs) return;
  cargs[0] = addr;
  for (uint32_t i = 0; i < n_par; i++) {
    CXType pt = clang_getCursorType(clang_Cursor_getArgument(pick.found, i));
    if (i >= n_args) { /* a parameter left to its default, evaluated here */
      CXCursor d = default_argument(pick.found, (int)i);
      cargs[i + 1] = lw_type_is_reference(pt) ? lw_addr_of(fn, d) : lw_expr(fn, d, LW_VALUE);
      if (cargs[i + 1].kind == TC_OPND_NONE) cargs[i + 1] = lw_opnd_unknown(lw_type(u, pt));
      continue;
    }
    cargs[i + 1] = lw_type_is_reference(pt) ? args[i] : referent_of(fn, args[i], lw_type(u, pt));
  }
  tc_insn *c = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  c->callee.name = lw_callee_name(u, pick.found);
  c->callee.usr = lw_decl_usr(u, pick.found);
  c->n_args = n_par + 1;
  c->args = cargs;
}

/* std::make_unique<T>(args…) and std::make_shared<T>(args…): a smart pointer holding a new T
   made from args (construct_in_place).
   1 when modelled. */
static int make_unique_model(lw_fn *fn, CXCursor e, const tc_opnd *args, uint32_t n_args,
                             const lw_place *dst, tc_opnd *result) {
  lw_unit *u = fn->u;
  CXType rt = clang_getCursorType(e);
  CXType t = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(rt), 0);
  if (t.kind == CXType_Invalid || clang_getCanonicalType(t).kind != CXType_Record) return 0;
  tc_type ty = lw_type(u, t), pty = pointer_to(u, ty);
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e)); /* the storage, as for a new-expression */
  in->callee.name = tc_intern(u->prog, "operator new");
  in->has_dst = 1;
  in->dst = lw_temp(fn);
  in->dst_type = pty;
  tc_path p = in->dst;
  lw_place obj;
  obj.path = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
  obj.type = t;
  CXType a0 = n_args >= 1 ? clang_getCursorType(clang_Cursor_getArgument(e, 0)) : (CXType){0};
  construct_in_place(fn, e, &obj, lw_opnd_path(&p, pty), a0, args, n_args);
  lw_store_overriders(fn, &obj, e);
  lw_place up;
  if (dst) {
    up = *dst;
  } else {
    up.path = lw_temp(fn);
    up.type = rt;
  }
  tc_path held = lw_path_extend(fn, &up.path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                        .field = tc_intern(u->prog, "@ptr")});
  store_held(fn, &held, pty, lw_opnd_path(&p, pty), e);
  *result = lw_opnd_path(&up.path, lw_type(u, up.type));
  return 1;
}

/* ---- std::pair: its two members made from two arguments ---- */

typedef struct own_copy {
  CXCursor copy, move;
} own_copy;

static enum CXChildVisitResult find_own_copy(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  own_copy *oc = d;
  if (clang_getCursorKind(c) == CXCursor_Constructor && !clang_CXXMethod_isDefaulted(c) &&
      !clang_CXXMethod_isDeleted(c)) {
    if (clang_CXXConstructor_isCopyConstructor(c)) oc->copy = c;
    if (clang_CXXConstructor_isMoveConstructor(c)) oc->move = c;
  }
  return CXChildVisit_Continue;
}

/* The copy or move constructor class t's author wrote (that constructor, not a member-wise
   copy, makes a member of that type): the move constructor when there is one and prefer_move,
   else the copy constructor, else the move constructor; a null cursor when t has neither. */
static CXCursor own_copy_constructor(CXType t, int prefer_move) {
  own_copy oc = {clang_getNullCursor(), clang_getNullCursor()};
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record) return oc.copy;
  clang_visitChildren(clang_getTypeDeclaration(c), find_own_copy, &oc);
  if (!clang_Cursor_isNull(oc.move) && (prefer_move || clang_Cursor_isNull(oc.copy)))
    return oc.move;
  return oc.copy;
}

/* A call of the constructor ctor making the object at `at` (of type t) from the object src
   points to. */
static void construct_from(lw_fn *fn, CXCursor e, CXCursor ctor, const tc_path *at, CXType t,
                           tc_opnd src) {
  lw_unit *u = fn->u;
  lw_note_callee(u, ctor);
  tc_opnd *args = lw_alloc(u, 2 * sizeof *args);
  args[0] = addr_of_place(&(lw_place){.path = *at, .type = t}, pointer_to(u, lw_type(u, t)));
  args[1] = src;
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  in->callee.name = lw_callee_name(u, ctor);
  in->callee.usr = lw_decl_usr(u, ctor);
  in->n_args = 2;
  in->args = args;
  in->in_macro = lw_in_macro(e);
}

/* obj (a std::pair) made from args[0] and args[1], as its two-argument constructors and
   std::make_pair do: first and second become copies of them (a tensor handle in second keeps
   its tag). An argument bound to a reference parameter of params_of (every one when it is
   null: forwarded arguments) is held by its address. A member whose type is not known stays
   as it is; one of a class with its own copy or move constructor (an RAII handle) is made by
   that constructor (the move constructor when the class has one: pair(U1&&, U2&&) forwards
   what it is given), not by a member-wise copy. */
static void pair_fields(lw_fn *fn, CXCursor e, const lw_place *obj, const tc_opnd *args,
                        CXCursor params_of) {
  lw_unit *u = fn->u;
  static const char *const members[2] = {"first", "second"};
  CXType pt = clang_getCanonicalType(clang_getNonReferenceType(obj->type));
  for (int i = 0; i < 2; i++) {
    CXType mt = clang_Type_getTemplateArgumentAsType(pt, (unsigned)i);
    if (mt.kind == CXType_Invalid) continue;
    int by_ref = 1;
    if (!clang_Cursor_isNull(params_of) && clang_Cursor_getNumArguments(params_of) == 2) {
      CXCursor param = clang_Cursor_getArgument(params_of, (unsigned)i);
      by_ref = lw_type_is_reference(clang_getCursorType(param));
    }
    tc_path at = lw_path_extend(fn, &obj->path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                          .field = tc_intern(u->prog, members[i])});
    CXCursor own = own_copy_constructor(mt, 1);
    if (!clang_Cursor_isNull(own)) { /* an RAII handle: its constructor makes the member */
      tc_opnd src = args[i];
      if (!by_ref && src.kind == TC_OPND_PATH) src.kind = TC_OPND_ADDR;
      if (src.kind == TC_OPND_PATH || src.kind == TC_OPND_ADDR)
        construct_from(fn, e, own, &at, mt, src);
      else
        lw_assign(fn, &at, mt, lw_opnd_unknown(lw_type(u, mt)), lw_loc(u, e));
      continue;
    }
    tc_opnd v = by_ref ? referent_of(fn, args[i], lw_type(u, mt)) : args[i];
    lw_assign(fn, &at, mt, v, lw_loc(u, e));
  }
}

/* ---- emplace: the element made from the arguments ---- */

/* A sequence container's emplace_back / emplace_front (c.emplace_back(args…)) builds its new
   element from args… in place: the element is made here, in a temporary of the container's
   value type (construct_in_place: a unique_ptr from a raw pointer, a class by its
   constructor), and the call is left with (c, &element), which rules/cxx.json's store effect
   puts in the container. Arguments that are already one element are left as they are. */
static void emplace_value(lw_fn *fn, CXCursor e, CXCursor callee, tc_opnd **args,
                          uint32_t *n_args) {
  lw_unit *u = fn->u;
  static const char *const emplacers[] = {"std::vector::emplace_back", "std::deque::emplace_back",
                                          "std::deque::emplace_front", "std::list::emplace_back",
                                          "std::list::emplace_front", "std::optional::emplace"};
  int known = 0;
  for (size_t i = 0; i < sizeof emplacers / sizeof *emplacers; i++)
    known |= callee_named(u, callee, emplacers[i]);
  if (!known || *n_args < 2) return;
  CXType owner = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(callee)));
  CXType vt = clang_Type_getTemplateArgumentAsType(owner, 0);
  if (vt.kind == CXType_Invalid || clang_getCanonicalType(vt).kind != CXType_Record) return;
  CXType a0 = clang_getCursorType(clang_Cursor_getArgument(e, 0));
  CXType a0v = clang_getCanonicalType(clang_getUnqualifiedType(clang_getNonReferenceType(a0)));
  if (*n_args == 2 && clang_equalTypes(a0v, clang_getCanonicalType(vt))) return;
  lw_place elem;
  elem.path = lw_temp(fn);
  elem.type = vt;
  tc_type pty = pointer_to(u, lw_type(u, vt));
  tc_opnd addr = addr_of_place(&elem, pty);
  construct_in_place(fn, e, &elem, addr, a0, *args + 1, *n_args - 1);
  tc_opnd *two = lw_alloc(u, 2 * sizeof *two);
  if (!two) return;
  two[0] = (*args)[0];
  two[1] = addr;
  *args = two;
  *n_args = 2;
}

/* ---- standard containers in a range-for ---- */

/* `t = C::member(&c)` for the standard-library container c (its class C), into a new
   temporary *out of type `ty`; 0 (nothing emitted) when c is no standard-library class. */
static int std_container_call(lw_fn *fn, const lw_place *range, const char *member,
                              tc_type ty, tc_srcloc loc, tc_path *out) {
  lw_unit *u = fn->u;
  CXType t = clang_getCanonicalType(range->type);
  if (t.kind != CXType_Record) return 0;
  const char *name = tc_str(u->prog, lw_callee_name(u, clang_getTypeDeclaration(t)));
  if (strncmp(name, "std::", 5) != 0) return 0;
  size_t n = strlen(name) + strlen(member) + 3;
  char *callee = malloc(n);
  if (!callee) return 0;
  snprintf(callee, n, "%s::%s", name, member);
  tc_type obj_ty = lw_type(u, range->type);
  tc_opnd *args = lw_alloc(u, sizeof *args);
  if (!args) {
    free(callee);
    return 0;
  }
  args[0] = addr_of_place(range, pointer_to(u, obj_ty));
  tc_insn *in = lw_emit(fn, TC_I_CALL, loc);
  in->callee.name = tc_intern(u->prog, callee);
  free(callee);
  in->n_args = 1;
  in->args = args;
  in->has_dst = 1;
  in->dst = lw_temp(fn);
  in->dst_type = ty.cls ? ty : pointer_to(u, obj_ty);
  *out = in->dst;
  return 1;
}

/* for (x : c) over a standard-library container c: emits `it = C::begin(&c)` (the rules say
   what begin gives: rules/cxx.json's element_of_arg, the address of c's elements) and sets
   *it to the temporary holding it, whose referent is each element in turn. 0 (nothing
   emitted) when c is no standard-library class, whose begin() would be a guess. */
int lw_std_range_begin(lw_fn *fn, const lw_place *range, tc_srcloc loc, tc_path *it) {
  return std_container_call(fn, range, "begin", (tc_type){0}, loc, it);
}

/* `t = C::empty(&c)` for that container (the rules say when it is known: a container an
   element was put in is not empty), so the loop's first test is decided where it is; *t holds
   it. 0 when c is no standard-library class. */
int lw_std_range_empty(lw_fn *fn, const lw_place *range, tc_srcloc loc, tc_path *t) {
  tc_type bool_ty = {0};
  bool_ty.cls = TC_TY_INT;
  bool_ty.name = tc_intern(fn->u->prog, "bool");
  return std_container_call(fn, range, "empty", bool_ty, loc, t);
}

/* ---- std::array ---- */

static enum CXVisitorResult first_field(CXCursor c, CXClientData d) {
  *(CXCursor *)d = c;
  return CXVisit_Break;
}

long long lw_std_array_size(lw_unit *u, CXType t, CXType *elem, tc_sym *field) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record || clang_Type_getNumTemplateArguments(c) != 2) return -1;
  CXCursor decl = clang_getTypeDeclaration(c);
  if (strcmp(tc_str(u->prog, lw_callee_name(u, decl)), "std::array") != 0) return -1;
  CXType et = clang_Type_getTemplateArgumentAsType(c, 0);
  long long whole = clang_Type_getSizeOf(c), one = clang_Type_getSizeOf(et);
  if (et.kind == CXType_Invalid || whole <= 0 || one <= 0 || whole % one != 0) return -1;
  CXCursor f = clang_getNullCursor();
  clang_Type_visitFields(c, first_field, &f);
  if (clang_Cursor_isNull(f) || !lw_type_is_array(clang_getCursorType(f))) return -1;
  if (elem) *elem = et;
  if (field) *field = lw_intern_cx(u, clang_getCursorSpelling(f));
  return whole / one;
}

/* The address of the elements of the std::array obj points to: its one field, the C array
   that aggregate initialization (`std::array<T, 2> a = {x, y}`) and copies fill too. */
static tc_opnd std_array_elements(lw_fn *fn, tc_opnd obj, tc_sym field) {
  if (obj.kind == TC_OPND_PATH)
    obj.path = lw_path_extend(fn, &obj.path, (tc_elem){.kind = TC_ELEM_DEREF});
  else if (obj.kind != TC_OPND_ADDR)
    return obj;
  obj.kind = TC_OPND_ADDR;
  obj.path = lw_path_extend(fn, &obj.path, (tc_elem){.kind = TC_ELEM_FIELD, .field = field});
  return obj;
}

/* What std::array's accessors do, in the IR: the object's elements are its elements, as a C
   array's are (operator[] and at(i) are element i, front() 0 and back() N-1; data() and begin()
   the address of element 0; size() is N), so what is stored in one element is read back from
   it and a loop to size() has a known bound. 1 when
   modelled. */
static int std_array_model(lw_fn *fn, CXCursor e, CXCursor callee, const tc_opnd *args,
                           uint32_t n_args, const lw_place *dst, tc_opnd *result) {
  lw_unit *u = fn->u;
  const char *name = tc_str(u->prog, lw_callee_name(u, callee));
  const char *prefix = "std::array::";
  if (strncmp(name, prefix, strlen(prefix)) != 0 || n_args == 0) return 0;
  const char *member = name + strlen(prefix);
  CXType elem;
  tc_sym field = 0;
  long long n = lw_std_array_size(u, clang_getCursorType(clang_getCursorSemanticParent(callee)),
                                  &elem, &field);
  if (n <= 0) return 0;
  tc_type int_ty = {0};
  int_ty.cls = TC_TY_INT;
  tc_opnd index;
  int address = 0;
  if ((strcmp(member, "size") == 0 || strcmp(member, "max_size") == 0 ||
       strcmp(member, "empty") == 0) && n_args == 1) {
    CXType rt = clang_getCursorType(e);
    *result = lw_opnd_int(strcmp(member, "empty") == 0 ? 0 : n, lw_type(u, rt));
    if (dst) {
      lw_assign(fn, &dst->path, dst->type, *result, lw_loc(u, e));
      *result = lw_opnd_path(&dst->path, lw_type(u, dst->type));
    }
    return 1;
  }
  if ((strcmp(member, "operator[]") == 0 || strcmp(member, "at") == 0) && n_args == 2)
    index = args[1];
  else if (strcmp(member, "front") == 0 && n_args == 1) index = lw_opnd_int(0, int_ty);
  else if (strcmp(member, "back") == 0 && n_args == 1) index = lw_opnd_int(n - 1, int_ty);
  else if ((strcmp(member, "data") == 0 || strcmp(member, "begin") == 0) && n_args == 1) {
    index = lw_opnd_int(0, int_ty);
    address = 1;
  } else {
    return 0;
  }
  lw_place el;
  if (!lw_index_place(fn, std_array_elements(fn, args[0], field), index, &el)) return 0;
  tc_type et = lw_type(u, elem);
  *result = lw_opnd_path(&el.path, et);
  if (address) {
    result->kind = TC_OPND_ADDR;
    result->type = pointer_to(u, et);
  }
  if (dst) {
    lw_assign(fn, &dst->path, dst->type, *result, lw_loc(u, e));
    *result = lw_opnd_path(&dst->path, lw_type(u, dst->type));
  }
  return 1;
}

/* ---- std::function ---- */

static int callee_named(lw_unit *u, CXCursor callee, const char *name) {
  return strcmp(tc_str(u->prog, lw_callee_name(u, callee)), name) == 0;
}

/* The operator() of a lambda's closure or a functor class of the program, when std::function
   can call it as the IR calls it: not a template, no reference parameter or result (a
   std::function passes its arguments by value). A null cursor otherwise. */
static CXCursor plain_call_operator(CXType t) {
  CXCursor op = clang_getNullCursor();
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record) return op;
  clang_visitChildren(clang_getTypeDeclaration(c), find_call_operator, &op);
  if (clang_Cursor_isNull(op) || clang_Location_isInSystemHeader(clang_getCursorLocation(op)))
    return clang_getNullCursor();
  CXType ft = clang_getCursorType(op);
  if (lw_type_is_reference(clang_getResultType(ft))) return clang_getNullCursor();
  int n = clang_Cursor_getNumArguments(op);
  if (n < 0) return clang_getNullCursor();
  for (int i = 0; i < n; i++)
    if (lw_type_is_reference(clang_getCursorType(clang_Cursor_getArgument(op, (unsigned)i))))
      return clang_getNullCursor();
  return op;
}

/* A call of std::function::operator() on obj (a pointer to the std::function): an indirect
   call of the operator() it holds (unknown unless it was made from a callable in view), with
   the held callable as `this`. */
static tc_opnd call_held_callable(lw_fn *fn, CXCursor e, tc_opnd obj, tc_opnd *args,
                                  uint32_t n_args, const lw_place *dst) {
  lw_unit *u = fn->u;
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  in->callee.indirect = 1;
  in->callee.target = lw_opnd_unknown((tc_type){0});
  if (obj.kind == TC_OPND_PATH || obj.kind == TC_OPND_ADDR) {
    tc_path p = obj.path;
    if (obj.kind == TC_OPND_PATH) p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
    tc_path call = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_FIELD,
                                                    .field = tc_intern(u->prog, "@call")});
    tc_path held = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_FIELD,
                                                    .field = tc_intern(u->prog, "@callable")});
    in->callee.target = lw_opnd_path(&call, (tc_type){0});
    args[0] = addr_of_place(&(lw_place){.path = held, .type = clang_getCursorType(e)},
                            args[0].type);
  }
  in->n_args = n_args;
  in->args = args;
  in->in_macro = lw_in_macro(e);
  tc_opnd result = lw_opnd_unknown(lw_type(u, clang_getCursorType(e)));
  if (clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Void) {
    in->has_dst = 1;
    in->dst = dst ? dst->path : lw_temp(fn);
    in->dst_type = lw_type(u, dst ? dst->type : clang_getCursorType(e));
    result = lw_opnd_path(&in->dst, in->dst_type);
  }
  return result;
}

/* ---- virtual members: each object's table of overriders ---- */

/* The field of an object that holds the overrider of virtual member `method`: `@vfn:` and the
   method's USR past its class ("forward#*1$@S@dt_tensor#1"), which a member and its overrides
   share. 0 when the USR has no such part. */
static tc_sym virtual_slot(lw_unit *u, CXCursor method) {
  CXString usr = clang_getCursorUSR(method);
  const char *s = clang_getCString(usr);
  const char *last = NULL;
  for (const char *f = s ? strstr(s, "@F@") : NULL; f; f = strstr(f + 1, "@F@")) last = f;
  tc_sym slot = 0;
  if (last) {
    size_t n = strlen(last + 3) + 6;
    char *name = lw_alloc(u, n);
    if (name) {
      snprintf(name, n, "@vfn:%s", last + 3);
      slot = tc_intern(u->prog, name);
    }
  }
  clang_disposeString(usr);
  return slot;
}

/* Stores cls's overriders in obj (bases first: the class's own override them). The overrider
   of a slot stays unknown (havoc) where it cannot be named for sure: a template
   specialization's members (libclang lists only its pattern's, USRs of the pattern), and the
   bases' members of a class with several bases (a member of two bases is one slot). */
static void store_overriders(lw_fn *fn, const lw_place *obj, CXType cls, CXCursor at, int depth,
                             int unknown_only) {
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(cls));
  CXCursor pattern = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(pattern)) {
    decl = pattern;
    unknown_only = 1;
  }
  CXCursor def = clang_getCursorDefinition(decl);
  if (clang_Cursor_isNull(def) || depth > 16) return;
  lw_unit *u = fn->u;
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(def, &ch);
  uint32_t n_bases = 0;
  for (uint32_t i = 0; i < ch.n; i++)
    n_bases += clang_getCursorKind(ch.v[i]) == CXCursor_CXXBaseSpecifier;
  for (uint32_t i = 0; i < ch.n; i++)
    if (clang_getCursorKind(ch.v[i]) == CXCursor_CXXBaseSpecifier)
      store_overriders(fn, obj, clang_getCursorType(ch.v[i]), at, depth + 1,
                       unknown_only || n_bases > 1);
  for (uint32_t i = 0; i < ch.n; i++) {
    CXCursor m = ch.v[i];
    if (clang_getCursorKind(m) != CXCursor_CXXMethod || !clang_CXXMethod_isVirtual(m)) continue;
    tc_sym slot = virtual_slot(u, m);
    if (!slot) continue;
    int known = !unknown_only && !clang_CXXMethod_isPureVirtual(m);
    tc_path dst = lw_path_extend(fn, &obj->path, (tc_elem){.kind = TC_ELEM_FIELD, .field = slot});
    tc_type ft = pointer_to(u, lw_type(u, clang_getCursorType(m)));
    tc_insn *in = lw_emit(fn, known ? TC_I_ASSIGN : TC_I_HAVOC, lw_loc(u, at));
    in->has_dst = 1;
    in->dst = dst;
    in->dst_type = ft;
    if (known) {
      lw_note_callee(u, m);
      in->a.kind = TC_OPND_FUNC;
      in->a.sym = lw_decl_usr(u, m);
      in->a.type = ft;
    }
  }
  lw_cursors_free(&ch);
}

void lw_store_overriders(lw_fn *fn, const lw_place *obj, CXCursor at) {
  if (lw_type_is_record(obj->type)) store_overriders(fn, obj, obj->type, at, 0, 0);
}

/* The overrider a virtual call `o->f(…)` runs: the slot of the object obj points to. */
static tc_opnd overrider_of(lw_fn *fn, CXCursor method, tc_opnd obj) {
  tc_sym slot = virtual_slot(fn->u, method);
  tc_type ft = pointer_to(fn->u, lw_type(fn->u, clang_getCursorType(method)));
  if (!slot || (obj.kind != TC_OPND_PATH && obj.kind != TC_OPND_ADDR))
    return lw_opnd_unknown(ft);
  tc_path p = obj.path;
  if (obj.kind == TC_OPND_PATH) p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
  p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_FIELD, .field = slot});
  return lw_opnd_path(&p, ft);
}

/* ---- aggregates ---- */

static enum CXChildVisitResult find_non_aggregate_member(CXCursor c, CXCursor parent,
                                                         CXClientData data) {
  (void)parent;
  int *found = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  enum CX_CXXAccessSpecifier access = clang_getCXXAccessSpecifier(c); /* C: invalid */
  int non_public_field = k == CXCursor_FieldDecl &&
                         (access == CX_CXXPrivate || access == CX_CXXProtected);
  int virtual_base = k == CXCursor_CXXBaseSpecifier && clang_isVirtualBase(c);
  if (k == CXCursor_Constructor || non_public_field || virtual_base ||
      (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(c))) {
    *found = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

int lw_is_class_with_constructors(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record) return 0;
  CXCursor decl = clang_getTypeDeclaration(c);
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl && k != CXCursor_ClassTemplate &&
      k != CXCursor_ClassTemplatePartialSpecialization)
    return 0;
  int found = 0;
  CXCursor def = clang_getCursorDefinition(decl);
  if (!clang_Cursor_isNull(def)) clang_visitChildren(def, find_non_aggregate_member, &found);
  CXCursor pattern = clang_getSpecializedCursorTemplate(decl); /* an instantiation's members
                                                                   are the pattern's */
  if (!found && !clang_Cursor_isNull(pattern)) {
    CXCursor pdef = clang_getCursorDefinition(pattern);
    if (!clang_Cursor_isNull(pdef)) clang_visitChildren(pdef, find_non_aggregate_member, &found);
  }
  return found;
}

/* ---- new ---- */

tc_opnd lw_new(lw_fn *fn, CXCursor e) {
  lw_unit *u = fn->u;
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_kids(e, &ch);
  CXCursor init = ch.n ? lw_strip(ch.v[ch.n - 1]) : clang_getNullCursor();
  int ctor = !clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_CallExpr &&
             clang_getCursorKind(clang_getCursorReferenced(init)) == CXCursor_Constructor;
  for (uint32_t i = 0; i + (ctor ? 1 : 0) < ch.n; i++) lw_expr(fn, ch.v[i], LW_EFFECT);
  lw_cursors_free(&ch);
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e)); /* the storage: from an unknown place */
  in->callee.name = tc_intern(u->prog, "operator new");
  in->has_dst = 1;
  in->dst = lw_temp(fn);
  in->dst_type = lw_type(u, clang_getCursorType(e));
  tc_path t = in->dst;
  if (ctor) {
    lw_place obj;
    obj.path = lw_path_extend(fn, &t, (tc_elem){.kind = TC_ELEM_DEREF});
    obj.type = clang_getPointeeType(clang_getCursorType(e));
    construct(fn, init, clang_getCursorReferenced(init), &obj, LW_EFFECT);
  }
  return lw_opnd_path(&t, lw_type(u, clang_getCursorType(e)));
}

/* ---- lambdas ---- */

typedef struct capture_scan {
  lw_unit *u;
  unsigned begin, end; /* the lambda's extent (file offsets) */
  lw_capture *v;
  uint32_t n, cap;
  int uses_this;
} capture_scan;

static unsigned offset_of(CXSourceLocation l) {
  unsigned off = 0;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

static enum CXChildVisitResult scan_captures(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  capture_scan *cs = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CXXThisExpr) {
    cs->uses_this = 1;
  } else if (k == CXCursor_MemberRefExpr) {
    lw_cursors ch;
    lw_cursors_init(&ch);
    expr_kids(c, &ch);
    if (ch.n == 0 &&
        clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FieldDecl)
      cs->uses_this = 1; /* a member named without `this->` */
    lw_cursors_free(&ch);
  } else if (k == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if ((dk == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d) != 1) ||
        dk == CXCursor_ParmDecl) {
      unsigned off = offset_of(clang_getCursorLocation(d));
      if (off < cs->begin || off >= cs->end) { /* declared outside the lambda */
        int dup = 0;
        for (uint32_t i = 0; i < cs->n && !dup; i++) dup = clang_equalCursors(cs->v[i].decl, d);
        if (!dup) {
          cs->v = lw_grow(cs->u, cs->v, &cs->cap, cs->n + 1, sizeof *cs->v);
          cs->v[cs->n].decl = d;
          cs->v[cs->n].field = lw_intern_cx(cs->u, clang_getCursorSpelling(d));
          cs->v[cs->n].by_ref = 0;
          cs->n++;
        }
      }
    }
  }
  return CXChildVisit_Recurse;
}

/* How the capture list `[&, x]`, `[=, &y]`, `[a, &b, this]` captures each variable: its items
   are read from the tokens between the lambda's first `[` and the matching `]`. */
static void capture_modes(lw_unit *u, CXCursor e, capture_scan *cs) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(u->tu, clang_getCursorExtent(e), &toks, &n);
  int default_ref = 0, depth = 0;
  tc_sym *names = NULL; /* explicit items, in order */
  int *refs = NULL;
  uint32_t n_items = 0, cap_names = 0, cap_refs = 0;
  int item_amp = 0, item_len = 0; /* the current item: starts with `&`; tokens so far */
  tc_sym item_name = 0;
  for (unsigned i = 0; i < n; i++) {
    CXString ts = clang_getTokenSpelling(u->tu, toks[i]);
    const char *t = clang_getCString(ts);
    if (!t) t = "";
    int open = strcmp(t, "[") == 0 || strcmp(t, "(") == 0 || strcmp(t, "{") == 0;
    int close = strcmp(t, "]") == 0 || strcmp(t, ")") == 0 || strcmp(t, "}") == 0;
    int end_item = depth == 1 && (strcmp(t, ",") == 0 || strcmp(t, "]") == 0);
    if (end_item) {
      if (item_len == 1 && item_amp) default_ref = 1;
      if (item_name) {
        names = lw_grow(u, names, &cap_names, n_items + 1, sizeof *names);
        refs = lw_grow(u, refs, &cap_refs, n_items + 1, sizeof *refs);
        names[n_items] = item_name;
        refs[n_items++] = item_amp;
      }
      item_amp = item_len = 0;
      item_name = 0;
    } else if (depth == 1) {
      if (item_len == 0 && strcmp(t, "&") == 0) item_amp = 1;
      else if (!item_name && item_len == item_amp && clang_getTokenKind(toks[i]) == CXToken_Identifier)
        item_name = tc_intern(u->prog, t);
      item_len++;
    }
    if (open) depth++;
    if (close) depth--;
    clang_disposeString(ts);
    if (i == 0 && !open) break;
    if (depth == 0) break;
  }
  if (toks) clang_disposeTokens(u->tu, toks, n);
  for (uint32_t i = 0; i < cs->n; i++) {
    int r = default_ref;
    for (uint32_t k = 0; k < n_items; k++)
      if (names[k] == cs->v[i].field) r = refs[k];
    cs->v[i].by_ref = r;
  }
  free(names);
  free(refs);
}

static enum CXChildVisitResult find_call_operator(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CXXMethod) {
    CXString s = clang_getCursorSpelling(c);
    const char *n = clang_getCString(s);
    int is_call = n && strcmp(n, "operator()") == 0;
    clang_disposeString(s);
    if (is_call) {
      *(CXCursor *)d = c;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Continue;
}

tc_opnd lw_lambda(lw_fn *fn, CXCursor e, const lw_place *dst) {
  lw_unit *u = fn->u;
  CXType ct = clang_getCursorType(e);
  lw_place obj = result_place(fn, e, dst);
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(e, &ch);
  CXCursor body = clang_getNullCursor();
  for (uint32_t i = ch.n; i-- > 0;)
    if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt) {
      body = ch.v[i];
      break;
    }
  lw_cursors_free(&ch);
  CXSourceRange ext = clang_getCursorExtent(e);
  capture_scan cs = {u, offset_of(clang_getRangeStart(ext)), offset_of(clang_getRangeEnd(ext)),
                     NULL, 0, 0, 0};
  if (!clang_Cursor_isNull(body)) clang_visitChildren(body, scan_captures, &cs);
  capture_modes(u, e, &cs);
  tc_srcloc loc = lw_loc(u, e);
  tc_insn *agg = lw_emit(fn, TC_I_AGGREGATE, loc); /* the closure: exactly its captures */
  agg->has_dst = 1;
  agg->dst = obj.path;
  agg->dst_type = lw_type(u, ct);
  for (uint32_t i = 0; i < cs.n; i++) {
    lw_place outer;
    if (!lw_var_place(fn, cs.v[i].decl, &outer)) continue;
    tc_path f = lw_path_extend(fn, &obj.path, (tc_elem){.kind = TC_ELEM_FIELD, .field = cs.v[i].field});
    tc_type vt = lw_type(u, outer.type);
    tc_insn *in = lw_emit(fn, TC_I_ASSIGN, loc);
    in->has_dst = 1;
    in->dst = f;
    if (cs.v[i].by_ref) {
      in->dst_type = pointer_to(u, vt);
      in->a = addr_of_place(&outer, in->dst_type);
    } else {
      in->dst_type = vt;
      in->a = lw_opnd_path(&outer.path, vt);
    }
  }
  if (cs.uses_this && fn->has_this) {
    tc_path f = lw_path_extend(fn, &obj.path,
                               (tc_elem){.kind = TC_ELEM_FIELD, .field = tc_intern(u->prog, "this")});
    tc_insn *in = lw_emit(fn, TC_I_ASSIGN, loc);
    in->has_dst = 1;
    in->dst = f;
    in->a = lw_this(fn);
    in->dst_type = in->a.type;
  }
  CXCursor op = clang_getNullCursor();
  clang_visitChildren(clang_getTypeDeclaration(ct), find_call_operator, &op);
  if (!clang_Cursor_isNull(op) && !clang_Cursor_isNull(body)) {
    tc_type closure_ptr = pointer_to(u, lw_type(u, ct));
    lw_lower_body(u, op, body, &closure_ptr, cs.v, cs.n, cs.uses_this && fn->has_this, 1);
  } else {
    u->stats.generic_lambdas++; /* operator() is a template: lowered per specialization called */
  }
  free(cs.v);
  return lw_opnd_path(&obj.path, lw_type(u, obj.type));
}
