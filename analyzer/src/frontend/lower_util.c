/* analyzer/src/frontend/lower_util.c — what every lowering file needs from libclang, cached per
 * unit: IR types for C types, record layouts (fields in order), absolute file names and source
 * locations, source text of expressions, integer constants, declaration USRs and whether a
 * callee is declared never to return. */
#include "frontend/lower_internal.h"

#include "base/path.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- stack depth ---- */

uintptr_t tc_lower_stack_floor(void) {
  pthread_attr_t attr;
  void *addr = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  int ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!ok || !addr || size <= 2 * LW_STACK_RESERVE) return 0;
  return (uintptr_t)addr + LW_STACK_RESERVE; /* the stack grows down towards addr */
}

int lw_too_deep(const lw_fn *fn) {
  if (fn->depth >= LW_MAX_DEPTH || fn->u->oom) return 1; /* out of memory: stop descending */
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  return fn->u->stack_floor && sp < fn->u->stack_floor;
}

/* ---- memory ---- */

/* Out of memory, the unit fails (tc_lower_tu returns -1, the caller reports the unit as not
   analyzed) and the process goes on: nothing here exits. */

/* Whether this allocation is one a test asks to fail (tc_lower_opts.fail_alloc_after). */
static int injected_failure(lw_unit *u) {
  unsigned long after = u->opts ? u->opts->fail_alloc_after : 0;
  return after && ++u->n_allocs > after;
}

void *lw_grow(lw_unit *u, void *arr, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap && arr) return arr;
  uint32_t c = *cap ? *cap : 8;
  while (c < need && c <= UINT32_MAX / 2) c *= 2;
  void *r = c >= need && (size_t)c <= SIZE_MAX / elem && !injected_failure(u)
                ? realloc(arr, (size_t)c * elem)
                : NULL;
  if (!r) {
    u->oom = 1;
    return arr;
  }
  *cap = c;
  return r;
}

void *lw_alloc(lw_unit *u, size_t bytes) {
  void *r = injected_failure(u) ? NULL : tc_arena_alloc(u->prog, bytes);
  if (!r) u->oom = 1;
  return r;
}

tc_sym lw_intern_cx(lw_unit *u, CXString s) {
  const char *c = clang_getCString(s);
  tc_sym r = c ? tc_intern(u->prog, c) : 0;
  clang_disposeString(s);
  return r;
}

/* ---- types ---- */

static CXType canon(CXType t) { return clang_getCanonicalType(t); }

int lw_type_is_integer(CXType t) {
  switch ((int)canon(t).kind) {
  case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char16:
  case CXType_Char32: case CXType_UShort: case CXType_UInt: case CXType_ULong:
  case CXType_ULongLong: case CXType_UInt128: case CXType_Char_S: case CXType_SChar:
  case CXType_WChar: case CXType_Short: case CXType_Int: case CXType_Long:
  case CXType_LongLong: case CXType_Int128: case CXType_Enum:
    return 1;
  default:
    return 0;
  }
}

static int type_is_unsigned(CXType c) {
  c = canon(c);
  switch ((int)c.kind) {
  case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char16:
  case CXType_Char32: case CXType_UShort: case CXType_UInt: case CXType_ULong:
  case CXType_ULongLong: case CXType_UInt128:
    return 1;
  case CXType_Enum:
    return type_is_unsigned(canon(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c))));
  default:
    return 0;
  }
}

int lw_type_is_unsigned(CXType t) { return type_is_unsigned(t); }

int lw_type_is_reference(CXType t) {
  enum CXTypeKind k = canon(t).kind;
  return k == CXType_LValueReference || k == CXType_RValueReference;
}

/* References are pointers that are never NULL: `T &` is classified, named and walked like
   `T *` (the front end takes the address where one is bound and dereferences where one is
   used). */
int lw_type_is_pointer(CXType t) {
  return canon(t).kind == CXType_Pointer || lw_type_is_reference(t);
}
int lw_type_is_record(CXType t) { return canon(t).kind == CXType_Record; }

int lw_type_is_array(CXType t) {
  switch ((int)canon(t).kind) {
  case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
  case CXType_DependentSizedArray:
    return 1;
  default:
    return 0;
  }
}

static int is_float_kind(enum CXTypeKind k) {
  switch ((int)k) {
  case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Half:
  case CXType_Float16: case CXType_Float128: case CXType_BFloat16: case CXType_Ibm128:
    return 1;
  default:
    return 0;
  }
}

