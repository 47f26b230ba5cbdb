/* analyzer/src/frontend/lower_expr.c — expressions → IR: values (flattened into temporaries,
 * left to right), places (lvalues as paths), conditions (&&, ||, !, ?: become branches),
 * calls (direct by name and USR, indirect through a pointer), assignments and increments,
 * integer constants folded. What the IR does not model becomes TC_OPND_UNKNOWN, after the
 * sub-expressions' side effects (calls) have been lowered. */
#include "frontend/lower_internal.h"

#include <stdlib.h>
#include <string.h>

static tc_opnd none_opnd(void) {
  tc_opnd o = {0};
  return o;
}

static tc_type type_of(lw_fn *fn, CXCursor e) { return lw_type(fn->u, clang_getCursorType(e)); }

/* The expression children of e (skips type references and other non-expressions). */
static void expr_children(CXCursor e, lw_cursors *out) {
  lw_children(e, out);
  uint32_t k = 0;
  for (uint32_t i = 0; i < out->n; i++)
    if (clang_isExpression(clang_getCursorKind(out->v[i]))) out->v[k++] = out->v[i];
  out->n = k;
}

static void effects_of_children(lw_fn *fn, CXCursor e) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(e, &ch);
  for (uint32_t i = 0; i < ch.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
    if (clang_isExpression(k)) lw_expr(fn, ch.v[i], LW_EFFECT);
    else if (clang_isStatement(k)) lw_stmt(fn, ch.v[i]);
  }
  lw_cursors_free(&ch);
}

static tc_opnd unknown_after_effects(lw_fn *fn, CXCursor e) {
  effects_of_children(fn, e);
  return lw_opnd_unknown(type_of(fn, e));
}

/* ---- places ---- */

int lw_is_decomposition(CXCursor d) {
  if (clang_getCursorKind(d) != CXCursor_UnexposedDecl) return 0;
  CXString s = clang_getCursorSpelling(d);
  int yes = clang_getCString(s) && clang_getCString(s)[0] == '[';
  clang_disposeString(s);
  return yes;
}

typedef struct binding_scan {
  lw_fn *fn;
  uint32_t id, n;
  CXType whole;  /* the decomposed object's type */
  tc_sym *fields;
  uint32_t n_fields, cap_fields;
  int by_ref;
} binding_scan;

static enum CXVisitorResult collect_field(CXCursor c, CXClientData d) {
  binding_scan *b = d;
  b->fields = lw_grow(b->fn->u, b->fields, &b->cap_fields, b->n_fields + 1, sizeof *b->fields);
  if (b->n_fields >= b->cap_fields) return CXVisit_Break;
  b->fields[b->n_fields++] = lw_intern_cx(b->fn->u, clang_getCursorSpelling(c));
  return CXVisit_Continue;
}

static enum CXChildVisitResult bind_one(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  binding_scan *b = d;
  if (clang_getCursorKind(c) != CXCursor_UnexposedDecl) return CXChildVisit_Continue;
  uint32_t i = b->n++;
  int array = lw_type_is_array(b->whole);
  if (!array && i >= b->n_fields) return CXChildVisit_Continue; /* tuple-like: unknown */
  lw_cmap_entry *e = lw_cmap_put(&b->fn->vars, c, NULL);
  if (!e) return CXChildVisit_Break;
  e->value = TC_ROOT_LOCAL;
  e->sym = b->id;
  e->binding = i + 1;
  e->field = array ? 0 : b->fields[i];
  e->by_ref = b->by_ref;
  return CXChildVisit_Continue;
}

/* A binding names a part of the decomposed object: field i of a class whose fields are its
   own (std::pair's first and second, a struct's), element i of an array; a tuple-like
   class's (get<i>) is not followed: unknown. */
void lw_bind_names(lw_fn *fn, CXCursor d, uint32_t id) {
  binding_scan b = {0};
  b.fn = fn;
  b.id = id;
  CXType t = clang_getCursorType(d);
  b.by_ref = lw_type_is_reference(t);
  b.whole = clang_getCanonicalType(clang_getNonReferenceType(t));
  if (b.whole.kind == CXType_Record) clang_Type_visitFields(b.whole, collect_field, &b);
  clang_visitChildren(d, bind_one, &b);
}

/* The place a structured binding names. */
static int binding_place(lw_fn *fn, CXCursor decl, const lw_cmap_entry *e, lw_place *out) {
  out->type = clang_getCursorType(decl);
  out->path = lw_path_root(TC_ROOT_LOCAL, e->sym);
  if (e->by_ref) out->path = lw_path_extend(fn, &out->path, (tc_elem){.kind = TC_ELEM_DEREF});
  tc_elem el = e->field ? (tc_elem){.kind = TC_ELEM_FIELD, .field = e->field}
                        : (tc_elem){.kind = TC_ELEM_INDEX, .index = (int64_t)e->binding - 1};
  out->path = lw_path_extend(fn, &out->path, el);
  if (lw_type_is_reference(out->type)) { /* a binding of a reference member: its referent */
    out->path = lw_path_extend(fn, &out->path, (tc_elem){.kind = TC_ELEM_DEREF});
    out->type = clang_getPointeeType(out->type);
  }
  out->path.spelling = lw_intern_cx(fn->u, clang_getCursorSpelling(decl));
  return 1;
}

int lw_var_place(lw_fn *fn, CXCursor decl, lw_place *out) {
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (k == CXCursor_UnexposedDecl) {
    lw_cmap_entry *b = lw_cmap_find(&fn->vars, decl);
    return b && b->binding ? binding_place(fn, decl, b, out) : 0;
  }
  if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return 0;
  out->type = clang_getCursorType(decl);
  lw_cmap_entry *e = lw_cmap_find(&fn->vars, decl);
  if (!e) {
    for (uint32_t i = 0; i < fn->n_caps; i++) {
      if (!clang_equalCursors(fn->caps[i].decl, decl)) continue;
      /* a lambda's capture: a field of the closure `this` points to (holding the variable's
         address when captured by reference) */
      tc_path p = lw_path_root(TC_ROOT_PARAM, 0);
      p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
      p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_FIELD, .field = fn->caps[i].field});
      if (fn->caps[i].by_ref) p = lw_path_extend(fn, &p, (tc_elem){.kind = TC_ELEM_DEREF});
      if (lw_type_is_reference(out->type)) out->type = clang_getPointeeType(out->type);
      out->path = p;
      out->path.spelling = fn->caps[i].field;
      return 1;
    }
  }
  if (e) {
    out->path = lw_path_root((tc_root_kind)e->value, e->value == TC_ROOT_GLOBAL ? e->sym
                                                                                 : (uint32_t)e->sym);
  } else if (k == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(decl) == 1) {
    out->path = lw_path_root(TC_ROOT_GLOBAL, lw_decl_usr(fn->u, decl));
  } else if (!clang_Cursor_isNull(fn->decl) &&
             !clang_equalCursors(clang_getCursorSemanticParent(decl), fn->decl) &&
             clang_getCursorKind(clang_getCursorSemanticParent(decl)) != CXCursor_TranslationUnit) {
    /* a variable of another function: a generic lambda's capture, lowered per specialization
       without its closure's layout — unknown, not a fresh variable */
    fn->u->stats.unknown_exprs++;
    return 0;
  } else {
    /* A local this builder has not seen declared (code reached oddly, e.g. a jump into a
       nested scope lowered later): declare it now. */
    uint32_t id = lw_add_local(fn, decl, 0, 0);
    lw_cmap_entry *ne = lw_cmap_put(&fn->vars, decl, NULL);
    if (ne) {
      ne->value = TC_ROOT_LOCAL;
      ne->sym = id;
    }
    out->path = lw_path_root(TC_ROOT_LOCAL, id);
  }
  if (lw_type_is_reference(out->type)) { /* a reference: its slot holds the referent's address */
    out->path = lw_path_extend(fn, &out->path, (tc_elem){.kind = TC_ELEM_DEREF});
    out->type = clang_getPointeeType(out->type);
  }
  out->path.spelling = lw_intern_cx(fn->u, clang_getCursorSpelling(decl));
  return 1;
}

