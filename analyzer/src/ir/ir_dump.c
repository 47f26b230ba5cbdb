/* analyzer/src/ir/ir_dump.c — the human-readable form of the IR (tagcheck --dump-ir), for tests
 * and debugging. One line per global, variable, instruction and terminator. */
#include "ir/ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A bounded string builder over a caller's buffer. */
typedef struct sbuf {
  char *buf;
  size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->cap == 0 || b->len + 1 >= b->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  b->len += (size_t)n;
  if (b->len >= b->cap) b->len = b->cap - 1;
}

static const char *var_name(const tc_program *p, const tc_var *vars, uint32_t n, uint32_t id) {
  if (vars && id < n && vars[id].name) return tc_str(p, vars[id].name);
  return NULL;
}

static void format_root(const tc_program *p, const tc_function *fn, const tc_path *path,
                        sbuf *b) {
  const char *name = NULL;
  switch (path->root) {
  case TC_ROOT_LOCAL:
    name = fn ? var_name(p, fn->locals, fn->n_locals, path->id) : NULL;
    if (name) sb_printf(b, "%s.%" PRIu32, name, path->id);
    else sb_printf(b, "local%" PRIu32, path->id);
    return;
  case TC_ROOT_PARAM:
    name = fn ? var_name(p, fn->params, fn->n_params, path->id) : NULL;
    if (name) sb_printf(b, "%s", name);
    else sb_printf(b, "param%" PRIu32, path->id);
    return;
  case TC_ROOT_TEMP:
    sb_printf(b, "%%t%" PRIu32, path->id);
    return;
  case TC_ROOT_GLOBAL:
    sb_printf(b, "@%s", tc_str(p, path->id));
    return;
  }
  sb_printf(b, "?root");
}

/* Elements are printed left to right; a DEREF is folded into the element after it when it can
   be ("->f", "[k]"), otherwise the text so far is wrapped as "(*x)". */
static void format_path(const tc_program *p, const tc_function *fn, const tc_path *path, sbuf *b) {
  size_t start = b->len;
  format_root(p, fn, path, b);
  for (uint32_t i = 0; i < path->n_elems; i++) {
    const tc_elem *e = &path->elems[i];
    const tc_elem *next = i + 1 < path->n_elems ? &path->elems[i + 1] : NULL;
    switch (e->kind) {
    case TC_ELEM_FIELD:
      sb_printf(b, ".%s", tc_str(p, e->field));
      break;
    case TC_ELEM_INDEX:
      sb_printf(b, "[%" PRId64 "]", e->index);
      break;
    case TC_ELEM_INDEX_ANY:
      sb_printf(b, "[*]");
      break;
    case TC_ELEM_DEREF:
      if (next && next->kind == TC_ELEM_FIELD) {
        sb_printf(b, "->%s", tc_str(p, next->field));
        i++;
      } else if (next && next->kind == TC_ELEM_INDEX) {
        sb_printf(b, "[%" PRId64 "]", next->index);
        i++;
      } else if (next && next->kind == TC_ELEM_INDEX_ANY) {
        sb_printf(b, "[*]");
        i++;
      } else if (b->len + 4 < b->cap) {
        /* wrap what we have: x → (*x) */
        size_t n = b->len - start;
        memmove(b->buf + start + 2, b->buf + start, n);
        b->buf[start] = '(';
        b->buf[start + 1] = '*';
        b->len += 2;
        b->buf[b->len] = '\0';
        sb_printf(b, ")");
      }
      break;
    }
  }
}

void tc_path_format(const tc_program *p, const tc_function *fn, const tc_path *path, char *buf,
                    size_t len) {
  sbuf b = {buf, 0, len};
  if (len == 0) return;
  buf[0] = '\0';
  format_path(p, fn, path, &b);
}