tc_type_class lw_type_class(CXType t) {
  CXType c = canon(t);
  if (c.kind == CXType_Atomic) c = canon(clang_Type_getValueType(c));
  if (lw_type_is_integer(c)) return TC_TY_INT;
  if (is_float_kind(c.kind)) return TC_TY_FLOAT;
  if (c.kind == CXType_Pointer || lw_type_is_reference(c)) {
    enum CXTypeKind pk = canon(clang_getPointeeType(c)).kind;
    return pk == CXType_FunctionProto || pk == CXType_FunctionNoProto ? TC_TY_FUNCTION_POINTER
                                                                       : TC_TY_POINTER;
  }
  if (c.kind == CXType_Record) return TC_TY_RECORD;
  if (lw_type_is_array(c)) return TC_TY_ARRAY;
  return TC_TY_OTHER;
}

int lw_same_record(CXType a, CXType b) {
  CXType ca = canon(a), cb = canon(b);
  if (ca.kind != CXType_Record || cb.kind != CXType_Record) return 0;
  return clang_equalCursors(clang_getTypeDeclaration(ca), clang_getTypeDeclaration(cb));
}

/* Peels typedefs, elaborated and attributed sugar until a pointer or array shows, keeping the
   sugar of what lies below (so the pointee of `tensor_ptr` spells "dt_tensor"). */
static CXType structural(CXType t) {
  for (int i = 0; i < 32; i++) {
    switch ((int)t.kind) {
    case CXType_Typedef:
      t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
      break;
    case CXType_Elaborated:
      t = clang_Type_getNamedType(t);
      break;
    case CXType_Attributed:
      t = clang_Type_getModifiedType(t);
      break;
    case CXType_Atomic:
      t = clang_Type_getValueType(t);
      break;
    default:
      return t;
    }
    if (t.kind == CXType_Invalid) return t;
  }
  return t;
}

static CXType element_type(CXType t) {
  CXType s = structural(t);
  if (s.kind == CXType_Pointer || lw_type_is_reference(s)) return clang_getPointeeType(s);
  if (lw_type_is_array(s)) return clang_getArrayElementType(s);
  CXType c = canon(t);
  if (c.kind == CXType_Pointer || lw_type_is_reference(c)) return clang_getPointeeType(c);
  return clang_getArrayElementType(c);
}

static tc_sym type_spelling(lw_unit *u, CXType t) {
  if (t.kind == CXType_Invalid) return 0; /* libclang does not guard a null type */
  return lw_intern_cx(u, clang_getTypeSpelling(clang_getUnqualifiedType(t)));
}

static tc_sym record_name(lw_unit *u, CXType c /* canonical record */) {
  CXCursor d = clang_getTypeDeclaration(c);
  CXString s = clang_getCursorSpelling(d);
  const char *str = clang_getCString(s);
  tc_sym r = 0;
  if (str && *str) r = tc_intern(u->prog, str);
  clang_disposeString(s);
  if (!r) r = type_spelling(u, c);
  return r;
}

static tc_type compute_type(lw_unit *u, CXType t) {
  tc_type ty = {0};
  ty.cls = lw_type_class(t);
  ty.name = type_spelling(u, t);
  CXType c = canon(t);
  if (c.kind == CXType_Atomic) c = canon(clang_Type_getValueType(c));
  if (ty.cls == TC_TY_POINTER || ty.cls == TC_TY_ARRAY || ty.cls == TC_TY_FUNCTION_POINTER)
    ty.pointee_name = type_spelling(u, element_type(t));
  CXType b = c;
  while (b.kind == CXType_Pointer || lw_type_is_reference(b) || lw_type_is_array(b)) {
    ty.ptr_depth++;
    b = canon(lw_type_is_array(b) ? clang_getArrayElementType(b) : clang_getPointeeType(b));
    if (b.kind == CXType_Invalid) break;
    if (ty.ptr_depth > 64) break;
  }
  if (b.kind == CXType_Record) ty.base_record = record_name(u, b);
  if (ty.ptr_depth <= 1 && b.kind == CXType_Record) ty.record_name = ty.base_record;
  return ty;
}