/* The place *v designates: ADDR(x) → x, PATH(p) → p DEREF. */
static int deref_place(lw_fn *fn, tc_opnd v, lw_place *out) {
  if (v.kind == TC_OPND_ADDR) {
    out->path = v.path;
    return 1;
  }
  if (v.kind == TC_OPND_PATH) {
    tc_elem e = {.kind = TC_ELEM_DEREF};
    out->path = lw_path_extend(fn, &v.path, e);
    return 1;
  }
  return 0;
}

/* base[index] where base is the (decayed) pointer value base. */
int lw_index_place(lw_fn *fn, tc_opnd base, tc_opnd index, lw_place *out) {
  tc_elem e = {.kind = TC_ELEM_INDEX_ANY};
  if (index.kind == TC_OPND_INT) {
    e.kind = TC_ELEM_INDEX;
    e.index = index.ival;
  } else if (index.kind == TC_OPND_PATH && index.path.n_elems == 0) {
    e.index_root = index.path.root; /* the engine may know the variable's value (a counter
                                       global included: `g_reg[g_n++] = t`) */
    e.index_id = index.path.id;
  }
  if (base.kind == TC_OPND_ADDR) { /* an array that decayed: index the array itself */
    out->path = lw_path_extend(fn, &base.path, e);
    return 1;
  }
  if (base.kind == TC_OPND_PATH) {
    tc_elem d = {.kind = TC_ELEM_DEREF};
    tc_path p = lw_path_extend(fn, &base.path, d);
    out->path = lw_path_extend(fn, &p, e);
    return 1;
  }
  return 0;
}

static int value_place(lw_fn *fn, CXCursor e, lw_place *out) {
  tc_opnd v = lw_expr(fn, e, LW_VALUE);
  if (v.kind != TC_OPND_PATH) return 0;
  out->path = v.path;
  return 1;
}

static int member_place(lw_fn *fn, CXCursor e, lw_place *out) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  int ok = 0;
  if (ch.n >= 1) {
    CXCursor base = ch.v[0];
    if (lw_type_is_pointer(clang_getCursorType(base)))
      ok = deref_place(fn, lw_expr(fn, base, LW_VALUE), out);
    else
      ok = lw_place_of(fn, base, out);
  } else if (fn->has_this || fn->self) { /* a member named inside a member function: this->m */
    ok = deref_place(fn, lw_this(fn), out);
  }
  lw_cursors_free(&ch);
  if (!ok) return 0;
  CXCursor decl = clang_getCursorReferenced(e);
  /* the members of a union share one place: a handle stored through one is read through
     another */
  tc_sym field = clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_UnionDecl
                     ? tc_intern(fn->u->prog, "(union)")
                     : lw_intern_cx(fn->u, clang_getCursorSpelling(decl));
  if (field) {
    tc_elem el = {.kind = TC_ELEM_FIELD, .field = field};
    out->path = lw_path_extend(fn, &out->path, el);
  }
  out->type = clang_getCursorType(e); /* the member's, not the base's (`s.used += n`) */
  /* a reference member (`Model &m_`): its slot holds the referent's address (the constructor's
     initializer bound it so), and the expression names the referent */
  if (field && lw_type_is_reference(clang_getCursorType(decl)))
    out->path = lw_path_extend(fn, &out->path, (tc_elem){.kind = TC_ELEM_DEREF});
  return 1;
}

static int subscript_place(lw_fn *fn, CXCursor e, lw_place *out) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  int ok = 0;
  if (ch.n == 2) {
    CXCursor base = ch.v[0], idx = ch.v[1];
    if (lw_type_is_integer(clang_getCursorType(base))) { /* i[a] */
      base = ch.v[1];
      idx = ch.v[0];
    }
    tc_opnd bv = lw_expr(fn, base, LW_VALUE);
    tc_opnd iv = lw_expr(fn, idx, LW_VALUE);
    if (iv.kind == TC_OPND_PATH && iv.path.n_elems > 0) {
      /* an index read from memory (`e[c->n]`, `data[order[k]]`): held in a temporary, so the
         element can be resolved wherever that value is known */
      tc_path t = lw_temp(fn);
      lw_assign(fn, &t, clang_getCursorType(idx), iv, lw_loc(fn->u, idx));
      iv = lw_opnd_path(&t, iv.type);
    }
    ok = lw_index_place(fn, bv, iv, out);
  } else {
    effects_of_children(fn, e);
  }
  lw_cursors_free(&ch);
  return ok;
}

/* *(p + k) and *(p - k): lowered like p[k] / p[-k]. */
static int deref_arith_place(lw_fn *fn, CXCursor inner, lw_place *out, int *handled) {
  *handled = 0;
  CXCursor s = lw_strip(inner);
  if (clang_getCursorKind(s) != CXCursor_BinaryOperator) return 0;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
  if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) return 0;
  if (!lw_type_is_pointer(clang_getCursorType(s))) return 0;
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(s, &ch);
  int ok = 0;
  if (ch.n == 2) {
    CXCursor ptr = ch.v[0], off = ch.v[1];
    if (op == CXBinaryOperator_Add && lw_type_is_integer(clang_getCursorType(ptr))) {
      ptr = ch.v[1];
      off = ch.v[0];
    }
    if (lw_type_is_pointer(clang_getCursorType(ptr)) &&
        lw_type_is_integer(clang_getCursorType(off))) {
      *handled = 1;
      tc_opnd pv = lw_expr(fn, ptr, LW_VALUE);
      tc_opnd ov = lw_expr(fn, off, LW_VALUE);
      if (op == CXBinaryOperator_Sub) {
        if (ov.kind == TC_OPND_INT) ov.ival = -ov.ival;
        else ov = lw_opnd_unknown(ov.type);
      }
      ok = lw_index_place(fn, pv, ov, out);
    }
  }
  lw_cursors_free(&ch);
  return ok;
}

static int compound_literal_place(lw_fn *fn, CXCursor e, lw_place *out) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  out->path = lw_temp(fn);
  out->type = clang_getCursorType(e);
  if (ch.n >= 1) lw_init(fn, ch.v[ch.n - 1], out);
  lw_cursors_free(&ch);
  return 1;
}

