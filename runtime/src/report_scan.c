/* runtime/src/report_scan.c — the enclosing function of a source position, for the run-time
 * SARIF report's fingerprints and logical locations (report_source.h). A small C and C++
 * scanner: it skips comments, literals (raw strings too) and preprocessor lines, keeps a stack
 * of scopes (file, namespace, extern "C", class bodies, function bodies, lambdas, blocks) and
 * names each function the way tagcheck does: unqualified (`Layer::out` is `out`), `~Layer`,
 * `operator()`, `operator+`, and `operator()` for a lambda's body. */
#include "report_source.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define SCAN_NAME_LEN 128
#define SCAN_MAX_DEPTH 256

typedef enum tok_kind { TOK_END = 0, TOK_IDENT, TOK_PUNCT, TOK_LITERAL } tok_kind;

typedef struct token {
  tok_kind kind;
  const char *s; /* into the text */
  size_t len;
  int line, col; /* col: 1-based, in code points */
} token;

typedef struct lexer {
  const char *s;
  size_t len, i;
  int line;
  size_t line_start;  /* offset of the current line */
  int at_line_start;  /* only whitespace so far on this line */
} lexer;

static void lx_advance(lexer *lx) {
  if (lx->s[lx->i] == '\n') {
    lx->line++;
    lx->line_start = lx->i + 1;
    lx->at_line_start = 1;
  }
  lx->i++;
}

static int lx_col(const lexer *lx) {
  int col = 1;
  for (size_t k = lx->line_start; k < lx->i; k++)
    if (((unsigned char)lx->s[k] & 0xC0) != 0x80) col++;
  return col;
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static void skip_line_rest(lexer *lx) { /* up to (not past) the newline, with continuations */
  while (lx->i < lx->len && lx->s[lx->i] != '\n') {
    if (lx->s[lx->i] == '\\' && lx->i + 1 < lx->len && lx->s[lx->i + 1] == '\n') lx_advance(lx);
    lx_advance(lx);
  }
}

static void skip_quoted(lexer *lx) { /* at the opening quote */
  char q = lx->s[lx->i];
  lx_advance(lx);
  while (lx->i < lx->len && lx->s[lx->i] != q && lx->s[lx->i] != '\n') {
    if (lx->s[lx->i] == '\\' && lx->i + 1 < lx->len) lx_advance(lx);
    lx_advance(lx);
  }
  if (lx->i < lx->len && lx->s[lx->i] == q) lx_advance(lx);
}

/* R"delim( ... )delim", at the opening quote. */
static void skip_raw_string(lexer *lx) {
  size_t d0 = lx->i + 1, d1 = d0;
  while (d1 < lx->len && lx->s[d1] != '(' && d1 - d0 < 16) d1++;
  if (d1 >= lx->len || lx->s[d1] != '(') {
    skip_quoted(lx);
    return;
  }
  size_t dlen = d1 - d0;
  while (lx->i <= d1) lx_advance(lx);
  while (lx->i < lx->len) {
    if (lx->s[lx->i] == ')' && lx->i + dlen + 1 < lx->len &&
        memcmp(lx->s + lx->i + 1, lx->s + d0, dlen) == 0 && lx->s[lx->i + 1 + dlen] == '"') {
      for (size_t k = 0; k < dlen + 2; k++) lx_advance(lx);
      return;
    }
    lx_advance(lx);
  }
}

static token lx_next(lexer *lx) {
  token t = {TOK_END, NULL, 0, lx->line, 0};
  while (lx->i < lx->len) {
    char c = lx->s[lx->i];
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      lx_advance(lx);
      continue;
    }
    if (c == '#' && lx->at_line_start) {
      skip_line_rest(lx);
      continue;
    }
    if (c == '/' && lx->i + 1 < lx->len && lx->s[lx->i + 1] == '/') {
      skip_line_rest(lx);
      continue;
    }
    if (c == '/' && lx->i + 1 < lx->len && lx->s[lx->i + 1] == '*') {
      lx_advance(lx);
      lx_advance(lx);
      while (lx->i < lx->len && !(lx->s[lx->i] == '*' && lx->i + 1 < lx->len && lx->s[lx->i + 1] == '/'))
        lx_advance(lx);
      if (lx->i < lx->len) {
        lx_advance(lx);
        lx_advance(lx);
      }
      continue;
    }
    lx->at_line_start = 0;
    t.line = lx->line;
    t.col = lx_col(lx);
    t.s = lx->s + lx->i;
    size_t start = lx->i;
    if (c == '"' || c == '\'') {
      skip_quoted(lx);
      t.kind = TOK_LITERAL;
    } else if (is_ident_start(c)) {
      while (lx->i < lx->len && is_ident_char(lx->s[lx->i])) lx->i++;
      size_t n = lx->i - start;
      int raw = lx->i < lx->len && lx->s[lx->i] == '"' && n <= 3 && lx->s[lx->i - 1] == 'R';
      int prefix = lx->i < lx->len && (lx->s[lx->i] == '"' || lx->s[lx->i] == '\'') && n <= 2 &&
                   strchr("uUL8", lx->s[start]) != NULL;
      if (raw) {
        skip_raw_string(lx);
        t.kind = TOK_LITERAL;
      } else if (prefix) {
        skip_quoted(lx);
        t.kind = TOK_LITERAL;
      } else {
        t.kind = TOK_IDENT;
      }
    } else if (isdigit((unsigned char)c) || (c == '.' && lx->i + 1 < lx->len && isdigit((unsigned char)lx->s[lx->i + 1]))) {
      while (lx->i < lx->len &&
             (is_ident_char(lx->s[lx->i]) || lx->s[lx->i] == '.' ||
              (lx->s[lx->i] == '\'' && lx->i + 1 < lx->len && isxdigit((unsigned char)lx->s[lx->i + 1]))))
        lx->i++;
      t.kind = TOK_LITERAL;
    } else {
      lx->i++;
      if ((c == ':' || c == '-') && lx->i < lx->len && lx->s[lx->i] == (c == ':' ? ':' : '>')) lx->i++;
      t.kind = TOK_PUNCT;
    }
    t.len = lx->i - start;
    return t;
  }
  return t;
}