tc_type lw_type(lw_unit *u, CXType t) {
  if (t.kind == CXType_Invalid) return (tc_type){0};
  uint32_t *slot = lw_pmap_put(&u->types, t.data[0], (const void *)(uintptr_t)t.kind);
  if (!slot) {
    u->oom = 1;
    return (tc_type){0};
  }
  if (*slot != LW_NONE) return u->type_vals[*slot];
  uint32_t idx = u->n_type_vals;
  *slot = idx; /* set before compute_type: it does not touch the map */
  tc_type ty = compute_type(u, t);
  u->type_vals = lw_grow(u, u->type_vals, &u->cap_type_vals, idx + 1, sizeof *u->type_vals);
  if (idx >= u->cap_type_vals) { /* out of memory: not cached */
    *slot = LW_NONE;
    return ty;
  }
  u->type_vals[idx] = ty;
  u->n_type_vals = idx + 1;
  return ty;
}

/* ---- records ---- */

typedef struct field_collect {
  lw_unit *u;
  lw_field *v;
  uint32_t n, cap;
} field_collect;

static enum CXVisitorResult collect_field(CXCursor c, CXClientData data) {
  field_collect *fc = data;
  CXString s = clang_getCursorSpelling(c);
  const char *name = clang_getCString(s);
  int unnamed = !name || !*name ||
                clang_Cursor_isAnonymousRecordDecl(clang_getTypeDeclaration(clang_getCursorType(c)));
  if (unnamed && clang_Cursor_isBitField(c)) { /* padding bit-field: not initialized */
    clang_disposeString(s);
    return CXVisit_Continue;
  }
  fc->v = lw_grow(fc->u, fc->v, &fc->cap, fc->n + 1, sizeof *fc->v);
  if (fc->n >= fc->cap) {
    clang_disposeString(s);
    return CXVisit_Break;
  }
  lw_field *f = &fc->v[fc->n++];
  f->name = unnamed ? 0 : tc_intern(fc->u->prog, name);
  f->type = clang_getCursorType(c);
  f->decl = c;
  clang_disposeString(s);
  return CXVisit_Continue;
}

const lw_record *lw_record_of(lw_unit *u, CXType t) {
  CXType c = canon(t);
  if (c.kind != CXType_Record) return NULL;
  CXCursor decl = clang_getTypeDeclaration(c);
  uint32_t *slot = lw_pmap_put(&u->records, decl.data[0], decl.data[1]);
  if (!slot) {
    u->oom = 1;
    return NULL;
  }
  if (*slot != LW_NONE) return u->record_vals[*slot];
  field_collect fc = {u, NULL, 0, 0};
  clang_Type_visitFields(c, collect_field, &fc);
  uint32_t idx = u->n_record_vals;
  u->record_vals = lw_grow(u, u->record_vals, &u->cap_record_vals, idx + 1,
                           sizeof *u->record_vals);
  lw_record *r = idx < u->cap_record_vals ? lw_alloc(u, sizeof *r) : NULL;
  if (!r) {
    free(fc.v);
    return NULL;
  }
  u->record_vals[idx] = r;
  r->n_fields = fc.n;
  r->fields = NULL;
  if (fc.n && (r->fields = lw_alloc(u, fc.n * sizeof *r->fields)) != NULL)
    memcpy(r->fields, fc.v, fc.n * sizeof *r->fields);
  if (!r->fields) r->n_fields = 0;
  free(fc.v);
  r->is_union = clang_getCursorKind(decl) == CXCursor_UnionDecl;
  u->n_record_vals = idx + 1;
  *slot = idx;
  return r;
}

/* ---- files and locations ---- */

static tc_sym file_path_sym(lw_unit *u, CXFile f) {
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  char buf[PATH_MAX * 2];
  buf[0] = '\0';
  if (name && name[0] == '/') {
    snprintf(buf, sizeof buf, "%s", name);
  } else if (name) {
    char cwd[PATH_MAX];
    const char *dir = u->opts && u->opts->working_dir ? u->opts->working_dir
                                                       : getcwd(cwd, sizeof cwd);
    snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "", name);
  }
  clang_disposeString(s);
  tc_path_normalize(buf);
  return tc_intern(u->prog, buf);
}