static int place_impl(lw_fn *fn, CXCursor e, lw_place *out) {
  out->type = clang_getCursorType(e);
  switch ((int)clang_getCursorKind(e)) {
  case CXCursor_ParenExpr: {
    lw_cursors ch;
    lw_cursors_init(&ch);
    expr_children(e, &ch);
    int ok = ch.n == 1 && lw_place_of(fn, ch.v[0], out);
    lw_cursors_free(&ch);
    return ok;
  }
  case CXCursor_DeclRefExpr:
    return lw_var_place(fn, clang_getCursorReferenced(e), out);
  case CXCursor_MemberRefExpr:
    return member_place(fn, e, out);
  case CXCursor_ArraySubscriptExpr:
    return subscript_place(fn, e, out);
  case CXCursor_UnaryOperator:
    if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref) {
      lw_cursors ch;
      lw_cursors_init(&ch);
      expr_children(e, &ch);
      int ok = 0;
      if (ch.n == 1) {
        int handled;
        ok = deref_arith_place(fn, ch.v[0], out, &handled);
        if (!handled) ok = deref_place(fn, lw_expr(fn, ch.v[0], LW_VALUE), out);
      }
      lw_cursors_free(&ch);
      return ok;
    }
    if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Extension) {
      lw_cursors ch;
      lw_cursors_init(&ch);
      expr_children(e, &ch);
      int ok = ch.n == 1 && lw_place_of(fn, ch.v[0], out);
      lw_cursors_free(&ch);
      return ok;
    }
    return value_place(fn, e, out);
  case CXCursor_CompoundLiteralExpr:
    return compound_literal_place(fn, e, out);
  case CXCursor_UnexposedExpr: {
    CXCursor s = lw_strip(e);
    if (!clang_equalCursors(s, e)) return lw_place_of(fn, s, out);
    return value_place(fn, e, out);
  }
  default:
    return value_place(fn, e, out);
  }
}

int lw_place_of(lw_fn *fn, CXCursor e, lw_place *out) {
  if (lw_too_deep(fn)) return 0;
  fn->depth++;
  int ok = place_impl(fn, e, out);
  fn->depth--;
  if (ok) out->type = clang_getCursorType(e); /* a member's place has the member's type */
  if (ok && !out->path.spelling) out->path.spelling = lw_spelling_text(fn->u, e);
  return ok;
}

/* ---- calls ---- */

static int is_builtin_expect(lw_unit *u, tc_sym name) {
  const char *s = tc_str(u->prog, name);
  return strcmp(s, "__builtin_expect") == 0 ||
         strcmp(s, "__builtin_expect_with_probability") == 0;
}

static tc_opnd lower_call(lw_fn *fn, CXCursor e, const lw_place *dst, lw_mode mode) {
  lw_unit *u = fn->u;
  tc_opnd cxx;
  if (lw_cxx_call(fn, e, dst, mode, &cxx)) return cxx;
  CXCursor ref = clang_getCursorReferenced(e);
  int direct = clang_getCursorKind(ref) == CXCursor_FunctionDecl;
  if (direct) lw_note_callee(u, ref);
  int n_args = clang_Cursor_getNumArguments(e);
  if (n_args < 0) n_args = 0;
  tc_callee callee = {0};
  if (direct) {
    callee.name = lw_callee_name(u, ref);
    callee.usr = lw_decl_usr(u, ref);
    if (is_builtin_expect(u, callee.name) && n_args >= 1) {
      for (int i = 1; i < n_args; i++) lw_expr(fn, clang_Cursor_getArgument(e, (unsigned)i), LW_EFFECT);
      if (dst) {
        lw_expr_into(fn, clang_Cursor_getArgument(e, 0), dst);
        return lw_opnd_path(&dst->path, lw_type(u, dst->type));
      }
      return lw_expr(fn, clang_Cursor_getArgument(e, 0), mode);
    }
  } else {
    lw_cursors ch;
    lw_cursors_init(&ch);
    expr_children(e, &ch);
    callee.indirect = 1;
    callee.target = ch.n ? lw_expr(fn, ch.v[0], LW_VALUE) : lw_opnd_unknown((tc_type){0});
    lw_cursors_free(&ch);
  }
  tc_opnd *args = n_args ? lw_alloc(u, (size_t)n_args * sizeof *args) : NULL;
  if (!args) n_args = 0; /* out of memory: the unit fails */
  for (int i = 0; i < n_args; i++) args[i] = lw_expr(fn, clang_Cursor_getArgument(e, (unsigned)i), LW_VALUE);
  CXType rt = clang_getCursorType(e);
  tc_insn *in = lw_emit(fn, TC_I_CALL, lw_loc(u, e));
  in->callee = callee;
  in->n_args = (uint32_t)n_args;
  in->args = args;
  in->arg_locs = lw_arg_locs(u, e, (uint32_t)n_args);
  in->arg_base_locs = lw_arg_base_locs(u, e, (uint32_t)n_args, in->arg_locs);
  in->in_macro = lw_in_macro(e);
  tc_opnd result = none_opnd();
  if (dst) {
    in->has_dst = 1;
    in->dst = dst->path;
    in->dst_type = lw_type(u, dst->type);
    result = lw_opnd_path(&dst->path, in->dst_type);
  } else if (mode == LW_VALUE && clang_getCanonicalType(rt).kind != CXType_Void) {
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst.spelling = lw_spelling_text(u, e);
    in->dst_type = lw_type(u, rt);
    result = lw_opnd_path(&in->dst, in->dst_type);
  }
  if (direct && lw_is_noreturn(u, ref)) lw_terminate(fn, TC_T_UNREACHABLE, none_opnd(), lw_loc(u, e));
  return result;
}

/* ---- operators ---- */

static tc_opcode binop_opcode(enum CXBinaryOperatorKind k) {
  switch ((int)k) {
  case CXBinaryOperator_Mul: case CXBinaryOperator_MulAssign: return TC_OPC_MUL;
  case CXBinaryOperator_Div: case CXBinaryOperator_DivAssign: return TC_OPC_DIV;
  case CXBinaryOperator_Rem: case CXBinaryOperator_RemAssign: return TC_OPC_REM;
  case CXBinaryOperator_Add: case CXBinaryOperator_AddAssign: return TC_OPC_ADD;
  case CXBinaryOperator_Sub: case CXBinaryOperator_SubAssign: return TC_OPC_SUB;
  case CXBinaryOperator_Shl: case CXBinaryOperator_ShlAssign: return TC_OPC_SHL;
  case CXBinaryOperator_Shr: case CXBinaryOperator_ShrAssign: return TC_OPC_SHR;
  case CXBinaryOperator_LT: return TC_OPC_LT;
  case CXBinaryOperator_GT: return TC_OPC_GT;
  case CXBinaryOperator_LE: return TC_OPC_LE;
  case CXBinaryOperator_GE: return TC_OPC_GE;
  case CXBinaryOperator_EQ: return TC_OPC_EQ;
  case CXBinaryOperator_NE: return TC_OPC_NE;
  case CXBinaryOperator_And: case CXBinaryOperator_AndAssign: return TC_OPC_AND;
  case CXBinaryOperator_Xor: case CXBinaryOperator_XorAssign: return TC_OPC_XOR;
  case CXBinaryOperator_Or: case CXBinaryOperator_OrAssign: return TC_OPC_OR;
  default: return TC_OPC_NONE;
  }
}

static int is_comparison(tc_opcode op) {
  return op == TC_OPC_EQ || op == TC_OPC_NE || op == TC_OPC_LT || op == TC_OPC_LE ||
         op == TC_OPC_GT || op == TC_OPC_GE;
}