static int tok_is(const token *t, const char *text) {
  return t->kind != TOK_END && t->len == strlen(text) && memcmp(t->s, text, t->len) == 0;
}

typedef enum scope_kind {
  SC_DECLS,    /* file, namespace, extern "C", class body: functions may be defined here */
  SC_FUNCTION, /* a function's body */
  SC_LAMBDA,   /* a lambda's body */
  SC_BLOCK,    /* a block or initializer inside a function, or an aggregate initializer */
  SC_OTHER     /* an initializer or enum body at declaration scope */
} scope_kind;

typedef struct scope {
  scope_kind kind;
  char name[SCAN_NAME_LEN]; /* SC_FUNCTION */
} scope;

/* The state of the declaration being read at a declaration scope. */
typedef struct decl_state {
  char cand[SCAN_NAME_LEN]; /* the name before the last top-level parameter list */
  int paren;                /* parenthesis depth */
  int after_params;         /* cand's parameter list closed; only qualifiers since */
  int decoration;           /* the open parenthesis group is an attribute or noexcept(...) */
  int init_list;            /* after `)` `:` — a constructor's member initializers */
  int init_nest;            /* parentheses and braces open inside them */
  int saw_namespace, saw_class, saw_extern_string, saw_enum;
} decl_state;

typedef struct scanner {
  lexer lx;
  scope stack[SCAN_MAX_DEPTH];
  int depth; /* entries in stack; stack[0] is the file */
  int overflow; /* braces nested beyond SCAN_MAX_DEPTH: counted, not named */
  decl_state d;
  token prev, prev2;
  char name_buf[SCAN_NAME_LEN]; /* the name being formed after `operator` */
  int lambda_bracket;  /* inside a lambda introducer's [ ]: its bracket depth */
  int lambda_pending;  /* a lambda introducer (and maybe its parameters) ended: a `{` opens it */
  int lambda_paren;    /* parentheses open in the lambda's parameter list */
} scanner;

static void decl_reset(decl_state *d) { memset(d, 0, sizeof *d); }

static void copy_tok(char *dst, const token *t) {
  size_t n = t->len < SCAN_NAME_LEN - 1 ? t->len : SCAN_NAME_LEN - 1;
  memcpy(dst, t->s, n);
  dst[n] = '\0';
}

static void append(char *dst, const char *s, size_t n) {
  size_t have = strlen(dst);
  if (have + n >= SCAN_NAME_LEN) n = SCAN_NAME_LEN - 1 - have;
  memcpy(dst + have, s, n);
  dst[have + n] = '\0';
}

/* A word before a parenthesis that is not a parameter list (attributes, noexcept(…)). */
static int is_decoration(const token *t) {
  static const char *const words[] = {"noexcept", "throw", "alignas", "decltype", "requires",
                                      "__attribute__", "__declspec", "__asm__", "asm"};
  if (t->kind != TOK_IDENT) return 0;
  if (t->len > 2 && t->s[0] == '_' && t->s[1] == '_') return 1;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (tok_is(t, words[i])) return 1;
  return 0;
}

static void push(scanner *sc, scope_kind kind, const char *name) {
  if (sc->depth >= SCAN_MAX_DEPTH) {
    sc->overflow++;
    return;
  }
  scope *s = &sc->stack[sc->depth++];
  s->kind = kind;
  snprintf(s->name, sizeof s->name, "%s", name ? name : "");
}

