/* analyzer/src/frontend/lower_dtor.c — C++ destructors where objects die: a local whose class
 * has a destructor the program defines (or whose members' classes do) is registered when it
 * is declared, and the destructor is called on it, newest first, wherever its scope is left —
 * the end of the block, a return (after the returned value is taken), a break or continue out
 * of it. A throw ends its path (docs/frontend.md), so unwinding runs nothing; temporaries'
 * destructors are not exposed by libclang's C API and are not called. */
#include <stdlib.h>

#include "frontend/lower_internal.h"

/* How deep member objects are followed for a class whose destructor is implicit. */
#define DTOR_MEMBER_DEPTH 4

typedef struct dtor_find {
  CXCursor dtor;
} dtor_find;

static enum CXChildVisitResult find_dtor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_Destructor) return CXChildVisit_Continue;
  ((dtor_find *)d)->dtor = c;
  return CXChildVisit_Break;
}

/* The destructor of class type t that runs code of the program: declared there (not in a
   system header), not defaulted; null otherwise. */
static CXCursor user_dtor(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record) return clang_getNullCursor();
  CXCursor decl = clang_getTypeDeclaration(c);
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
    return clang_getNullCursor();
  dtor_find f = {clang_getNullCursor()};
  clang_visitChildren(decl, find_dtor, &f);
  if (clang_Cursor_isNull(f.dtor) || clang_CXXMethod_isDefaulted(f.dtor))
    return clang_getNullCursor();
  return f.dtor;
}

typedef struct member_scan {
  int found;
  int depth;
} member_scan;

static int dies_with_code(CXType t, int depth);

static enum CXVisitorResult member_dies(CXCursor c, CXClientData d) {
  member_scan *m = d;
  if (dies_with_code(clang_getCursorType(c), m->depth)) {
    m->found = 1;
    return CXVisit_Break;
  }
  return CXVisit_Continue;
}

/* Whether destroying an object of type t runs program code: its own destructor, or (an
   implicit or defaulted one) a member's. */
static int dies_with_code(CXType t, int depth) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record || depth <= 0) return 0;
  if (!clang_Cursor_isNull(user_dtor(c))) return 1;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getTypeDeclaration(c))))
    return 0;
  member_scan m = {0, depth - 1};
  clang_Type_visitFields(c, member_dies, &m);
  return m.found;
}

void lw_note_dying(lw_fn *fn, uint32_t local, CXType type) {
  if (lw_type_is_reference(type) || !dies_with_code(type, DTOR_MEMBER_DEPTH)) return;
  fn->dying = lw_grow(fn->u, fn->dying, &fn->cap_dying, fn->n_dying + 1, sizeof *fn->dying);
  if (fn->n_dying >= fn->cap_dying) return;
  fn->dying[fn->n_dying].local = local;
  fn->dying[fn->n_dying].type = type;
  fn->n_dying++;
}

typedef struct member_list {
  CXCursor *v;
  uint32_t n, cap;
  lw_unit *u;
} member_list;

static enum CXVisitorResult list_member(CXCursor c, CXClientData d) {
  member_list *l = d;
  l->v = lw_grow(l->u, l->v, &l->cap, l->n + 1, sizeof *l->v);
  if (l->n < l->cap) l->v[l->n++] = c;
  return CXVisit_Continue;
}

/* Destroys the object at path p of type t: its destructor (which destroys its members
   itself: its body is lowered with them), or, for an implicit one, its members', last
   declared first. */
static void destroy(lw_fn *fn, const tc_path *p, CXType t, int depth, tc_srcloc loc) {
  lw_unit *u = fn->u;
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record || depth <= 0) return;
  CXCursor dtor = user_dtor(c);
  if (!clang_Cursor_isNull(dtor)) {
    lw_note_callee(u, dtor);
    tc_opnd *args = lw_alloc(u, sizeof *args);
    if (!args) return;
    tc_type ty = lw_type(u, t);
    args[0] = lw_opnd_path(p, ty);
    args[0].kind = TC_OPND_ADDR;
    args[0].type.cls = TC_TY_POINTER;
    args[0].type.pointee_name = ty.name;
    args[0].type.ptr_depth = ty.ptr_depth + 1;
    tc_insn *in = lw_emit(fn, TC_I_CALL, loc);
    in->callee.name = lw_callee_name(u, dtor);
    in->callee.usr = lw_decl_usr(u, dtor);
    in->n_args = 1;
    in->args = args;
    return;
  }
  if (!dies_with_code(c, depth)) return;
  member_list l = {NULL, 0, 0, u};
  clang_Type_visitFields(c, list_member, &l);
  for (uint32_t i = l.n; i-- > 0;) {
    CXType ft = clang_getCursorType(l.v[i]);
    if (lw_type_is_reference(ft)) continue;
    tc_path fp = lw_path_extend(fn, p, (tc_elem){.kind = TC_ELEM_FIELD,
                                                 .field = lw_intern_cx(u, clang_getCursorSpelling(l.v[i]))});
    destroy(fn, &fp, ft, depth - 1, loc);
  }
  free(l.v);
}

void lw_run_dtors(lw_fn *fn, uint32_t depth, uint32_t spared, tc_srcloc loc) {
  if (fn->cur == LW_NONE) return; /* unreachable here */
  for (uint32_t i = fn->n_dying; i-- > depth;) {
    uint32_t id = fn->dying[i].local;
    if (id >= fn->n_locals || id == spared) continue;
    tc_path p = lw_path_root(TC_ROOT_LOCAL, id);
    p.spelling = fn->locals[id].name;
    destroy(fn, &p, fn->dying[i].type, DTOR_MEMBER_DEPTH, loc);
  }
}