/* Folds a op b on integers (wrapping); 0 when it cannot (division by zero, bad shift). */
static int fold(tc_opcode op, int64_t a, int64_t b, int is_unsigned, int64_t *out) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case TC_OPC_ADD: *out = (int64_t)(ua + ub); return 1;
  case TC_OPC_SUB: *out = (int64_t)(ua - ub); return 1;
  case TC_OPC_MUL: *out = (int64_t)(ua * ub); return 1;
  case TC_OPC_DIV:
    if (b == 0 || (!is_unsigned && a == INT64_MIN && b == -1)) return 0;
    *out = is_unsigned ? (int64_t)(ua / ub) : a / b;
    return 1;
  case TC_OPC_REM:
    if (b == 0 || (!is_unsigned && a == INT64_MIN && b == -1)) return 0;
    *out = is_unsigned ? (int64_t)(ua % ub) : a % b;
    return 1;
  case TC_OPC_SHL:
    if (b < 0 || b > 63) return 0;
    *out = (int64_t)(ua << b);
    return 1;
  case TC_OPC_SHR:
    if (b < 0 || b > 63) return 0;
    *out = is_unsigned ? (int64_t)(ua >> b) : (a < 0 ? ~(~a >> b) : a >> b);
    return 1;
  case TC_OPC_EQ: *out = a == b; return 1;
  case TC_OPC_NE: *out = a != b; return 1;
  case TC_OPC_LT: *out = is_unsigned ? ua < ub : a < b; return 1;
  case TC_OPC_LE: *out = is_unsigned ? ua <= ub : a <= b; return 1;
  case TC_OPC_GT: *out = is_unsigned ? ua > ub : a > b; return 1;
  case TC_OPC_GE: *out = is_unsigned ? ua >= ub : a >= b; return 1;
  case TC_OPC_AND: *out = a & b; return 1;
  case TC_OPC_OR: *out = a | b; return 1;
  case TC_OPC_XOR: *out = a ^ b; return 1;
  case TC_OPC_NONE: case TC_OPC_NOT: case TC_OPC_NEG: case TC_OPC_BITNOT: return 0;
  }
  return 0;
}

static int path_derefs(const tc_path *p);

/* An operand whose value the IR drops (float math, an operator it does not model) is still
   read by the program: a read through a pointer (`s += w[i]`, `w[i] > w[j]`) is kept as an
   assignment to a temporary, so the engine checks the memory the host touches. */
static void keep_dropped_read(lw_fn *fn, tc_opnd o, CXCursor e) {
  if (o.kind != TC_OPND_PATH || !path_derefs(&o.path)) return;
  tc_insn *in = lw_emit(fn, TC_I_ASSIGN, lw_loc(fn->u, e));
  in->has_dst = 1;
  in->dst = lw_temp(fn);
  in->dst_type = o.type;
  in->a = o;
}

/* a op b for the expression e of C type rt; opnd_type is the operands' (converted) type. */
static tc_opnd arith(lw_fn *fn, CXCursor e, tc_opcode op, tc_opnd a, tc_opnd b, CXType rt,
                     CXType opnd_type, lw_mode mode) {
  tc_type ty = lw_type(fn->u, rt);
  if (op == TC_OPC_NONE || ty.cls == TC_TY_FLOAT || a.type.cls == TC_TY_FLOAT ||
      b.type.cls == TC_TY_FLOAT) { /* float math is not modelled */
    keep_dropped_read(fn, a, e);
    keep_dropped_read(fn, b, e);
    return lw_opnd_unknown(ty);
  }
  if (ty.cls == TC_TY_POINTER && (op == TC_OPC_ADD || op == TC_OPC_SUB) &&
      (a.type.cls == TC_TY_INT || b.type.cls == TC_TY_INT)) {
    /* pointer ± integer: kept as an addition, the engine moves along the array */
    if (mode == LW_EFFECT) return none_opnd();
    tc_insn *in = lw_emit(fn, TC_I_BINOP, lw_loc(fn->u, e));
    in->opc = op;
    in->a = a;
    in->b = b;
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst_type = ty;
    return lw_opnd_path(&in->dst, ty);
  }
  if (ty.cls != TC_TY_INT) return lw_opnd_unknown(ty); /* other pointer arithmetic */
  int is_cmp = is_comparison(op);
  if ((a.type.cls == TC_TY_POINTER || b.type.cls == TC_TY_POINTER) && !is_cmp)
    return lw_opnd_unknown(ty); /* pointer difference */
  if (a.kind == TC_OPND_INT && b.kind == TC_OPND_INT) {
    int64_t r;
    if (fold(op, a.ival, b.ival, lw_type_is_unsigned(is_cmp ? opnd_type : rt), &r))
      return lw_opnd_int(is_cmp ? r : lw_truncate(rt, r), ty);
  }
  if (is_cmp && (op == TC_OPC_EQ || op == TC_OPC_NE) &&
      (a.kind == TC_OPND_NULL || a.kind == TC_OPND_INT) &&
      (b.kind == TC_OPND_NULL || b.kind == TC_OPND_INT)) {
    int64_t av = a.kind == TC_OPND_INT ? a.ival : 0, bv = b.kind == TC_OPND_INT ? b.ival : 0;
    return lw_opnd_int(op == TC_OPC_EQ ? av == bv : av != bv, ty);
  }
  if (mode == LW_EFFECT) return none_opnd();
  if (a.kind == TC_OPND_UNKNOWN && b.kind == TC_OPND_UNKNOWN) return lw_opnd_unknown(ty);
  tc_insn *in = lw_emit(fn, TC_I_BINOP, lw_loc(fn->u, e));
  in->opc = op;
  in->a = a;
  in->b = b;
  in->has_dst = 1;
  in->dst = lw_temp(fn);
  in->dst_type = ty;
  return lw_opnd_path(&in->dst, ty);
}

static tc_opnd logical_value(lw_fn *fn, CXCursor e, lw_mode mode) {
  uint32_t join = lw_new_block(fn);
  if (mode == LW_EFFECT) {
    lw_cond(fn, e, join, join);
    lw_set_cur(fn, join);
    return none_opnd();
  }
  uint32_t tb = lw_new_block(fn), fb = lw_new_block(fn);
  tc_type ty = type_of(fn, e);
  tc_path t = lw_temp(fn);
  tc_srcloc loc = lw_loc(fn->u, e);
  lw_cond(fn, e, tb, fb);
  lw_set_cur(fn, tb);
  lw_assign(fn, &t, clang_getCursorType(e), lw_opnd_int(1, ty), loc);
  lw_goto(fn, join, loc);
  lw_set_cur(fn, fb);
  lw_assign(fn, &t, clang_getCursorType(e), lw_opnd_int(0, ty), loc);
  lw_goto(fn, join, loc);
  lw_set_cur(fn, join);
  return lw_opnd_path(&t, ty);
}

