/* analyzer/src/frontend/lower_stmt.c — statements → blocks: compound statements, declarations
 * (each declaration its own variable, so shadowed names stay apart), if/else (else-if chains
 * without recursion), loops, switch with fallthrough, break/continue, goto and labels, return.
 * Unknown statements lower their sub-expressions for their calls. */
#include "frontend/lower_internal.h"

#include <stdlib.h>
#include <string.h>

static tc_opnd none_opnd(void) {
  tc_opnd o = {0};
  return o;
}

static void push_jump(lw_fn *fn, uint32_t brk, uint32_t cont) {
  fn->jumps = lw_grow(fn->u, fn->jumps, &fn->cap_jumps, fn->n_jumps + 1, sizeof *fn->jumps);
  if (fn->n_jumps < fn->cap_jumps) {
    fn->jumps[fn->n_jumps].break_blk = brk;
    fn->jumps[fn->n_jumps].continue_blk = cont;
    fn->jumps[fn->n_jumps].dying_depth = fn->n_dying;
  }
  fn->n_jumps++; /* out of memory: counted all the same, so that pops stay balanced (nothing
                    reads it: the lowering stops, lw_too_deep) */
}

static uint32_t label_block(lw_fn *fn, tc_sym name) {
  for (uint32_t i = 0; i < fn->n_labels; i++)
    if (fn->labels[i].name == name) return fn->labels[i].blk;
  fn->labels = lw_grow(fn->u, fn->labels, &fn->cap_labels, fn->n_labels + 1, sizeof *fn->labels);
  if (fn->n_labels >= fn->cap_labels) return 0; /* out of memory: any valid block */
  fn->labels[fn->n_labels].name = name;
  fn->labels[fn->n_labels].blk = lw_new_block(fn);
  return fn->labels[fn->n_labels++].blk;
}

/* ---- declarations ---- */

static void local_decl(lw_fn *fn, CXCursor d) {
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
  if (sc == CX_SC_Extern) return; /* refers to a global: uses resolve by USR */
  if (sc == CX_SC_Static || clang_Cursor_hasVarDeclGlobalStorage(d) == 1) {
    tc_sym usr = lw_decl_usr(fn->u, d);
    lw_add_local(fn, d, 1, usr);
    lw_cmap_entry *e = lw_cmap_put(&fn->vars, d, NULL);
    if (e) {
      e->value = TC_ROOT_GLOBAL;
      e->sym = usr;
    }
    lw_global_var(fn->u, d); /* its initializer runs once, before the program */
    return;
  }
  uint32_t id = lw_add_local(fn, d, 0, 0);
  if (fn->u->oom) return; /* the unit fails */
  lw_cmap_entry *e = lw_cmap_put(&fn->vars, d, NULL);
  if (e) {
    e->value = TC_ROOT_LOCAL;
    e->sym = id;
  }
  if (lw_is_decomposition(d)) lw_bind_names(fn, d, id);
  CXCursor init = clang_Cursor_getVarDeclInitializer(d);
  if (clang_Cursor_isNull(init)) {
    lw_note_dying(fn, id, clang_getCursorType(d));
    return;
  }
  lw_place p;
  p.path = lw_path_root(TC_ROOT_LOCAL, id);
  p.path.spelling = fn->locals[id].name;
  p.type = clang_getCursorType(d);
  if (lw_type_is_reference(p.type)) lw_bind_reference(fn, &p, init); /* auto &r = x: r = &x */
  else lw_init(fn, init, &p);
  lw_note_dying(fn, id, p.type);
}

static void decl_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  for (uint32_t i = 0; i < ch.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
    if (k == CXCursor_VarDecl || lw_is_decomposition(ch.v[i])) local_decl(fn, ch.v[i]);
    else if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl)
      lw_lower_decls(fn->u, ch.v[i]); /* a local class's member functions */
  }
  lw_cursors_free(&ch);
}

/* ---- control flow ---- */

