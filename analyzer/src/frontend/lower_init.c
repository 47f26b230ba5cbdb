/* analyzer/src/frontend/lower_init.c — initializers → IR. libclang shows the syntactic form of
 * initializer lists, so this file follows C's rules itself: positional members in order,
 * designators (.field, [index], nested, into anonymous members), brace elision, unions, string
 * literals for char arrays. The object is first reset (TC_I_AGGREGATE), then each initialized
 * scalar or whole-struct member is assigned. */
#include "frontend/lower_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct init_frame {
  lw_place place;
  const lw_record *rec; /* record frames */
  int is_array;
  long long array_size; /* -1: unknown */
  CXType elem_type;
  uint32_t next; /* member being initialized: field index or array index */
  int union_done;
} init_frame;

typedef struct init_stack {
  init_frame *v;
  uint32_t n, cap;
} init_stack;

static void list_into(lw_fn *fn, CXCursor list, const lw_place *dst);

static int is_aggregate_type(CXType t) { return lw_type_is_record(t) || lw_type_is_array(t); }

static init_frame frame_for(lw_fn *fn, const lw_place *p) {
  init_frame f;
  memset(&f, 0, sizeof f);
  f.place = *p;
  CXType c = clang_getCanonicalType(p->type);
  if (c.kind == CXType_Record) {
    f.rec = lw_record_of(fn->u, c);
  } else if (lw_type_is_array(c)) {
    f.is_array = 1;
    f.array_size = clang_getArraySize(c);
    f.elem_type = clang_getArrayElementType(c);
  }
  return f;
}

static int frame_exhausted(const init_frame *f) {
  if (f->is_array) return f->array_size >= 0 && (long long)f->next >= f->array_size;
  if (!f->rec) return f->next >= 1;
  if (f->rec->is_union && f->union_done) return 1;
  return f->next >= f->rec->n_fields;
}

/* The place and type of the frame's current member. */
static lw_place member(lw_fn *fn, const init_frame *f) {
  lw_place m;
  if (f->is_array) {
    tc_elem e = {.kind = TC_ELEM_INDEX, .index = (int64_t)f->next};
    m.path = lw_path_extend(fn, &f->place.path, e);
    m.type = f->elem_type;
    return m;
  }
  if (!f->rec) return f->place;
  const lw_field *fd = &f->rec->fields[f->next];
  m.type = fd->type;
  if (fd->name) {
    tc_elem e = {.kind = TC_ELEM_FIELD, .field = fd->name};
    m.path = lw_path_extend(fn, &f->place.path, e);
  } else {
    m.path = f->place.path; /* anonymous member: its fields belong to the parent */
  }
  return m;
}

static void push(lw_fn *fn, init_stack *st, init_frame f) {
  st->v = lw_grow(fn->u, st->v, &st->cap, st->n + 1, sizeof *st->v);
  if (st->n < st->cap) st->v[st->n++] = f; /* out of memory: not pushed, the unit fails */
}

static void advance(init_frame *f) {
  f->next++;
  if (f->rec && f->rec->is_union) f->union_done = 1;
}

/* Finds field `name` among rec's fields, looking into anonymous members; pushes a frame per
   anonymous member traversed and leaves the innermost frame's next at the field. */
static int designate_field(lw_fn *fn, init_stack *st, tc_sym name, int depth) {
  init_frame *top = &st->v[st->n - 1];
  if (!top->rec || depth > 16) return 0;
  for (uint32_t i = 0; i < top->rec->n_fields; i++) {
    if (top->rec->fields[i].name == name) {
      top->next = i;
      top->union_done = 0;
      return 1;
    }
  }
  for (uint32_t i = 0; i < top->rec->n_fields; i++) {
    const lw_field *fd = &top->rec->fields[i];
    if (fd->name || !lw_type_is_record(fd->type)) continue;
    top->next = i;
    lw_place m = member(fn, top);
    uint32_t saved = st->n;
    push(fn, st, frame_for(fn, &m));
    if (designate_field(fn, st, name, depth + 1)) return 1;
    st->n = saved;
    top = &st->v[st->n - 1];
  }
  return 0;
}

/* A designated initializer (.a.b[2] = v): libclang shows it as an unexposed expression of type
   void whose children are the designators followed by the value. */
static int is_designated(CXCursor c, lw_cursors *ch) {
  if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) return 0;
  if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Void) return 0;
  lw_children(c, ch);
  return ch->n >= 2;
}

static int is_float_literal(CXCursor c) {
  CXCursor s = lw_strip(c);
  for (int guard = 0; guard < 8; guard++) {
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_FloatingLiteral || k == CXCursor_IntegerLiteral) return 1;
    if (k == CXCursor_UnaryOperator || k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) {
      lw_cursors ch;
      lw_cursors_init(&ch);
      lw_children(s, &ch);
      int one = ch.n == 1;
      CXCursor next = one ? ch.v[0] : s;
      lw_cursors_free(&ch);
      if (!one) return 0;
      s = next;
      continue;
    }
    return 0;
  }
  return 0;
}

/* Initializes the current member of the stack's top frame with value v (brace elision pushes
   frames until v fits). */