static tc_opnd assign_op(lw_fn *fn, CXCursor e, enum CXBinaryOperatorKind op, CXCursor lhs,
                         CXCursor rhs) {
  lw_place p;
  tc_srcloc loc = lw_loc(fn->u, e);
  if (!lw_place_of(fn, lhs, &p)) {
    tc_opnd v = lw_expr(fn, rhs, LW_VALUE);
    if (op == CXBinaryOperator_Assign) return v;
    keep_dropped_read(fn, v, rhs);
    return lw_opnd_unknown(type_of(fn, e));
  }
  tc_type pty = lw_type(fn->u, p.type);
  if (op == CXBinaryOperator_Assign) {
    lw_expr_into(fn, rhs, &p);
    return lw_opnd_path(&p.path, pty);
  }
  tc_opnd a = lw_opnd_path(&p.path, pty);
  tc_opnd b = lw_expr(fn, rhs, LW_VALUE);
  tc_opcode opc = binop_opcode(op);
  int ptr_step = pty.cls == TC_TY_POINTER && b.type.cls == TC_TY_INT &&
                 (opc == TC_OPC_ADD || opc == TC_OPC_SUB);
  if ((pty.cls != TC_TY_INT && !ptr_step) || b.type.cls == TC_TY_FLOAT || opc == TC_OPC_NONE) {
    keep_dropped_read(fn, b, rhs);
    lw_assign(fn, &p.path, p.type, lw_opnd_unknown(pty), loc);
  } else {
    tc_insn *in = lw_emit(fn, TC_I_BINOP, loc);
    in->opc = opc;
    in->a = a;
    in->b = b;
    in->has_dst = 1;
    in->dst = p.path;
    in->dst_type = pty;
  }
  return lw_opnd_path(&p.path, pty);
}

static int spine_op(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_BinaryOperator) return 0;
  enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
  return binop_opcode(k) != TC_OPC_NONE || k == CXBinaryOperator_Comma;
}

static int is_comma(CXCursor c) {
  return clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma;
}

typedef struct spine_node {
  CXCursor node, lhs, rhs;
} spine_node;

/* Binary operators: the left spine (a + b + c + …, a, b, c, …) is walked with an explicit
   stack so that long chains do not recurse. */
static tc_opnd binary(lw_fn *fn, CXCursor e, lw_mode mode) {
  enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(e);
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  if (ch.n != 2) {
    lw_cursors_free(&ch);
    return unknown_after_effects(fn, e);
  }
  CXCursor lhs = ch.v[0], rhs = ch.v[1];
  if (k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr) {
    lw_cursors_free(&ch);
    return logical_value(fn, e, mode);
  }
  if (k >= CXBinaryOperator_Assign && k <= CXBinaryOperator_OrAssign) {
    lw_cursors_free(&ch);
    return assign_op(fn, e, k, lhs, rhs);
  }
  if (!spine_op(e)) {
    lw_cursors_free(&ch);
    return unknown_after_effects(fn, e);
  }
  spine_node *spine = NULL;
  uint32_t n = 0, cap = 0;
  spine = lw_grow(fn->u, spine, &cap, 1, sizeof *spine);
  if (!spine) { /* out of memory: the unit fails */
    lw_cursors_free(&ch);
    return lw_opnd_unknown((tc_type){0});
  }
  spine[n++] = (spine_node){e, lhs, rhs};
  CXCursor leaf = lhs;
  while (spine_op(leaf)) {
    expr_children(leaf, &ch);
    if (ch.n != 2) break;
    spine = lw_grow(fn->u, spine, &cap, n + 1, sizeof *spine);
    if (n >= cap) break; /* out of memory: the unit fails */
    spine[n++] = (spine_node){leaf, ch.v[0], ch.v[1]};
    leaf = ch.v[0];
  }
  lw_cursors_free(&ch);
  tc_opnd acc = lw_expr(fn, leaf, is_comma(spine[n - 1].node) ? LW_EFFECT : LW_VALUE);
  for (uint32_t i = n; i-- > 0;) {
    CXCursor node = spine[i].node;
    lw_mode m = i == 0 ? mode : LW_VALUE;
    if (is_comma(node)) {
      acc = lw_expr(fn, spine[i].rhs, i > 0 && is_comma(spine[i - 1].node) ? LW_EFFECT : m);
      continue;
    }
    tc_opnd b = lw_expr(fn, spine[i].rhs, LW_VALUE);
    acc = arith(fn, node, binop_opcode(clang_getCursorBinaryOperatorKind(node)), acc, b,
                clang_getCursorType(node), clang_getCursorType(spine[i].lhs), m);
  }
  free(spine);
  return acc;
}

static tc_opnd incdec(lw_fn *fn, CXCursor e, CXCursor operand, int inc, int post, lw_mode mode) {
  lw_place p;
  if (!lw_place_of(fn, operand, &p)) return lw_opnd_unknown(type_of(fn, e));
  tc_srcloc loc = lw_loc(fn->u, e);
  tc_type ty = lw_type(fn->u, p.type);
  tc_opnd old = lw_opnd_path(&p.path, ty);
  if (post && mode == LW_VALUE) {
    tc_path t = lw_temp(fn);
    lw_assign(fn, &t, p.type, old, loc);
    old = lw_opnd_path(&t, ty);
  }
  if (ty.cls == TC_TY_INT || ty.cls == TC_TY_POINTER) { /* pointers step along their array */
    tc_insn *in = lw_emit(fn, TC_I_BINOP, loc);
    in->opc = inc ? TC_OPC_ADD : TC_OPC_SUB;
    in->a = lw_opnd_path(&p.path, ty);
    tc_type one_ty = ty;
    if (ty.cls == TC_TY_POINTER) {
      memset(&one_ty, 0, sizeof one_ty);
      one_ty.cls = TC_TY_INT;
      one_ty.name = tc_intern(fn->u->prog, "int");
    }
    in->b = lw_opnd_int(1, one_ty);
    in->has_dst = 1;
    in->dst = p.path;
    in->dst_type = ty;
  } else {
    lw_assign(fn, &p.path, p.type, lw_opnd_unknown(ty), loc);
  }
  if (mode == LW_EFFECT) return none_opnd();
  return post ? old : lw_opnd_path(&p.path, ty);
}