/* if / else if / … / else, walked as a chain. */
static void if_stmt(lw_fn *fn, CXCursor s) {
  uint32_t join = lw_new_block(fn);
  lw_cursors ch;
  lw_cursors_init(&ch);
  for (;;) {
    lw_children(s, &ch);
    /* C: cond, then [, else]; a declaration before the condition (C2y/C++) is lowered too */
    uint32_t i = 0;
    while (i < ch.n && !clang_isExpression(clang_getCursorKind(ch.v[i]))) lw_stmt(fn, ch.v[i++]);
    if (ch.n - i < 2) break;
    CXCursor cond = ch.v[i], then_s = ch.v[i + 1];
    int has_else = ch.n - i >= 3;
    CXCursor else_s = has_else ? ch.v[i + 2] : clang_getNullCursor();
    uint32_t tb = lw_new_block(fn), eb = has_else ? lw_new_block(fn) : join;
    lw_cond(fn, cond, tb, eb);
    lw_set_cur(fn, tb);
    lw_stmt(fn, then_s);
    if (fn->cur != LW_NONE) lw_goto(fn, join, (tc_srcloc){0});
    if (!has_else) break;
    lw_set_cur(fn, eb);
    if (clang_getCursorKind(else_s) == CXCursor_IfStmt) {
      s = else_s;
      continue;
    }
    lw_stmt(fn, else_s);
    break;
  }
  lw_cursors_free(&ch);
  lw_set_cur(fn, join);
}

static void while_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  if (ch.n >= 2) {
    CXCursor cond = ch.v[ch.n - 2], body = ch.v[ch.n - 1];
    uint32_t head = lw_new_block(fn), bb = lw_new_block(fn), exit = lw_new_block(fn);
    lw_set_cur(fn, head);
    lw_cond(fn, cond, bb, exit);
    push_jump(fn, exit, head);
    lw_set_cur(fn, bb);
    lw_stmt(fn, body);
    fn->n_jumps--;
    if (fn->cur != LW_NONE) lw_goto(fn, head, (tc_srcloc){0});
    lw_set_cur(fn, exit);
  }
  lw_cursors_free(&ch);
}

static void do_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  if (ch.n == 2) {
    CXCursor body = ch.v[0], cond = ch.v[1];
    uint32_t bb = lw_new_block(fn), cb = lw_new_block(fn), exit = lw_new_block(fn);
    lw_set_cur(fn, bb);
    push_jump(fn, exit, cb);
    lw_stmt(fn, body);
    fn->n_jumps--;
    lw_set_cur(fn, cb);
    lw_cond(fn, cond, bb, exit);
    lw_set_cur(fn, exit);
  }
  lw_cursors_free(&ch);
}

/* Where the two ';' of a for header are, read from the source (libclang leaves out absent
   parts of `for (init; cond; inc)`, so the roles of the children come from their places). */
static int for_semicolons(lw_unit *u, CXCursor s, CXCursor body, unsigned *semi1,
                          unsigned *semi2) {
  CXFile f = NULL, fb = NULL;
  unsigned start = 0, end = 0;
  clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(s)), &f, NULL, NULL, &start);
  clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(body)), &fb, NULL, NULL, &end);
  if (!f || !fb || !clang_File_isEqual(f, fb) || end <= start) return 0;
  if (lw_in_macro(s)) return 0;
  size_t size = 0;
  const char *text = clang_getFileContents(u->tu, f, &size);
  if (!text || end > size) return 0;
  int depth = 0, n = 0;
  for (unsigned i = start; i < end; i++) {
    char ch = text[i];
    if (ch == '/' && i + 1 < end && text[i + 1] == '*') {
      for (i += 2; i + 1 < end && !(text[i] == '*' && text[i + 1] == '/'); i++) {}
      i++;
    } else if (ch == '/' && i + 1 < end && text[i + 1] == '/') {
      while (i < end && text[i] != '\n') i++;
    } else if (ch == '"' || ch == '\'') {
      for (i++; i < end && text[i] != ch; i++)
        if (text[i] == '\\') i++;
    } else if (ch == '(') {
      depth++;
    } else if (ch == ')') {
      if (--depth == 0) break;
    } else if (ch == ';' && depth == 1) {
      if (n == 0) *semi1 = i;
      else if (n == 1) *semi2 = i;
      n++;
    }
  }
  return n == 2;
}

static unsigned start_offset(CXCursor c) {
  unsigned off = 0;
  clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
  return off;
}

static int looks_like_condition(CXCursor c) {
  CXCursor s = lw_strip(c);
  enum CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_BinaryOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
    return (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) ||
           op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr;
  }
  if (k == CXCursor_UnaryOperator)
    return clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_LNot;
  return k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr;
}