static void init_member(lw_fn *fn, init_stack *st, CXCursor v) {
  CXType vt = clang_getCursorType(v);
  for (int guard = 0; guard < 64; guard++) {
    init_frame *top = &st->v[st->n - 1];
    lw_place m = member(fn, top);
    enum CXCursorKind vk = clang_getCursorKind(lw_strip(v));
    if (vk == CXCursor_InitListExpr) {
      list_into(fn, lw_strip(v), &m);
      advance(top);
      return;
    }
    if (lw_type_is_record(m.type) && !lw_same_record(m.type, vt) &&
        lw_function_from_callable(fn, v, &m)) { /* a std::function member from a lambda */
      advance(top);
      return;
    }
    if (lw_type_is_record(m.type) && !lw_same_record(m.type, vt) &&
        lw_is_class_with_constructors(m.type)) { /* constructed from v: not followed */
      lw_expr(fn, v, LW_EFFECT);
      lw_assign(fn, &m.path, m.type, lw_opnd_unknown(lw_type(fn->u, m.type)), lw_loc(fn->u, v));
      advance(top);
      return;
    }
    if (lw_type_is_record(m.type) && !lw_same_record(m.type, vt)) {
      init_frame f = frame_for(fn, &m);
      if (!frame_exhausted(&f)) {
        push(fn, st, f);
        continue;
      }
    } else if (lw_type_is_array(m.type)) {
      if (vk == CXCursor_StringLiteral || lw_type_is_array(vt)) {
        lw_assign(fn, &m.path, m.type, lw_opnd_unknown(lw_type(fn->u, m.type)), lw_loc(fn->u, v));
        advance(top);
        return;
      }
      init_frame f = frame_for(fn, &m);
      if (!frame_exhausted(&f)) {
        push(fn, st, f);
        continue;
      }
    }
    if (lw_type_class(m.type) == TC_TY_FLOAT && is_float_literal(v)) {
      advance(top); /* float constants are not tracked; the reset already wrote the slot */
      return;
    }
    lw_expr_into(fn, v, &m);
    advance(top);
    return;
  }
  lw_expr(fn, v, LW_EFFECT);
}

static void designated(lw_fn *fn, init_stack *st, const lw_cursors *ch) {
  st->n = 1;
  CXCursor value = ch->v[ch->n - 1];
  for (uint32_t i = 0; i + 1 < ch->n; i++) {
    CXCursor d = ch->v[i];
    init_frame *top = &st->v[st->n - 1];
    int ok = 0;
    if (clang_getCursorKind(d) == CXCursor_MemberRef) {
      tc_sym name = lw_intern_cx(fn->u, clang_getCursorSpelling(d));
      ok = name && designate_field(fn, st, name, 0);
    } else if (top->is_array) {
      int64_t idx;
      if (lw_eval_int(d, &idx) && idx >= 0 && idx <= UINT32_MAX) {
        top->next = (uint32_t)idx;
        ok = 1;
      }
    }
    if (!ok) {
      lw_expr(fn, value, LW_EFFECT);
      return;
    }
    if (i + 2 < ch->n) { /* more designators: descend into the member */
      top = &st->v[st->n - 1];
      lw_place m = member(fn, top);
      push(fn, st, frame_for(fn, &m));
    }
  }
  init_member(fn, st, value);
}

static void list_into(lw_fn *fn, CXCursor list, const lw_place *dst) {
  lw_cursors elems, ch;
  lw_cursors_init(&elems);
  lw_cursors_init(&ch);
  lw_children(list, &elems);
  if (!is_aggregate_type(dst->type)) { /* braces around a scalar: { v } */
    for (uint32_t i = 0; i < elems.n; i++) {
      if (i == 0) lw_init(fn, elems.v[0], dst);
      else lw_expr(fn, elems.v[i], LW_EFFECT);
    }
    lw_cursors_free(&elems);
    return;
  }
  init_stack st = {0};
  push(fn, &st, frame_for(fn, dst));
  for (uint32_t i = 0; i < elems.n && st.n; i++) {
    CXCursor el = elems.v[i];
    if (!clang_isExpression(clang_getCursorKind(el))) continue;
    if (is_designated(el, &ch)) {
      designated(fn, &st, &ch);
      continue;
    }
    while (st.n > 1 && frame_exhausted(&st.v[st.n - 1])) {
      st.n--;
      advance(&st.v[st.n - 1]);
    }
    if (frame_exhausted(&st.v[st.n - 1])) { /* excess initializers */
      lw_expr(fn, el, LW_EFFECT);
      continue;
    }
    init_member(fn, &st, el);
  }
  free(st.v);
  lw_cursors_free(&elems);
  lw_cursors_free(&ch);
}

static void aggregate(lw_fn *fn, const lw_place *dst, CXCursor at) {
  tc_insn *in = lw_emit(fn, TC_I_AGGREGATE, lw_loc(fn->u, at));
  in->has_dst = 1;
  in->dst = dst->path;
  in->dst_type = lw_type(fn->u, dst->type);
}

void lw_init(lw_fn *fn, CXCursor init, const lw_place *dst) {
  if (lw_too_deep(fn)) return;
  fn->depth++;
  CXCursor s = lw_strip(init);
  switch ((int)clang_getCursorKind(s)) {
  case CXCursor_InitListExpr:
    if (is_aggregate_type(dst->type)) aggregate(fn, dst, s);
    list_into(fn, s, dst);
    break;
  case CXCursor_StringLiteral:
    if (lw_type_is_array(dst->type))
      lw_assign(fn, &dst->path, dst->type, lw_opnd_unknown(lw_type(fn->u, dst->type)),
                lw_loc(fn->u, s));
    else
      lw_expr_into(fn, init, dst);
    break;
  default:
    lw_expr_into(fn, init, dst);
    break;
  }
  fn->depth--;
}