static void pop(scanner *sc) {
  if (sc->overflow) sc->overflow--;
  else if (sc->depth > 1) sc->depth--;
}

static scope_kind top(const scanner *sc) { return sc->stack[sc->depth - 1].kind; }

/* Reads an operator function's name after `operator` (already the current token): returns the
   token that follows the name (the parameter list's `(`). */
static token operator_name(scanner *sc, char *name) {
  snprintf(name, SCAN_NAME_LEN, "operator");
  token t = lx_next(&sc->lx);
  if (tok_is(&t, "(") || tok_is(&t, "[")) { /* operator() / operator[] */
    token close = lx_next(&sc->lx);
    append(name, t.s, 1);
    append(name, close.s, close.len);
    return lx_next(&sc->lx);
  }
  if (t.kind == TOK_PUNCT) { /* operator+, operator<<=, operator-> … */
    while (t.kind == TOK_PUNCT && !tok_is(&t, "(")) {
      append(name, t.s, t.len);
      t = lx_next(&sc->lx);
    }
    return t;
  }
  /* operator new / delete (+ []), conversions: operator bool, operator const char * */
  while (t.kind != TOK_END && !tok_is(&t, "(")) {
    if (t.kind == TOK_IDENT || !strchr("*&[]", t.s[0]) || strcmp(name, "operator") == 0)
      append(name, " ", 1);
    append(name, t.s, t.len);
    t = lx_next(&sc->lx);
  }
  return t;
}

/* A `[` that may open a lambda introducer: not a subscript (after a name, `)`, `]` or a
   literal) and not an attribute's `[[`. */
static int may_open_lambda(const scanner *sc) {
  const token *p = &sc->prev;
  size_t k = sc->lx.i;
  while (k < sc->lx.len && isspace((unsigned char)sc->lx.s[k])) k++;
  if (k < sc->lx.len && sc->lx.s[k] == '[') return 0;
  if (p->kind == TOK_IDENT) return tok_is(p, "return") || tok_is(p, "co_return");
  if (p->kind == TOK_LITERAL) return 0;
  if (tok_is(p, ")") || tok_is(p, "]") || tok_is(p, "[")) return 0;
  return 1;
}

/* What a `{` opens at a declaration scope. */
static void open_at_decls(scanner *sc) {
  decl_state *d = &sc->d;
  if (d->after_params && d->paren == 0) {
    push(sc, SC_FUNCTION, d->cand);
  } else if (d->saw_namespace || d->saw_extern_string || (d->saw_class && !d->saw_enum)) {
    push(sc, SC_DECLS, NULL);
  } else {
    push(sc, SC_OTHER, NULL);
  }
  decl_reset(d);
}

/* One token at a declaration scope (the `{` / `}` cases are handled by the caller). */
static void decl_token(scanner *sc, token *t) {
  decl_state *d = &sc->d;
  if (d->init_list) { /* member initializers: `: a(x), b{y}, Base<T>(z)` */
    if (tok_is(t, "(") || tok_is(t, "{")) d->init_nest++;
    else if ((tok_is(t, ")") || tok_is(t, "}")) && d->init_nest > 0) d->init_nest--;
    else if (tok_is(t, ";") && d->init_nest == 0) decl_reset(d);
    return;
  }
  if (t->kind == TOK_IDENT) {
    if (d->paren == 0) {
      if (tok_is(t, "namespace")) d->saw_namespace = 1;
      else if (tok_is(t, "class") || tok_is(t, "struct") || tok_is(t, "union")) d->saw_class = 1;
      else if (tok_is(t, "enum")) d->saw_enum = 1;
      /* extern "C" { … } is told by the literal after `extern` */
    }
    return;
  }
  if (t->kind == TOK_LITERAL) {
    if (d->paren == 0 && tok_is(&sc->prev, "extern")) d->saw_extern_string = 1;
    return;
  }
  if (tok_is(t, "(")) {
    if (d->paren++ == 0) {
      d->decoration = is_decoration(&sc->prev);
      if (!d->decoration) {
        d->after_params = 0;
        d->cand[0] = '\0';
        if (sc->prev.kind == TOK_IDENT) {
          if (tok_is(&sc->prev2, "~")) {
            snprintf(d->cand, sizeof d->cand, "~");
            char w[SCAN_NAME_LEN];
            copy_tok(w, &sc->prev);
            append(d->cand, w, strlen(w));
          } else {
            copy_tok(d->cand, &sc->prev);
          }
        } else if (sc->name_buf[0]) {
          snprintf(d->cand, sizeof d->cand, "%s", sc->name_buf);
        }
      }
      sc->name_buf[0] = '\0';
    }
    return;
  }
  if (tok_is(t, ")")) {
    if (d->paren > 0 && --d->paren == 0 && !d->decoration) d->after_params = d->cand[0] != '\0';
    return;
  }
  if (d->paren > 0) return;
  if (tok_is(t, ":") && d->after_params) {
    d->init_list = 1;
    return;
  }
  if (tok_is(t, ";") || tok_is(t, "=")) {
    decl_reset(d);
  } else if (tok_is(t, ",")) { /* `int a, b;`, template parameters, base classes */
    d->cand[0] = '\0';
    d->after_params = 0;
  }
}