static tc_opnd unary(lw_fn *fn, CXCursor e, lw_mode mode) {
  enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(e);
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  if (ch.n != 1) {
    lw_cursors_free(&ch);
    return unknown_after_effects(fn, e);
  }
  CXCursor sub = ch.v[0];
  lw_cursors_free(&ch);
  tc_type ty = type_of(fn, e);
  switch ((int)k) {
  case CXUnaryOperator_PostInc: return incdec(fn, e, sub, 1, 1, mode);
  case CXUnaryOperator_PostDec: return incdec(fn, e, sub, 0, 1, mode);
  case CXUnaryOperator_PreInc: return incdec(fn, e, sub, 1, 0, mode);
  case CXUnaryOperator_PreDec: return incdec(fn, e, sub, 0, 0, mode);
  case CXUnaryOperator_AddrOf: {
    CXType st = clang_getCanonicalType(clang_getCursorType(sub));
    if (st.kind == CXType_FunctionProto || st.kind == CXType_FunctionNoProto)
      return lw_expr(fn, sub, mode);
    lw_place p;
    if (!lw_place_of(fn, sub, &p)) return lw_opnd_unknown(ty);
    if (p.path.n_elems && p.path.elems[p.path.n_elems - 1].kind == TC_ELEM_DEREF) {
      tc_path q = p.path; /* &*p is p */
      q.n_elems--;
      return lw_opnd_path(&q, ty);
    }
    tc_opnd o = lw_opnd_path(&p.path, ty);
    o.kind = TC_OPND_ADDR;
    return o;
  }
  case CXUnaryOperator_Deref: {
    CXType rt = clang_getCanonicalType(clang_getCursorType(e));
    if (rt.kind == CXType_FunctionProto || rt.kind == CXType_FunctionNoProto)
      return lw_expr(fn, sub, mode); /* (*fp)(…) */
    lw_place p;
    if (!lw_place_of(fn, e, &p)) return lw_opnd_unknown(ty);
    return mode == LW_EFFECT ? none_opnd() : lw_opnd_path(&p.path, ty);
  }
  case CXUnaryOperator_Plus:
  case CXUnaryOperator_Extension:
    return lw_expr(fn, sub, mode);
  case CXUnaryOperator_Minus:
  case CXUnaryOperator_Not:
  case CXUnaryOperator_LNot: {
    tc_opnd a = lw_expr(fn, sub, LW_VALUE);
    tc_opcode op = k == CXUnaryOperator_Minus ? TC_OPC_NEG
                   : k == CXUnaryOperator_Not ? TC_OPC_BITNOT : TC_OPC_NOT;
    if (op == TC_OPC_NOT && a.kind == TC_OPND_NULL) return lw_opnd_int(1, ty);
    if (a.kind == TC_OPND_INT) {
      int64_t v = op == TC_OPC_NEG ? (int64_t)(0 - (uint64_t)a.ival)
                  : op == TC_OPC_BITNOT ? ~a.ival : !a.ival;
      return lw_opnd_int(op == TC_OPC_NOT ? v : lw_truncate(clang_getCursorType(e), v), ty);
    }
    if (ty.cls == TC_TY_FLOAT || (op != TC_OPC_NOT && a.type.cls != TC_TY_INT) ||
        a.kind == TC_OPND_UNKNOWN || mode == LW_EFFECT)
      return mode == LW_EFFECT ? none_opnd() : lw_opnd_unknown(ty);
    tc_insn *in = lw_emit(fn, TC_I_UNOP, lw_loc(fn->u, e));
    in->opc = op;
    in->a = a;
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst_type = ty;
    return lw_opnd_path(&in->dst, ty);
  }
  default:
    lw_expr(fn, sub, LW_EFFECT);
    return lw_opnd_unknown(ty);
  }
}

/* A string literal: unknown as a value, like every value the IR does not model, but the text
   of a plain literal interned in sym, so a rule can read a literal API argument (a device
   name). libclang spells a literal as its value quoted ("CU" "DA1" is "CUDA1"), escapes and
   prefixes written back: those (u8"", "\t") keep no text, nor does one longer than
   LW_LITERAL_TEXT_MAX bytes (names, not texts). */
#define LW_LITERAL_TEXT_MAX 128
static tc_opnd string_literal(lw_fn *fn, CXCursor lit, tc_type ty) {
  tc_opnd o = lw_opnd_unknown(ty);
  CXString sp = clang_getCursorSpelling(lit);
  const char *w = clang_getCString(sp);
  size_t n = w ? strlen(w) : 0;
  if (n >= 2 && n - 2 < LW_LITERAL_TEXT_MAX && w[0] == '"' && w[n - 1] == '"' &&
      !memchr(w + 1, '"', n - 2) && !memchr(w + 1, '\\', n - 2)) {
    char text[LW_LITERAL_TEXT_MAX];
    memcpy(text, w + 1, n - 2);
    text[n - 2] = '\0';
    o.sym = tc_intern(fn->u->prog, text);
  }
  clang_disposeString(sp);
  return o;
}

/* A conversion (implicit or written) of sub to the type of e. */
static int path_derefs(const tc_path *p) {
  for (uint32_t i = 0; i < p->n_elems; i++)
    if (p->elems[i].kind == TC_ELEM_DEREF) return 1;
  return 0;
}

static tc_opnd convert(lw_fn *fn, CXCursor e, CXCursor sub, lw_mode mode) {
  CXType to = clang_getCanonicalType(clang_getCursorType(e));
  CXType from = clang_getCanonicalType(clang_getCursorType(sub));
  tc_type ty = type_of(fn, e);
  if (to.kind == CXType_Void) {
    lw_expr(fn, sub, LW_EFFECT);
    return none_opnd();
  }
  if (lw_type_is_array(from) && to.kind == CXType_Pointer) { /* decay */
    if (clang_getCursorKind(lw_strip(sub)) == CXCursor_StringLiteral)
      return string_literal(fn, lw_strip(sub), ty);
    lw_place p;
    if (!lw_place_of(fn, sub, &p)) return lw_opnd_unknown(ty);
    tc_opnd o = lw_opnd_path(&p.path, ty);
    o.kind = TC_OPND_ADDR;
    return o;
  }
  if (from.kind == CXType_FunctionProto || from.kind == CXType_FunctionNoProto)
    return lw_expr(fn, sub, mode);
  tc_opnd v = lw_expr(fn, sub, LW_VALUE);
  if (mode == LW_EFFECT) return none_opnd();
  if (v.kind == TC_OPND_NONE) return v;
  tc_type_class cls = lw_type_class(to);
  switch (cls) {
  case TC_TY_POINTER:
  case TC_TY_FUNCTION_POINTER:
    if (v.kind == TC_OPND_INT) {
      if (v.ival == 0) {
        tc_opnd n = {0};
        n.kind = TC_OPND_NULL;
        n.type = ty;
        return n;
      }
      return lw_opnd_unknown(ty);
    }
    break;
  case TC_TY_INT:
    if (v.kind == TC_OPND_INT) {
      v.ival = lw_truncate(to, v.ival);
      v.type = ty;
      return v;
    }
    if (v.kind == TC_OPND_NULL) return lw_opnd_int(0, ty);
    if (v.type.cls == TC_TY_FLOAT) return lw_opnd_unknown(ty);
    if (v.type.cls == TC_TY_POINTER && to.kind == CXType_Bool) return v; /* truthiness */
    if (v.type.cls == TC_TY_POINTER) return lw_opnd_unknown(ty);
    break;
  case TC_TY_FLOAT:
    /* a float read through a pointer (`p[i]`, `t->data`-derived) stays a read of that place:
       the engine checks the memory the host touches, and then forgets the value */
    if (v.kind == TC_OPND_PATH && path_derefs(&v.path)) {
      v.type = ty;
      return v;
    }
    return lw_opnd_unknown(ty);
  case TC_TY_RECORD:
  case TC_TY_ARRAY:
  case TC_TY_OTHER:
    break;
  }
  v.type = ty;
  return v;
}

static tc_opnd conditional(lw_fn *fn, CXCursor e, lw_mode mode) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  if (ch.n != 3) {
    lw_cursors_free(&ch);
    return unknown_after_effects(fn, e);
  }
  CXCursor c = ch.v[0], a = ch.v[1], b = ch.v[2];
  lw_cursors_free(&ch);
  uint32_t ab = lw_new_block(fn), bb = lw_new_block(fn), join = lw_new_block(fn);
  CXType rt = clang_getCursorType(e);
  int is_void = clang_getCanonicalType(rt).kind == CXType_Void;
  tc_srcloc loc = lw_loc(fn->u, e);
  lw_cond(fn, c, ab, bb);
  if (mode == LW_EFFECT || is_void) {
    lw_set_cur(fn, ab);
    lw_expr(fn, a, LW_EFFECT);
    lw_goto(fn, join, loc);
    lw_set_cur(fn, bb);
    lw_expr(fn, b, LW_EFFECT);
    lw_goto(fn, join, loc);
    lw_set_cur(fn, join);
    return none_opnd();
  }
  lw_place t = {lw_temp(fn), rt};
  t.path.spelling = lw_spelling_text(fn->u, e);
  lw_set_cur(fn, ab);
  lw_expr_into(fn, a, &t);
  lw_goto(fn, join, loc);
  lw_set_cur(fn, bb);
  lw_expr_into(fn, b, &t);
  lw_goto(fn, join, loc);
  lw_set_cur(fn, join);
  return lw_opnd_path(&t.path, lw_type(fn->u, rt));
}