static void for_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  if (ch.n == 0) {
    lw_cursors_free(&ch);
    return;
  }
  CXCursor body = ch.v[ch.n - 1];
  CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
  uint32_t np = ch.n - 1;
  unsigned semi1 = 0, semi2 = 0;
  if (np == 3) {
    init = ch.v[0];
    cond = ch.v[1];
    inc = ch.v[2];
  } else if (np > 0 && for_semicolons(fn->u, s, body, &semi1, &semi2)) {
    for (uint32_t i = 0; i < np; i++) {
      unsigned off = start_offset(ch.v[i]);
      if (off < semi1) init = ch.v[i];
      else if (off < semi2) cond = ch.v[i];
      else inc = ch.v[i];
    }
  } else if (np == 1) { /* no source to read (macro): guess from the shape */
    if (clang_getCursorKind(ch.v[0]) == CXCursor_DeclStmt) init = ch.v[0];
    else if (looks_like_condition(ch.v[0])) cond = ch.v[0];
    else inc = ch.v[0];
  } else if (np == 2) {
    if (clang_getCursorKind(ch.v[0]) == CXCursor_DeclStmt || !looks_like_condition(ch.v[0])) {
      init = ch.v[0];
      if (looks_like_condition(ch.v[1])) cond = ch.v[1];
      else inc = ch.v[1];
    } else {
      cond = ch.v[0];
      inc = ch.v[1];
    }
  }
  if (!clang_Cursor_isNull(init)) lw_stmt(fn, init);
  uint32_t head = lw_new_block(fn), bb = lw_new_block(fn), step = lw_new_block(fn),
           exit = lw_new_block(fn);
  lw_set_cur(fn, head);
  if (!clang_Cursor_isNull(cond)) lw_cond(fn, cond, bb, exit);
  else lw_goto(fn, bb, (tc_srcloc){0});
  push_jump(fn, exit, step);
  lw_set_cur(fn, bb);
  lw_stmt(fn, body);
  fn->n_jumps--;
  lw_set_cur(fn, step);
  if (!clang_Cursor_isNull(inc)) lw_expr(fn, inc, LW_EFFECT);
  lw_goto(fn, head, (tc_srcloc){0});
  lw_set_cur(fn, exit);
  lw_cursors_free(&ch);
}

static void switch_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  uint32_t i = 0;
  while (i < ch.n && !clang_isExpression(clang_getCursorKind(ch.v[i]))) lw_stmt(fn, ch.v[i++]);
  if (ch.n - i < 2) {
    lw_cursors_free(&ch);
    return;
  }
  CXCursor cond = ch.v[i], body = ch.v[i + 1];
  lw_cursors_free(&ch);
  tc_srcloc loc = lw_loc(fn->u, cond);
  tc_opnd v = lw_expr(fn, cond, LW_VALUE);
  /* the switching block: its terminator is written once the cases are known */
  uint32_t sw = fn->cur == LW_NONE ? lw_new_block(fn) : fn->cur;
  fn->blocks[sw].terminated = 1;
  fn->cur = LW_NONE;
  uint32_t exit = lw_new_block(fn);
  fn->switches = lw_grow(fn->u, fn->switches, &fn->cap_switches, fn->n_switches + 1,
                         sizeof *fn->switches);
  if (fn->n_switches >= fn->cap_switches) return; /* out of memory: the unit fails */
  lw_switch *ctx = &fn->switches[fn->n_switches++];
  memset(ctx, 0, sizeof *ctx);
  ctx->default_blk = LW_NONE;
  uint32_t cont = fn->n_jumps ? fn->jumps[fn->n_jumps - 1].continue_blk : LW_NONE;
  push_jump(fn, exit, cont);
  lw_stmt(fn, body);
  fn->n_jumps--;
  if (fn->cur != LW_NONE) lw_goto(fn, exit, (tc_srcloc){0});
  ctx = &fn->switches[--fn->n_switches];
  tc_term *t = &fn->blocks[sw].term;
  memset(t, 0, sizeof *t);
  t->kind = TC_T_SWITCH;
  t->loc = loc;
  t->cond = v;
  t->n_cases = ctx->n;
  t->n_succ = ctx->n + 1;
  t->succ = lw_alloc(fn->u, t->n_succ * sizeof *t->succ);
  t->case_values = ctx->n ? lw_alloc(fn->u, ctx->n * sizeof *t->case_values) : NULL;
  if (!t->succ || (ctx->n && !t->case_values)) { /* out of memory: the unit fails */
    t->n_cases = t->n_succ = 0;
    ctx->n = 0;
  }
  for (uint32_t k = 0; k < ctx->n; k++) {
    t->case_values[k] = ctx->cases[k].value;
    t->succ[k] = ctx->cases[k].blk;
  }
  if (t->succ) t->succ[ctx->n] = ctx->default_blk != LW_NONE ? ctx->default_blk : exit;
  free(ctx->cases);
  ctx->cases = NULL;
  lw_set_cur(fn, exit);
}