void dt__src_function_in(const char *text, size_t len, int target_line, int target_col, char *buf,
                         size_t n) {
  if (n) buf[0] = '\0';
  scanner sc;
  memset(&sc, 0, sizeof sc);
  sc.lx = (lexer){text, len, 0, 1, 0, 1};
  sc.stack[0].kind = SC_DECLS;
  sc.depth = 1;
  for (;;) {
    token t = lx_next(&sc.lx);
    if (t.kind == TOK_END) break;
    if (t.line > target_line || (t.line == target_line && t.col >= target_col)) {
      /* The position: the innermost function or lambda around it. Without a column, the
         line's first token inside a function (`static int one(void) { return f(); }`). */
      for (int k = sc.depth - 1; k >= 0; k--) {
        if (sc.stack[k].kind == SC_LAMBDA) {
          snprintf(buf, n, "operator()");
          return;
        }
        if (sc.stack[k].kind == SC_FUNCTION) {
          snprintf(buf, n, "%s", sc.stack[k].name);
          return;
        }
      }
      if (target_col > 0 || t.line > target_line) return;
    }
    scope_kind where = top(&sc);
    int in_decls = where == SC_DECLS && !sc.overflow;
    /* lambda introducers, anywhere: [captures] (params) specifiers { */
    if (sc.lambda_bracket > 0) {
      if (tok_is(&t, "[")) sc.lambda_bracket++;
      else if (tok_is(&t, "]") && --sc.lambda_bracket == 0) sc.lambda_pending = 1;
      goto next;
    }
    if (sc.lambda_pending) {
      if (sc.lambda_paren > 0) {
        if (tok_is(&t, "(")) sc.lambda_paren++;
        else if (tok_is(&t, ")")) sc.lambda_paren--;
        goto next;
      }
      if (tok_is(&t, "(")) {
        sc.lambda_paren = 1;
        goto next;
      }
      if (tok_is(&t, "{")) {
        sc.lambda_pending = 0;
        push(&sc, SC_LAMBDA, NULL);
        goto next;
      }
      if (t.kind == TOK_IDENT || tok_is(&t, "->") || tok_is(&t, "::") || tok_is(&t, "<") ||
          tok_is(&t, ">") || tok_is(&t, "*") || tok_is(&t, "&"))
        goto next; /* mutable, constexpr, noexcept, -> type, template parameters */
      sc.lambda_pending = 0; /* not a lambda after all (a designator, an attribute) */
    }
    if (tok_is(&t, "[") && may_open_lambda(&sc) && !(in_decls && sc.d.paren == 0 && sc.d.after_params)) {
      sc.lambda_bracket = 1;
      goto next;
    }
    if (tok_is(&t, "{")) {
      if (in_decls && !(sc.d.init_list && sc.d.init_nest > 0) &&
          !(sc.d.init_list && (sc.prev.kind == TOK_IDENT || tok_is(&sc.prev, ">")))) {
        open_at_decls(&sc);
      } else if (in_decls) {
        sc.d.init_nest++; /* a member's brace initializer: b{y} */
      } else {
        push(&sc, SC_BLOCK, NULL);
      }
      goto next;
    }
    if (tok_is(&t, "}")) {
      if (in_decls && sc.d.init_list && sc.d.init_nest > 0) sc.d.init_nest--;
      else {
        pop(&sc);
        if (top(&sc) == SC_DECLS) decl_reset(&sc.d);
      }
      goto next;
    }
    if (in_decls) {
      if (tok_is(&t, "operator") && sc.d.paren == 0) {
        char name[SCAN_NAME_LEN];
        token after = operator_name(&sc, name);
        snprintf(sc.name_buf, sizeof sc.name_buf, "%s", name);
        sc.prev2 = sc.prev;
        sc.prev = (token){TOK_PUNCT, "", 0, after.line, after.col};
        if (after.kind == TOK_END) break;
        t = after; /* the parameter list's `(` */
      }
      decl_token(&sc, &t);
    }
  next:
    sc.prev2 = sc.prev;
    sc.prev = t;
  }
}