static void format_opnd(const tc_program *p, const tc_function *fn, const tc_opnd *o, sbuf *b) {
  switch (o->kind) {
  case TC_OPND_NONE:
    sb_printf(b, "<none>");
    return;
  case TC_OPND_PATH:
    format_path(p, fn, &o->path, b);
    return;
  case TC_OPND_ADDR:
    sb_printf(b, "&");
    format_path(p, fn, &o->path, b);
    return;
  case TC_OPND_INT:
    sb_printf(b, "%" PRId64, o->ival);
    if (o->sym) sb_printf(b, "(%s)", tc_str(p, o->sym));
    return;
  case TC_OPND_NULL:
    sb_printf(b, "null");
    return;
  case TC_OPND_FUNC:
    sb_printf(b, "func(%s)", tc_str(p, o->sym));
    return;
  case TC_OPND_UNKNOWN:
    sb_printf(b, "?");
    return;
  }
  sb_printf(b, "<bad operand>");
}

static const char *opcode_name(tc_opcode op) {
  switch (op) {
  case TC_OPC_NONE: return "none";
  case TC_OPC_NOT: return "!";
  case TC_OPC_NEG: return "-";
  case TC_OPC_BITNOT: return "~";
  case TC_OPC_ADD: return "+";
  case TC_OPC_SUB: return "-";
  case TC_OPC_MUL: return "*";
  case TC_OPC_DIV: return "/";
  case TC_OPC_REM: return "%";
  case TC_OPC_EQ: return "==";
  case TC_OPC_NE: return "!=";
  case TC_OPC_LT: return "<";
  case TC_OPC_LE: return "<=";
  case TC_OPC_GT: return ">";
  case TC_OPC_GE: return ">=";
  case TC_OPC_AND: return "&";
  case TC_OPC_OR: return "|";
  case TC_OPC_XOR: return "^";
  case TC_OPC_SHL: return "<<";
  case TC_OPC_SHR: return ">>";
  }
  return "?op";
}

static void format_loc(const tc_srcloc *l, sbuf *b) {
  if (!l->line) return;
  sb_printf(b, "  @%" PRIu32 ":%" PRIu32, l->line, l->col);
  if (l->end_line) sb_printf(b, "-%" PRIu32 ":%" PRIu32, l->end_line, l->end_col);
}

static void format_insn(const tc_program *p, const tc_function *fn, const tc_insn *in, sbuf *b) {
  if (in->has_dst) {
    format_path(p, fn, &in->dst, b);
    sb_printf(b, " := ");
  }
  switch (in->kind) {
  case TC_I_ASSIGN:
    format_opnd(p, fn, &in->a, b);
    break;
  case TC_I_CALL:
    if (in->callee.indirect) {
      sb_printf(b, "call *(");
      format_opnd(p, fn, &in->callee.target, b);
      sb_printf(b, ")(");
    } else {
      sb_printf(b, "call %s(", tc_str(p, in->callee.name));
    }
    for (uint32_t i = 0; i < in->n_args; i++) {
      if (i) sb_printf(b, ", ");
      format_opnd(p, fn, &in->args[i], b);
    }
    sb_printf(b, ")");
    if (!in->callee.indirect) sb_printf(b, " usr=%s", tc_str(p, in->callee.usr));
    break;
  case TC_I_UNOP:
    sb_printf(b, "%s", opcode_name(in->opc));
    format_opnd(p, fn, &in->a, b);
    break;
  case TC_I_BINOP:
    format_opnd(p, fn, &in->a, b);
    sb_printf(b, " %s ", opcode_name(in->opc));
    format_opnd(p, fn, &in->b, b);
    break;
  case TC_I_AGGREGATE:
    sb_printf(b, "aggregate");
    break;
  case TC_I_HAVOC:
    sb_printf(b, "havoc");
    break;
  }
  if (in->in_macro) sb_printf(b, " [macro]");
  if (in->per_object) sb_printf(b, " [per object]");
  if (in->visit_index && in->visit_count)
    sb_printf(b, " [visit %%t%u of %%t%u]", in->visit_index - 1, in->visit_count - 1);
  format_loc(&in->loc, b);
}