static void add_case(lw_fn *fn, int64_t value, uint32_t blk) {
  lw_switch *ctx = &fn->switches[fn->n_switches - 1];
  ctx->cases = lw_grow(fn->u, ctx->cases, &ctx->cap, ctx->n + 1, sizeof *ctx->cases);
  if (ctx->n >= ctx->cap) return; /* out of memory: the unit fails */
  ctx->cases[ctx->n].value = value;
  ctx->cases[ctx->n].blk = blk;
  ctx->n++;
}

/* case/default labels, possibly stacked (case 1: case 2: …), walked as a chain. */
static void case_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt) break;
    lw_children(s, &ch);
    uint32_t blk = lw_new_block(fn);
    lw_set_cur(fn, blk); /* the previous case falls through */
    if (fn->n_switches && k == CXCursor_DefaultStmt) {
      fn->switches[fn->n_switches - 1].default_blk = blk;
    } else if (fn->n_switches && ch.n >= 2) {
      int64_t lo, hi;
      if (lw_eval_int(ch.v[0], &lo)) {
        if (ch.n >= 3 && lw_eval_int(ch.v[1], &hi) && hi >= lo && hi - lo < 256) {
          for (int64_t v = lo; v <= hi; v++) add_case(fn, v, blk); /* GNU case lo ... hi */
        } else {
          add_case(fn, lo, blk);
        }
      }
    }
    if (ch.n == 0) break;
    s = ch.v[ch.n - 1];
  }
  lw_cursors_free(&ch);
  if (clang_getCursorKind(s) != CXCursor_CaseStmt && clang_getCursorKind(s) != CXCursor_DefaultStmt)
    lw_stmt(fn, s);
}

/* Before a return, the destructors of every open scope's objects, the returned value taken
   first: a local object returned by value is the result (its copy is elided, it does not
   die); any other value read from a local is copied out before the destructors run. */
static void returning_dies(lw_fn *fn, tc_opnd *v, tc_srcloc loc) {
  uint32_t spared = UINT32_MAX;
  if (v->kind == TC_OPND_PATH && v->path.root == TC_ROOT_LOCAL && v->path.n_elems == 0) {
    spared = v->path.id;
  } else if (v->kind == TC_OPND_PATH) {
    tc_insn *in = lw_emit(fn, TC_I_ASSIGN, loc);
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst_type = v->type;
    in->a = *v;
    *v = lw_opnd_path(&in->dst, v->type);
  }
  lw_run_dtors(fn, 0, spared, loc);
}

static void return_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  tc_opnd v = none_opnd();
  if (ch.n >= 1 && clang_isExpression(clang_getCursorKind(ch.v[ch.n - 1])))
    v = fn->ret_is_ref ? lw_addr_of(fn, ch.v[ch.n - 1]) : lw_expr(fn, ch.v[ch.n - 1], LW_VALUE);
  lw_cursors_free(&ch);
  if (fn->n_dying) returning_dies(fn, &v, lw_loc(fn->u, s));
  lw_terminate(fn, TC_T_RETURN, v, lw_loc(fn->u, s));
}

static void havoc_places(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  for (uint32_t i = 0; i < ch.n; i++) {
    if (!clang_isExpression(clang_getCursorKind(ch.v[i]))) continue;
    lw_place p;
    if (lw_place_of(fn, ch.v[i], &p))
      lw_assign(fn, &p.path, p.type, lw_opnd_unknown(lw_type(fn->u, p.type)), lw_loc(fn->u, s));
  }
  lw_cursors_free(&ch);
}

static void children_as_statements(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  for (uint32_t i = 0; i < ch.n; i++) lw_stmt(fn, ch.v[i]);
  lw_cursors_free(&ch);
}

/* for (decl : range) body — over an array (or a std::array) of known size, an index loop (a hidden counter k
   from 0 to the size; decl is element k, or its address for a reference), so the engine
   follows each iteration as in C; over anything else the loop runs any number of times, decl
   being what the range's begin() gives for a standard-library container (rules/cxx.json:
   any of its elements) and unknown otherwise; a standard-library container's first test is its
   empty() (the rules know a container an element was put in is not empty). */
/* Whether the body of a range-for writes its reference variable `var` (`p = moved;`,
   `p.reset(q)`, `p += d`): each iteration then replaces the element it visits. */