/* ({ stmt; …; expr; }) — the value is the last expression statement's. */
static tc_opnd stmt_expr(lw_fn *fn, CXCursor e, const lw_place *dst, lw_mode mode) {
  lw_cursors ch, body;
  lw_cursors_init(&ch);
  lw_cursors_init(&body);
  lw_children(e, &ch);
  tc_opnd r = none_opnd();
  if (ch.n >= 1 && clang_getCursorKind(ch.v[0]) == CXCursor_CompoundStmt) {
    lw_children(ch.v[0], &body);
    for (uint32_t i = 0; i + 1 < body.n; i++) lw_stmt(fn, body.v[i]);
    if (body.n) {
      CXCursor last = body.v[body.n - 1];
      if (!clang_isExpression(clang_getCursorKind(last))) lw_stmt(fn, last);
      else if (dst) lw_expr_into(fn, last, dst);
      else r = lw_expr(fn, last, mode);
    }
  }
  lw_cursors_free(&ch);
  lw_cursors_free(&body);
  if (dst) return lw_opnd_path(&dst->path, lw_type(fn->u, dst->type));
  return r;
}

static tc_opnd generic_selection(lw_fn *fn, CXCursor e, lw_mode mode);

static tc_opnd expr_impl(lw_fn *fn, CXCursor e, lw_mode mode) {
  lw_unit *u = fn->u;
  switch ((int)clang_getCursorKind(e)) {
  case CXCursor_CXXNullPtrLiteralExpr: /* C23 nullptr */
  case CXCursor_GNUNullExpr: {
    tc_opnd o = {0};
    o.kind = TC_OPND_NULL;
    o.type = type_of(fn, e);
    return o;
  }
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr: /* C23 true / false */
  case CXCursor_UnaryExpr: { /* sizeof, _Alignof, offsetof: operands are not evaluated */
    int64_t v;
    if (lw_eval_int(e, &v)) return lw_opnd_int(v, type_of(fn, e));
    return lw_opnd_unknown(type_of(fn, e));
  }
  case CXCursor_FloatingLiteral:
  case CXCursor_ImaginaryLiteral:
  case CXCursor_StringLiteral:
    return string_literal(fn, e, type_of(fn, e));
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(e);
    switch ((int)clang_getCursorKind(ref)) {
    case CXCursor_EnumConstantDecl: {
      tc_opnd o = lw_opnd_int(clang_getEnumConstantDeclValue(ref), type_of(fn, e));
      o.sym = lw_intern_cx(u, clang_getCursorSpelling(ref));
      return o;
    }
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod: { /* a function designator (a static member's too) */
      lw_note_callee(u, ref);
      tc_opnd o = {0};
      o.kind = TC_OPND_FUNC;
      o.sym = lw_decl_usr(u, ref);
      o.type = type_of(fn, e);
      return o;
    }
    case CXCursor_VarDecl:
    case CXCursor_ParmDecl:
    case CXCursor_UnexposedDecl: { /* an unexposed one: a structured binding */
      if (mode == LW_EFFECT) return none_opnd();
      lw_place p;
      if (!lw_var_place(fn, ref, &p)) return lw_opnd_unknown(type_of(fn, e));
      return lw_opnd_path(&p.path, type_of(fn, e));
    }
    default: { /* a template's constant argument (`N` in an instantiation), a constexpr */
      int64_t v;
      if (lw_eval_int(e, &v)) return lw_opnd_int(v, type_of(fn, e));
      return lw_opnd_unknown(type_of(fn, e));
    }
    }
  }
  case CXCursor_ParenExpr: {
    lw_cursors ch;
    lw_cursors_init(&ch);
    expr_children(e, &ch);
    tc_opnd r = ch.n == 1 ? lw_expr(fn, ch.v[0], mode) : unknown_after_effects(fn, e);
    lw_cursors_free(&ch);
    return r;
  }
  case CXCursor_UnexposedExpr:
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXDynamicCastExpr:
  case CXCursor_CXXFunctionalCastExpr: {
    lw_cursors ch;
    lw_cursors_init(&ch);
    expr_children(e, &ch);
    tc_opnd r;
    if (ch.n == 1 || (ch.n >= 1 && clang_getCursorKind(e) != CXCursor_UnexposedExpr))
      r = convert(fn, e, ch.v[ch.n - 1], mode);
    else
      r = unknown_after_effects(fn, e);
    lw_cursors_free(&ch);
    return r;
  }
  case CXCursor_CallExpr:
    return lower_call(fn, e, NULL, mode);
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
    return binary(fn, e, mode);
  case CXCursor_UnaryOperator:
    return unary(fn, e, mode);
  case CXCursor_MemberRefExpr:
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_CompoundLiteralExpr: {
    lw_place p;
    if (!lw_place_of(fn, e, &p)) return lw_opnd_unknown(type_of(fn, e));
    return mode == LW_EFFECT ? none_opnd() : lw_opnd_path(&p.path, type_of(fn, e));
  }
  case CXCursor_ConditionalOperator:
    return conditional(fn, e, mode);
  case CXCursor_GenericSelectionExpr:
    return generic_selection(fn, e, mode);
  case CXCursor_StmtExpr:
    return stmt_expr(fn, e, NULL, mode);
  case CXCursor_CXXThisExpr:
    return lw_this(fn);
  case CXCursor_LambdaExpr:
    return lw_lambda(fn, e, NULL);
  case CXCursor_CXXNewExpr:
    return lw_new(fn, e);
  case CXCursor_CXXThrowExpr: /* the path ends here (a handler joins at its try, lower_stmt.c) */
    effects_of_children(fn, e);
    lw_terminate(fn, TC_T_UNREACHABLE, none_opnd(), lw_loc(u, e));
    return none_opnd();
  case CXCursor_InitListExpr: /* `Tensor{h}`, `return {a, b};`: a temporary initialized so */
    if (lw_type_is_record(clang_getCursorType(e)) || lw_type_is_array(clang_getCursorType(e))) {
      lw_place t = {lw_temp(fn), clang_getCursorType(e)};
      lw_init(fn, e, &t);
      return lw_opnd_path(&t.path, type_of(fn, e));
    }
    return unknown_after_effects(fn, e);
  case CXCursor_CXXDeleteExpr:
  case CXCursor_CXXTypeidExpr:
  case CXCursor_PackExpansionExpr:
  case CXCursor_SizeOfPackExpr:
    return unknown_after_effects(fn, e); /* nothing here a tag can flow through */
  default:
    u->stats.unknown_exprs++;
    return unknown_after_effects(fn, e);
  }
}

/* C11 `_Generic(x, T1: e1, T2: e2)`: the association the front end selected, found as the one
   whose type is the selection's (libclang names no selected association). Several of that type
   that are not one declaration (`int: 1, long: 2` on a 64-bit int) read as unknown. */