static void format_term(const tc_program *p, const tc_function *fn, const tc_term *t, sbuf *b) {
  switch (t->kind) {
  case TC_T_GOTO:
    sb_printf(b, "goto bb%" PRIu32, t->n_succ ? t->succ[0] : 0);
    break;
  case TC_T_BRANCH:
    sb_printf(b, "branch ");
    format_opnd(p, fn, &t->cond, b);
    if (t->n_succ == 2) sb_printf(b, " ? bb%" PRIu32 " : bb%" PRIu32, t->succ[0], t->succ[1]);
    if (t->only_when_known) sb_printf(b, " [only when known]");
    break;
  case TC_T_SWITCH:
    sb_printf(b, "switch ");
    format_opnd(p, fn, &t->cond, b);
    sb_printf(b, " [");
    for (uint32_t i = 0; i < t->n_cases && i < t->n_succ; i++)
      sb_printf(b, "%" PRId64 ": bb%" PRIu32 ", ", t->case_values[i], t->succ[i]);
    if (t->n_succ > t->n_cases) sb_printf(b, "default: bb%" PRIu32, t->succ[t->n_cases]);
    sb_printf(b, "]");
    break;
  case TC_T_RETURN:
    sb_printf(b, "return");
    if (t->cond.kind != TC_OPND_NONE) {
      sb_printf(b, " ");
      format_opnd(p, fn, &t->cond, b);
    }
    break;
  case TC_T_UNREACHABLE:
    sb_printf(b, "unreachable");
    break;
  default:
    sb_printf(b, "<no terminator>");
    break;
  }
  format_loc(&t->loc, b);
}

static void dump_var(const tc_program *p, const char *what, uint32_t i, const tc_var *v, FILE *f) {
  fprintf(f, "    %s %" PRIu32 " %s : %s", what, i, tc_str(p, v->name), tc_str(p, v->type.name));
  if (v->is_static) fprintf(f, " static usr=%s", tc_str(p, v->usr));
  if (v->loc.line) fprintf(f, "  @%" PRIu32 ":%" PRIu32, v->loc.line, v->loc.col);
  fputc('\n', f);
}

static void dump_function(const tc_program *p, const tc_function *fn, FILE *f) {
  char line[4096];
  fprintf(f, "  function %s -> %s usr=%s%s%s%s%s%s  %s:%" PRIu32 ":%" PRIu32 "\n",
          tc_str(p, fn->name), tc_str(p, fn->ret_type.name), tc_str(p, fn->usr),
          fn->is_static ? " static" : "", fn->is_inline ? " inline" : "",
          fn->in_header ? " header" : "", fn->is_variadic ? " variadic" : "",
          fn->is_lambda ? " lambda" : "", tc_str(p, fn->loc.file), fn->loc.line, fn->loc.col);
  for (uint32_t i = 0; i < fn->n_params; i++) dump_var(p, "param", i, &fn->params[i], f);
  for (uint32_t i = 0; i < fn->n_locals; i++) dump_var(p, "local", i, &fn->locals[i], f);
  for (uint32_t bi = 0; bi < fn->n_blocks; bi++) {
    const tc_block *bl = &fn->blocks[bi];
    fprintf(f, "    bb%" PRIu32 ":\n", bi);
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      sbuf b = {line, 0, sizeof line};
      line[0] = '\0';
      format_insn(p, fn, &bl->insns[i], &b);
      fprintf(f, "      %s\n", line);
    }
    sbuf b = {line, 0, sizeof line};
    line[0] = '\0';
    format_term(p, fn, &bl->term, &b);
    fprintf(f, "      %s\n", line);
  }
}

void tc_ir_dump(const tc_program *p, void *file) {
  FILE *f = file;
  for (uint32_t ui = 0; ui < p->n_units; ui++) {
    const tc_unit *u = &p->units[ui];
    fprintf(f, "unit %s%s\n", tc_str(p, u->file), u->parse_failed ? " (parse errors)" : "");
    for (uint32_t i = 0; i < u->n_globals; i++) {
      const tc_global *g = &u->globals[i];
      fprintf(f, "  global %s : %s usr=%s%s  %s:%" PRIu32 ":%" PRIu32 "\n", tc_str(p, g->name),
              tc_str(p, g->type.name), tc_str(p, g->usr), g->has_init ? " init" : "",
              tc_str(p, g->loc.file), g->loc.line, g->loc.col);
    }
    if (u->global_init) dump_function(p, u->global_init, f);
    for (uint32_t i = 0; i < u->n_functions; i++) dump_function(p, &u->functions[i], f);
  }
}