typedef struct var_write_scan {
  CXCursor var;
  int by_reference; /* also count var passed where a non-const reference binds to it */
  int found;
} var_write_scan;

static int names_var(CXCursor e, CXCursor var) {
  CXCursor s = lw_strip(e);
  return clang_getCursorKind(s) == CXCursor_DeclRefExpr &&
         clang_equalCursors(clang_getCursorReferenced(s), var);
}

/* Whether call c (of ref) passes var where a non-const reference (or a parameter it cannot
   see: variadic, or no declaration) binds to it: `std::swap(p, q)`, `std::move(p)`. */
static int passes_by_reference(CXCursor c, CXCursor ref, CXCursor var) {
  int n = clang_Cursor_getNumArguments(c);
  CXType ft = clang_getCursorType(ref);
  int np = clang_getNumArgTypes(ft);
  /* a member operator's call lists its object first (its constness: find_var_write) */
  int self = clang_getCursorKind(ref) == CXCursor_CXXMethod && np >= 0 && n == np + 1;
  for (int i = self; i < n; i++) {
    if (!names_var(clang_Cursor_getArgument(c, i), var)) continue;
    if (np < 0 || i - self >= np) return 1;
    CXType pt = clang_getArgType(ft, (unsigned)(i - self));
    if (pt.kind == CXType_LValueReference || pt.kind == CXType_RValueReference) {
      if (!clang_isConstQualifiedType(clang_getPointeeType(pt))) return 1;
    }
  }
  return 0;
}