static tc_opnd generic_selection(lw_fn *fn, CXCursor e, lw_mode mode) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  expr_children(e, &ch);
  CXType want = clang_getCanonicalType(clang_getCursorType(e));
  int pick = -1, ambiguous = 0;
  for (uint32_t i = 1; i < ch.n; i++) {
    if (!clang_equalTypes(clang_getCanonicalType(clang_getCursorType(ch.v[i])), want)) continue;
    if (pick >= 0 && !clang_equalCursors(clang_getCursorReferenced(ch.v[i]),
                                         clang_getCursorReferenced(ch.v[pick])))
      ambiguous = 1;
    if (pick < 0) pick = (int)i;
  }
  tc_opnd r = pick >= 0 && !ambiguous ? lw_expr(fn, ch.v[pick], mode) : lw_opnd_unknown(type_of(fn, e));
  lw_cursors_free(&ch);
  return r;
}

tc_opnd lw_expr(lw_fn *fn, CXCursor e, lw_mode mode) {
  if (lw_too_deep(fn)) return lw_opnd_unknown((tc_type){0});
  fn->depth++;
  tc_opnd r = expr_impl(fn, e, mode);
  fn->depth--;
  return r;
}

void lw_expr_into(lw_fn *fn, CXCursor e, const lw_place *dst) {
  CXCursor s = lw_strip(e);
  if (!lw_too_deep(fn)) {
    switch ((int)clang_getCursorKind(s)) {
    case CXCursor_CallExpr:
      fn->depth++;
      lower_call(fn, s, dst, LW_VALUE);
      fn->depth--;
      return;
    case CXCursor_ConditionalOperator: {
      lw_cursors ch;
      lw_cursors_init(&ch);
      expr_children(s, &ch);
      if (ch.n == 3) {
        CXCursor c = ch.v[0], a = ch.v[1], b = ch.v[2];
        lw_cursors_free(&ch);
        uint32_t ab = lw_new_block(fn), bb = lw_new_block(fn), join = lw_new_block(fn);
        tc_srcloc loc = lw_loc(fn->u, s);
        fn->depth++;
        lw_cond(fn, c, ab, bb);
        lw_set_cur(fn, ab);
        lw_expr_into(fn, a, dst);
        lw_goto(fn, join, loc);
        lw_set_cur(fn, bb);
        lw_expr_into(fn, b, dst);
        lw_goto(fn, join, loc);
        lw_set_cur(fn, join);
        fn->depth--;
        return;
      }
      lw_cursors_free(&ch);
      break;
    }
    case CXCursor_CompoundLiteralExpr:
      if (lw_same_record(clang_getCursorType(s), dst->type)) {
        lw_cursors ch;
        lw_cursors_init(&ch);
        expr_children(s, &ch);
        fn->depth++;
        if (ch.n >= 1) lw_init(fn, ch.v[ch.n - 1], dst);
        fn->depth--;
        lw_cursors_free(&ch);
        return;
      }
      break;
    case CXCursor_StmtExpr:
      fn->depth++;
      stmt_expr(fn, s, dst, LW_VALUE);
      fn->depth--;
      return;
    case CXCursor_LambdaExpr:
      fn->depth++;
      lw_lambda(fn, s, dst);
      fn->depth--;
      return;
    default:
      break;
    }
  }
  tc_opnd v = lw_expr(fn, e, LW_VALUE);
  if (v.kind == TC_OPND_NONE) v = lw_opnd_unknown(lw_type(fn->u, dst->type));
  lw_assign(fn, &dst->path, dst->type, v, lw_loc(fn->u, e));
}

/* ---- conditions ---- */

/* Looks through parens and implicit conversions that keep truthiness. */
static CXCursor strip_truth(CXCursor c) {
  for (int guard = 0; guard < 4096; guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) return c;
    lw_cursors ch;
    lw_cursors_init(&ch);
    lw_children(c, &ch);
    CXCursor next = ch.n == 1 ? ch.v[0] : clang_getNullCursor();
    lw_cursors_free(&ch);
    if (clang_Cursor_isNull(next) || !clang_isExpression(clang_getCursorKind(next))) return c;
    if (k == CXCursor_UnexposedExpr) {
      tc_type_class to = lw_type_class(clang_getCursorType(c));
      tc_type_class from = lw_type_class(clang_getCursorType(next));
      if (!((to == TC_TY_INT || to == TC_TY_POINTER) &&
            (from == TC_TY_INT || from == TC_TY_POINTER)))
        return c;
      if (to == TC_TY_INT && from == TC_TY_INT &&
          clang_Type_getSizeOf(clang_getCursorType(c)) <
              clang_Type_getSizeOf(clang_getCursorType(next)) &&
          clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Bool)
        return c; /* a truncation may change truthiness */
    }
    c = next;
  }
  return c;
}

static void cond_impl(lw_fn *fn, CXCursor e, uint32_t t, uint32_t f) {
  CXCursor s = strip_truth(e);
  enum CXCursorKind k = clang_getCursorKind(s);
  lw_cursors ch;
  lw_cursors_init(&ch);
  if (k == CXCursor_BinaryOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr ||
        op == CXBinaryOperator_Comma) {
      expr_children(s, &ch);
      if (ch.n == 2) {
        CXCursor lhs = ch.v[0], rhs = ch.v[1];
        lw_cursors_free(&ch);
        if (op == CXBinaryOperator_Comma) {
          lw_expr(fn, lhs, LW_EFFECT);
          lw_cond(fn, rhs, t, f);
          return;
        }
        uint32_t mid = lw_new_block(fn);
        if (op == CXBinaryOperator_LAnd) lw_cond(fn, lhs, mid, f);
        else lw_cond(fn, lhs, t, mid);
        lw_set_cur(fn, mid);
        lw_cond(fn, rhs, t, f);
        return;
      }
    }
  } else if (k == CXCursor_UnaryOperator &&
             clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_LNot) {
    expr_children(s, &ch);
    if (ch.n == 1) {
      CXCursor sub = ch.v[0];
      lw_cursors_free(&ch);
      lw_cond(fn, sub, f, t);
      return;
    }
  } else if (k == CXCursor_ConditionalOperator) {
    expr_children(s, &ch);
    if (ch.n == 3) {
      CXCursor c = ch.v[0], a = ch.v[1], b = ch.v[2];
      lw_cursors_free(&ch);
      uint32_t ab = lw_new_block(fn), bb = lw_new_block(fn);
      lw_cond(fn, c, ab, bb);
      lw_set_cur(fn, ab);
      lw_cond(fn, a, t, f);
      lw_set_cur(fn, bb);
      lw_cond(fn, b, t, f);
      return;
    }
  }
  lw_cursors_free(&ch);
  tc_opnd v = lw_expr(fn, s, LW_VALUE);
  lw_branch(fn, v, t, f, lw_loc(fn->u, s));
}

void lw_cond(lw_fn *fn, CXCursor e, uint32_t t, uint32_t f) {
  if (lw_too_deep(fn)) {
    lw_branch(fn, lw_opnd_unknown((tc_type){0}), t, f, (tc_srcloc){0});
    return;
  }
  fn->depth++;
  cond_impl(fn, e, t, f);
  fn->depth--;
}