static const lw_file *file_of(lw_unit *u, CXFile f) {
  uint32_t *slot = lw_pmap_put(&u->files, f, NULL);
  if (!slot) {
    u->oom = 1;
    return &u->no_file;
  }
  if (*slot != LW_NONE) return &u->file_vals[*slot];
  uint32_t idx = u->n_file_vals;
  u->file_vals = lw_grow(u, u->file_vals, &u->cap_file_vals, idx + 1, sizeof *u->file_vals);
  if (idx >= u->cap_file_vals) return &u->no_file;
  *slot = idx;
  lw_file *lf = &u->file_vals[idx];
  lf->path = file_path_sym(u, f);
  lf->size = 0;
  lf->text = clang_getFileContents(u->tu, f, &lf->size);
  u->n_file_vals = idx + 1;
  return lf;
}

tc_srcloc lw_loc_range(lw_unit *u, CXSourceRange r) {
  tc_srcloc l = {0};
  CXFile f = NULL, f2 = NULL;
  unsigned line, col, off, line2, col2, off2;
  clang_getFileLocation(clang_getRangeStart(r), &f, &line, &col, &off);
  if (!f) return l;
  l.file = file_of(u, f)->path;
  l.line = line;
  l.col = col;
  clang_getFileLocation(clang_getRangeEnd(r), &f2, &line2, &col2, &off2);
  if (f2 && clang_File_isEqual(f, f2) && off2 > off) {
    l.end_line = line2;
    l.end_col = col2;
  }
  return l;
}

tc_srcloc lw_loc(lw_unit *u, CXCursor c) { return lw_loc_range(u, clang_getCursorExtent(c)); }

int lw_in_macro(CXCursor c) {
  CXSourceLocation s = clang_getRangeStart(clang_getCursorExtent(c));
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getSpellingLocation(s, &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(s, &f2, NULL, NULL, &o2);
  if (!f1 || !f2) return f1 != f2;
  return o1 != o2 || !clang_File_isEqual(f1, f2);
}

/* Whether the end of c's extent is written in a macro (its last token comes from an expansion). */
static int end_in_macro(CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXSourceLocation e = clang_getRangeEnd(r);
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getSpellingLocation(e, &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(e, &f2, NULL, NULL, &o2);
  if (!f1 || !f2) return f1 != f2;
  return o1 != o2 || !clang_File_isEqual(f1, f2);
}

tc_srcloc *lw_arg_locs(lw_unit *u, CXCursor call, uint32_t n) {
  if (!n || lw_in_macro(call)) return NULL;
  tc_srcloc *locs = lw_alloc(u, n * sizeof *locs);
  if (!locs) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    CXCursor a = clang_Cursor_getArgument(call, i);
    if (clang_Cursor_isNull(a) || lw_in_macro(a) || end_in_macro(a)) continue; /* stays zero */
    locs[i] = lw_loc(u, a);
    if (!locs[i].end_line) locs[i] = (tc_srcloc){0};
  }
  return locs;
}

/* The base B of an argument written `B->member` (parentheses and implicit conversions aside),
   B a pointer to a non-const object, or a null cursor. */
static CXCursor arrow_base(CXCursor arg) {
  CXCursor m = lw_strip(arg);
  if (clang_getCursorKind(m) != CXCursor_MemberRefExpr) return clang_getNullCursor();
  lw_cursors ch;
  lw_cursors_init(&ch);
  lw_children(m, &ch);
  CXCursor base = clang_getNullCursor();
  for (uint32_t i = 0; i < ch.n && clang_Cursor_isNull(base); i++)
    if (clang_isExpression(clang_getCursorKind(ch.v[i]))) base = ch.v[i];
  lw_cursors_free(&ch);
  if (clang_Cursor_isNull(base)) return base;
  CXType t = canon(clang_getCursorType(base));
  /* a pointer to const cannot be handed to a setter: no fix names it */
  if (t.kind != CXType_Pointer || clang_isConstQualifiedType(clang_getPointeeType(t)))
    return clang_getNullCursor();
  return base;
}

tc_srcloc *lw_arg_base_locs(lw_unit *u, CXCursor call, uint32_t n, const tc_srcloc *arg_locs) {
  if (!arg_locs) return NULL;
  tc_srcloc *locs = NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (!arg_locs[i].end_line) continue;
    CXCursor b = arrow_base(clang_Cursor_getArgument(call, i));
    if (clang_Cursor_isNull(b) || lw_in_macro(b) || end_in_macro(b)) continue;
    tc_srcloc l = lw_loc(u, b);
    if (!l.end_line || l.file != arg_locs[i].file) continue;
    if (!locs && !(locs = lw_alloc(u, n * sizeof *locs))) return NULL;
    locs[i] = l;
  }
  return locs;
}