static enum CXChildVisitResult find_var_write(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  var_write_scan *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor first = clang_getNullCursor();
  if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) {
      lw_cursors ch;
      lw_cursors_init(&ch);
      lw_children(c, &ch);
      if (ch.n) first = ch.v[0];
      lw_cursors_free(&ch);
    }
  } else if (k == CXCursor_CallExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (w->by_reference && passes_by_reference(c, ref, w->var)) {
      w->found = 1;
      return CXChildVisit_Break;
    }
    int mutating = clang_getCursorKind(ref) == CXCursor_CXXMethod && !clang_CXXMethod_isConst(ref);
    if (mutating && clang_Cursor_getNumArguments(c) >= 1 &&
        clang_getCursorKind(clang_getCursorSemanticParent(ref)) != CXCursor_Namespace) {
      CXString sp = clang_getCursorSpelling(ref);
      int op = strncmp(clang_getCString(sp), "operator", 8) == 0;
      clang_disposeString(sp);
      if (op) first = clang_Cursor_getArgument(c, 0); /* p = x as an operator call */
    }
    if (mutating && clang_Cursor_isNull(first)) { /* p.reset(x): the member call's object */
      lw_cursors ch;
      lw_cursors_init(&ch);
      lw_children(c, &ch);
      if (ch.n && clang_getCursorKind(ch.v[0]) == CXCursor_MemberRefExpr) {
        lw_cursors obj;
        lw_cursors_init(&obj);
        lw_children(ch.v[0], &obj);
        if (obj.n) first = obj.v[0];
        lw_cursors_free(&obj);
      }
      lw_cursors_free(&ch);
    }
  }
  if (!clang_Cursor_isNull(first) && names_var(first, w->var)) {
    w->found = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static void range_for(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  if (ch.n < 3) {
    children_as_statements(fn, s);
    lw_cursors_free(&ch);
    return;
  }
  CXCursor body = ch.v[ch.n - 1], range = ch.v[ch.n - 2], var = clang_getNullCursor();
  for (uint32_t i = 0; i + 2 < ch.n; i++) {
    if (clang_getCursorKind(ch.v[i]) == CXCursor_VarDecl || lw_is_decomposition(ch.v[i]))
      var = ch.v[i];
    else lw_stmt(fn, ch.v[i]); /* C++20's init-statement */
  }
  lw_cursors_free(&ch);
  lw_unit *u = fn->u;
  tc_srcloc loc = lw_loc(u, s);
  lw_place rp;
  int have_range = clang_isExpression(clang_getCursorKind(range)) && lw_place_of(fn, range, &rp);
  if (!have_range && clang_isExpression(clang_getCursorKind(range))) lw_expr(fn, range, LW_EFFECT);
  CXType rt = have_range ? clang_getCanonicalType(rp.type) : (CXType){0};
  CXType et = have_range && lw_type_is_array(rt) ? clang_getArrayElementType(rt) : (CXType){0};
  long long size = have_range && rt.kind == CXType_ConstantArray ? clang_getArraySize(rt) : -1;
  tc_sym elems = 0;
  if (have_range && !lw_type_is_array(rt)) { /* std::array: index its field, the C array */
    size = lw_std_array_size(u, rt, &et, &elems);
    if (size >= 0) rp.path = lw_path_extend(fn, &rp.path, (tc_elem){.kind = TC_ELEM_FIELD,
                                                                    .field = elems});
  }
  int by_index = have_range && (lw_type_is_array(rt) || size >= 0);
  tc_path it; /* a standard container: the iterator's element, per rules/cxx.json */
  int by_iterator = have_range && !by_index && lw_std_range_begin(fn, &rp, loc, &it);
  tc_type int_ty = {0};
  int_ty.cls = TC_TY_INT;
  int_ty.name = tc_intern(u->prog, "long");
  tc_path k = lw_temp(fn);
  /* A range-for visiting the objects a container's pointers point to (per_object) visits
     each once: k counts the iterations and n, which the engine sets to the number of objects
     when it knows them, bounds the loop, so it runs once per object, not an unknown count of
     them (each object then leaves the loop as the body left it, not maybe as it was). */
  int visits = 0;
  if (by_iterator && !clang_Cursor_isNull(var)) {
    CXType vt = clang_getCursorType(var);
    CXType vet = clang_getNonReferenceType(vt);
    visits = lw_type_is_pointer_like(u, vet);
    if (visits && lw_type_is_reference(vt)) {
      var_write_scan w = {var, 1, 0};
      clang_visitChildren(body, find_var_write, &w);
      visits = !w.found;
    }
  }
  tc_path n = visits ? lw_temp(fn) : k;
  if (size >= 0 || visits) {
    tc_insn *in = lw_emit(fn, TC_I_ASSIGN, loc);
    in->has_dst = 1;
    in->dst = k;
    in->dst_type = int_ty;
    in->a = lw_opnd_int(0, int_ty);
  }
  if (visits) {
    tc_insn *in = lw_emit(fn, TC_I_HAVOC, loc);
    in->has_dst = 1;
    in->dst = n;
    in->dst_type = int_ty;
  }
  uint32_t head = lw_new_block(fn), bb = lw_new_block(fn), step = lw_new_block(fn),
           exit = lw_new_block(fn);
  tc_path empty;
  if (by_iterator && lw_std_range_empty(fn, &rp, loc, &empty)) {
    /* the first test is the container's empty(): a container known to hold an element runs
       the body once at least; any other goes through the loop's own test (a maybe-empty
       container skipping the loop straight to its exit would reach it apart from the paths
       through the loop's head, one more state past every range-for) */
    tc_type bool_ty = {0};
    bool_ty.cls = TC_TY_INT;
    bool_ty.name = tc_intern(u->prog, "bool");
    lw_branch_if_known(fn, lw_opnd_path(&empty, bool_ty), head, bb, loc);
  }
  lw_set_cur(fn, head);
  if (size >= 0 || visits) {
    tc_insn *in = lw_emit(fn, TC_I_BINOP, loc);
    in->opc = TC_OPC_LT;
    in->a = lw_opnd_path(&k, int_ty);
    in->b = visits ? lw_opnd_path(&n, int_ty) : lw_opnd_int(size, int_ty);
    in->has_dst = 1;
    in->dst = lw_temp(fn);
    in->dst_type = int_ty;
    lw_branch(fn, lw_opnd_path(&in->dst, int_ty), bb, exit, loc);
  } else {
    lw_branch(fn, lw_opnd_unknown((tc_type){0}), bb, exit, loc);
  }
  push_jump(fn, exit, step);
  lw_set_cur(fn, bb);
  if (!clang_Cursor_isNull(var)) {
    uint32_t id = lw_add_local(fn, var, 0, 0);
    lw_cmap_entry *e = lw_cmap_put(&fn->vars, var, NULL);
    if (e) {
      e->value = TC_ROOT_LOCAL;
      e->sym = id;
    }
    if (lw_is_decomposition(var)) lw_bind_names(fn, var, id);
    tc_path vp = lw_path_root(TC_ROOT_LOCAL, id);
    vp.spelling = fn->locals[id].name;
    CXType vt = clang_getCursorType(var);
    if (by_index) {
      tc_elem ix = {.kind = TC_ELEM_INDEX_ANY};
      if (size >= 0) {
        ix.index_root = k.root;
        ix.index_id = k.id;
      }
      tc_path ep = lw_path_extend(fn, &rp.path, ix);
      tc_opnd v = lw_opnd_path(&ep, lw_type(u, et));
      if (lw_type_is_reference(vt)) v.kind = TC_OPND_ADDR;
      lw_assign(fn, &vp, vt, v, loc);
    } else if (by_iterator) {
      /* the element visited is one of the container's: a pointer in it (a raw pointer, a
         smart pointer) may point to one of several objects (a std::vector of unique_ptr to
         layers of two classes), and the engine follows one state per object
         (per_object). A reference the body writes through stays the element's address;
         one it only reads names a hidden copy of the element, which the engine may narrow
         without narrowing what the container holds. */
      CXType et = clang_getNonReferenceType(vt);
      tc_path ep = lw_path_extend(fn, &it, (tc_elem){.kind = TC_ELEM_DEREF});
      tc_opnd v = lw_opnd_path(&ep, lw_type(u, et));
      tc_insn *visit = NULL;
      if (!lw_type_is_reference(vt)) {
        visit = lw_assign(fn, &vp, vt, v, loc);
      } else if (visits) {
        tc_path copy = lw_temp(fn);
        visit = lw_assign(fn, &copy, et, v, loc);
        v = lw_opnd_path(&copy, lw_type(u, et));
      }
      if (visit && visits) {
        visit->per_object = 1;
        visit->visit_index = k.id + 1;
        visit->visit_count = n.id + 1;
      }
      if (lw_type_is_reference(vt)) {
        v.kind = TC_OPND_ADDR;
        lw_assign(fn, &vp, vt, v, loc);
      }
    } else {
      lw_assign(fn, &vp, vt, lw_opnd_unknown(lw_type(u, vt)), loc);
    }
  }
  lw_stmt(fn, body);
  fn->n_jumps--;
  lw_set_cur(fn, step);
  if (size >= 0 || visits) {
    tc_insn *in = lw_emit(fn, TC_I_BINOP, loc);
    in->opc = TC_OPC_ADD;
    in->a = lw_opnd_path(&k, int_ty);
    in->b = lw_opnd_int(1, int_ty);
    in->has_dst = 1;
    in->dst = k;
    in->dst_type = int_ty;
  }
  lw_goto(fn, head, loc);
  lw_set_cur(fn, exit);
  if (by_iterator && !clang_Cursor_isNull(var) && lw_type_is_reference(clang_getCursorType(var))) {
    /* the loop replaced the elements it visited: the container's summary holds old and new
       values together, so after the loop what it holds is unknown */
    var_write_scan w = {var, 0, 0};
    clang_visitChildren(body, find_var_write, &w);
    if (w.found) {
      tc_insn *in = lw_emit(fn, TC_I_HAVOC, loc);
      in->has_dst = 1;
      in->dst = rp.path;
      in->dst_type = lw_type(u, rp.type);
    }
  }
}

/* try { … } catch (…) { … }: the try block, or any handler from the state the try began
   with (a throw may come from anywhere inside), all joining after the statement. */
static void try_stmt(lw_fn *fn, CXCursor s) {
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(s, &ch);
  tc_srcloc loc = lw_loc(fn->u, s);
  uint32_t join = lw_new_block(fn);
  for (uint32_t i = 0; i < ch.n; i++) {
    uint32_t here = lw_new_block(fn), next = i + 1 < ch.n ? lw_new_block(fn) : LW_NONE;
    if (next != LW_NONE) lw_branch(fn, lw_opnd_unknown((tc_type){0}), here, next, loc);
    else lw_set_cur(fn, here);
    lw_set_cur(fn, here);
    if (clang_getCursorKind(ch.v[i]) == CXCursor_CXXCatchStmt) {
      lw_cursors h;
      lw_cursors_init(&h);
      lw_children(ch.v[i], &h);
      for (uint32_t k = 0; k < h.n; k++) {
        if (clang_getCursorKind(h.v[k]) == CXCursor_VarDecl) {
          uint32_t id = lw_add_local(fn, h.v[k], 0, 0); /* the exception: unknown */
          lw_cmap_entry *e = lw_cmap_put(&fn->vars, h.v[k], NULL);
          if (e) {
            e->value = TC_ROOT_LOCAL;
            e->sym = id;
          }
        } else {
          lw_stmt(fn, h.v[k]);
        }
      }
      lw_cursors_free(&h);
    } else {
      lw_stmt(fn, ch.v[i]);
    }
    if (fn->cur != LW_NONE) lw_goto(fn, join, loc);
    if (next != LW_NONE) lw_set_cur(fn, next);
  }
  lw_cursors_free(&ch);
  lw_set_cur(fn, join);
}

/* Where a block ends: its closing brace. */
static tc_srcloc block_end(lw_unit *u, CXCursor s) {
  CXSourceLocation end = clang_getRangeEnd(clang_getCursorExtent(s));
  return lw_loc_range(u, clang_getRange(end, end));
}

static void stmt_impl(lw_fn *fn, CXCursor s) {
  enum CXCursorKind k = clang_getCursorKind(s);
  if (clang_isExpression(k)) {
    lw_expr(fn, s, LW_EFFECT);
    return;
  }
  switch ((int)k) {
  case CXCursor_CompoundStmt: {
    uint32_t mark = fn->n_dying;
    children_as_statements(fn, s);
    lw_run_dtors(fn, mark, UINT32_MAX, block_end(fn->u, s));
    fn->n_dying = mark;
    return;
  }
  case CXCursor_DeclStmt:
    decl_stmt(fn, s);
    return;
  case CXCursor_VarDecl: /* a condition's declaration: if (T d = f()), switch (int k = g()) */
    local_decl(fn, s);
    return;
  case CXCursor_IfStmt:
    if_stmt(fn, s);
    return;
  case CXCursor_WhileStmt:
    while_stmt(fn, s);
    return;
  case CXCursor_DoStmt:
    do_stmt(fn, s);
    return;
  case CXCursor_ForStmt:
    for_stmt(fn, s);
    return;
  case CXCursor_SwitchStmt:
    switch_stmt(fn, s);
    return;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    case_stmt(fn, s);
    return;
  case CXCursor_BreakStmt:
    if (fn->n_jumps && fn->jumps[fn->n_jumps - 1].break_blk != LW_NONE) {
      lw_run_dtors(fn, fn->jumps[fn->n_jumps - 1].dying_depth, UINT32_MAX, lw_loc(fn->u, s));
      lw_goto(fn, fn->jumps[fn->n_jumps - 1].break_blk, lw_loc(fn->u, s));
    }
    return;
  case CXCursor_ContinueStmt: {
    for (uint32_t i = fn->n_jumps; i-- > 0;) {
      if (fn->jumps[i].continue_blk != LW_NONE) {
        lw_run_dtors(fn, fn->jumps[i].dying_depth, UINT32_MAX, lw_loc(fn->u, s));
        lw_goto(fn, fn->jumps[i].continue_blk, lw_loc(fn->u, s));
        break;
      }
    }
    return;
  }
  case CXCursor_ReturnStmt:
    return_stmt(fn, s);
    return;
  case CXCursor_GotoStmt: {
    lw_cursors ch;
    lw_cursors_init(&ch);
    lw_children(s, &ch);
    if (ch.n >= 1) {
      tc_sym name = lw_intern_cx(fn->u, clang_getCursorSpelling(ch.v[0]));
      lw_goto(fn, label_block(fn, name), lw_loc(fn->u, s));
    }
    lw_cursors_free(&ch);
    return;
  }
  case CXCursor_IndirectGotoStmt: {
    /* goto *p: may reach any label whose address was taken; give up on the path */
    children_as_statements(fn, s);
    lw_terminate(fn, TC_T_UNREACHABLE, none_opnd(), lw_loc(fn->u, s));
    return;
  }
  case CXCursor_LabelStmt: {
    tc_sym name = lw_intern_cx(fn->u, clang_getCursorSpelling(s));
    lw_set_cur(fn, label_block(fn, name));
    children_as_statements(fn, s);
    return;
  }
  case CXCursor_NullStmt:
    return;
  case CXCursor_GCCAsmStmt:
  case CXCursor_MSAsmStmt:
    havoc_places(fn, s);
    return;
  case CXCursor_CXXForRangeStmt:
    range_for(fn, s);
    return;
  case CXCursor_CXXTryStmt:
    try_stmt(fn, s);
    return;
  default:
    /* OpenMP directives: their statement runs as written (one thread's view); anything else
       not modelled is counted */
    if (!((int)k >= CXCursor_OMPParallelDirective && (int)k <= CXCursor_LastStmt))
      fn->u->stats.unknown_stmts++;
    children_as_statements(fn, s);
    return;
  }
}

void lw_stmt(lw_fn *fn, CXCursor s) {
  if (lw_too_deep(fn)) return;
  fn->depth++;
  stmt_impl(fn, s);
  fn->depth--;
}