enum { LW_MAX_SPELLING = 160 };

tc_sym lw_spelling_text(lw_unit *u, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f = NULL, f2 = NULL;
  unsigned off = 0, off2 = 0;
  clang_getFileLocation(clang_getRangeStart(r), &f, NULL, NULL, &off);
  clang_getFileLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &off2);
  if (!f || !f2 || !clang_File_isEqual(f, f2) || off2 <= off) return 0;
  const lw_file *lf = file_of(u, f);
  if (!lf->text || off2 > lf->size) return 0;
  char buf[LW_MAX_SPELLING + 4];
  size_t n = 0;
  int space = 0;
  for (unsigned i = off; i < off2 && n < LW_MAX_SPELLING; i++) {
    char ch = lf->text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      space = n > 0;
      continue;
    }
    if (space) buf[n++] = ' ';
    space = 0;
    buf[n++] = ch;
  }
  return tc_intern_n(u->prog, buf, n);
}

/* ---- constants ---- */

int lw_eval_int(CXCursor c, int64_t *out) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return 0;
  int ok = 0;
  if (clang_EvalResult_getKind(r) == CXEval_Int) {
    if (clang_EvalResult_isUnsignedInt(r))
      *out = (int64_t)clang_EvalResult_getAsUnsigned(r);
    else
      *out = clang_EvalResult_getAsLongLong(r);
    ok = 1;
  }
  clang_EvalResult_dispose(r);
  return ok;
}

int64_t lw_truncate(CXType t, int64_t v) {
  CXType c = canon(t);
  if (c.kind == CXType_Bool) return v != 0;
  long long size = clang_Type_getSizeOf(c);
  if (size <= 0 || size >= 8) return v;
  unsigned bits = (unsigned)size * 8;
  uint64_t mask = ((uint64_t)1 << bits) - 1;
  uint64_t uv = (uint64_t)v & mask;
  if (type_is_unsigned(c)) return (int64_t)uv;
  if (uv & ((uint64_t)1 << (bits - 1))) uv |= ~mask;
  return (int64_t)uv;
}

/* ---- declarations ---- */

enum { DECL_USR = 1, DECL_NR_KNOWN = 2, DECL_NR = 4 };

/* clang names entities without external linkage (static functions and variables, function-
   local statics) by their file's base name: "c:util.c@F@norm". Two util.c in different folders
   would collide across units, so the base name is replaced by the absolute path of the file
   that first declares the entity (the same in every unit that sees it, headers included). */
static tc_sym qualified_usr(lw_unit *u, CXCursor decl, const char *usr) {
  const char *at = strchr(usr, '@');
  if (strncmp(usr, "c:", 2) != 0 || !at || at == usr + 2) return tc_intern(u->prog, usr);
  CXFile f = NULL;
  clang_getFileLocation(clang_getCursorLocation(clang_getCanonicalCursor(decl)), &f, NULL, NULL,
                        NULL);
  if (!f) return tc_intern(u->prog, usr);
  const char *path = tc_str(u->prog, file_of(u, f)->path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t seg = (size_t)(at - (usr + 2));
  if (strlen(base) != seg || strncmp(base, usr + 2, seg) != 0) return tc_intern(u->prog, usr);
  size_t n = 2 + strlen(path) + strlen(at) + 1;
  char *q = malloc(n);
  if (!q) {
    u->oom = 1;
    return 0;
  }
  snprintf(q, n, "c:%s%s", path, at);
  tc_sym r = tc_intern(u->prog, q);
  free(q);
  return r;
}

/* An object of static storage without external linkage (a `static` global, a function-local
   static) is one object per translation unit, even when a header declares it (a `static`
   global in a header, a static local of a `static inline` header function): its symbol is
   qualified by the unit's main file ("c:/abs/h.h@x#unit:/abs/a.c"), so two units' copies stay
   apart. Functions need no such suffix: calls already reach the caller's own unit's definition
   first (engine/call.c fn_lookup). This is the one place that makes statics per unit. */
static int is_per_unit_object(CXCursor decl) {
  if (clang_getCursorKind(decl) != CXCursor_VarDecl) return 0;
  if (clang_Cursor_getStorageClass(decl) != CX_SC_Static) return 0;
  enum CXLinkageKind l = clang_getCursorLinkage(decl);
  return l == CXLinkage_Internal || l == CXLinkage_NoLinkage;
}

static tc_sym per_unit_usr(lw_unit *u, tc_sym usr) {
  const char *base = tc_str(u->prog, usr), *unit = tc_str(u->prog, u->unit.file);
  size_t n = strlen(base) + strlen(unit) + sizeof "#unit:";
  char *q = malloc(n);
  if (!q) { /* out of memory: the unit fails (u->oom), the symbol stays as it was */
    u->oom = 1;
    return usr;
  }
  snprintf(q, n, "%s#unit:%s", base, unit);
  tc_sym r = tc_intern(u->prog, q);
  free(q);
  return r;
}

tc_sym lw_decl_usr(lw_unit *u, CXCursor decl) {
  lw_cmap_entry *e = lw_cmap_put(&u->decls, decl, NULL);
  if (!e) {
    u->oom = 1;
    return 0;
  }
  if (e->value & DECL_USR) return e->sym;
  CXString s = clang_getCursorUSR(decl);
  const char *str = clang_getCString(s);
  tc_sym usr = str && *str ? qualified_usr(u, decl, str) : 0; /* leaves u->decls alone */
  if (usr && u->unit.file && is_per_unit_object(decl)) usr = per_unit_usr(u, usr);
  clang_disposeString(s);
  e->sym = usr;
  e->value |= DECL_USR;
  return usr;
}

typedef struct attr_scan {
  lw_unit *u;
  int found;
} attr_scan;

static enum CXChildVisitResult scan_attr(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  attr_scan *as = data;
  if (!clang_isAttribute(clang_getCursorKind(c))) return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f = NULL;
  unsigned off = 0, off2 = 0;
  clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, &off);
  clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &off2);
  if (!f) return CXChildVisit_Continue;
  const lw_file *lf = file_of(as->u, f);
  if (!lf->text || off >= lf->size) return CXChildVisit_Continue;
  /* only the attribute's own, short text: the spelling range of a macro-spelled attribute
     (getenv's __nonnull, __wur) can span whole stretches of <sys/cdefs.h>, noreturn included */
  if (off2 <= off || off2 > lf->size || off2 - off > 64) return CXChildVisit_Continue;
  for (unsigned i = off; i + 8 <= off2; i++) {
    if (memcmp(lf->text + i, "noreturn", 8) == 0 || memcmp(lf->text + i, "Noreturn", 8) == 0) {
      as->found = 1;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Continue;
}

static int compute_noreturn(lw_unit *u, CXCursor decl) {
  CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
  const char *t = clang_getCString(ts);
  int nr = t && strstr(t, "noreturn") != NULL;
  clang_disposeString(ts);
  if (nr) return 1;
  attr_scan as = {u, 0};
  clang_visitChildren(decl, scan_attr, &as);
  /* functions that never return although their declarations do not say so are named by the
     rules ("noreturn", rules/libc.json): the engine ends the path at their calls */
  return as.found;
}

int lw_is_noreturn(lw_unit *u, CXCursor decl) {
  lw_cmap_entry *e = lw_cmap_put(&u->decls, decl, NULL);
  if (!e) {
    u->oom = 1;
    return 0;
  }
  if (e->value & DECL_NR_KNOWN) return (e->value & DECL_NR) != 0;
  int nr = compute_noreturn(u, decl); /* does not touch u->decls */
  e->value |= DECL_NR_KNOWN | (nr ? DECL_NR : 0);
  return nr;
}

/* Parens, and implicit conversions that keep the value as it is (qualifiers, pointer to
   pointer, same record). Decays, integer and null-pointer conversions are kept. */
CXCursor lw_strip(CXCursor c) {
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
      CXType to = canon(clang_getCursorType(c)), from = canon(clang_getCursorType(next));
      int keep = (to.kind == CXType_Pointer && from.kind == CXType_Pointer) ||
                 (to.kind == CXType_Record && from.kind == CXType_Record) ||
                 clang_equalTypes(clang_getUnqualifiedType(to), clang_getUnqualifiedType(from));
      if (!keep) return c;
    }
    c = next;
  }
  return c;
}
