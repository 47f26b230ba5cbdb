/* analyzer/src/report/comments.c — the comment lexer of comments.h. */
#include "report/comments.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const char *s;
  size_t len, i;
  unsigned line;
  tc_comment_map *out;
} lexer;

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int is_ident(char c) {
  unsigned char u = (unsigned char)c;
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
         u == '_' || u == '$' || u >= 0x80;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void mark_code(lexer *L) {
  if (L->line >= 1 && L->line <= L->out->n_lines) L->out->code_lines[L->line - 1] = 1;
}

/* A backslash-newline (or backslash-CR-LF) at i: its length, else 0. */
static size_t splice_at(const lexer *L, size_t i) {
  if (i >= L->len || L->s[i] != '\\') return 0;
  if (i + 1 < L->len && L->s[i + 1] == '\n') return 2;
  if (i + 2 < L->len && L->s[i + 1] == '\r' && L->s[i + 2] == '\n') return 3;
  return 0;
}

static int add_comment(lexer *L, size_t start, size_t body_start, size_t body_end,
                       unsigned first_line) {
  tc_comment_map *m = L->out;
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    tc_comment *p = realloc(m->comments, cap * sizeof *p);
    if (!p) return -1;
    m->comments = p;
    m->cap = cap;
  }
  m->comments[m->n++] = (tc_comment){start, L->i, body_start, body_end, first_line, L->line};
  return 0;
}

/* "//" up to the end of the line, continued by line splices. */
static int line_comment(lexer *L) {
  size_t start = L->i;
  unsigned first = L->line;
  L->i += 2;
  while (L->i < L->len && L->s[L->i] != '\n') {
    size_t sp = splice_at(L, L->i);
    if (sp) {
      L->i += sp;
      L->line++;
    } else {
      L->i++;
    }
  }
  return add_comment(L, start, start + 2, L->i, first);
}

static int block_comment(lexer *L) {
  size_t start = L->i;
  unsigned first = L->line;
  L->i += 2;
  size_t body_end = L->len;
  while (L->i < L->len) {
    if (L->s[L->i] == '*' && L->i + 1 < L->len && L->s[L->i + 1] == '/') {
      body_end = L->i;
      L->i += 2;
      break;
    }
    if (L->s[L->i] == '\n') L->line++;
    L->i++;
  }
  return add_comment(L, start, start + 2, body_end, first);
}

/* A string or character literal opened by quote at L->i; an unterminated one ends with its
   line, as clang ends it. */
static void quoted(lexer *L, char quote) {
  mark_code(L);
  L->i++;
  while (L->i < L->len) {
    char c = L->s[L->i];
    if (c == '\\' && L->i + 1 < L->len) {
      size_t sp = splice_at(L, L->i);
      L->i += sp ? sp : 2;
      if (sp) {
        L->line++;
        mark_code(L);
      }
      continue;
    }
    if (c == '\n') return;
    L->i++;
    if (c == quote) return;
  }
}

/* R"delim( … )delim" with the prefix already read and L->i at the quote; 0 when the delimiter
   is not valid (then the quote starts an ordinary string). */
static int raw_string(lexer *L) {
  size_t d = L->i + 1, k = d;
  while (k < L->len && k - d <= 16 && L->s[k] != '(') {
    char c = L->s[k];
    if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' || c == '\n')
      return 0;
    k++;
  }
  if (k >= L->len || L->s[k] != '(' || k - d > 16) return 0;
  size_t dlen = k - d;
  L->i = k + 1;
  while (L->i < L->len) {
    char c = L->s[L->i];
    if (c == ')' && L->i + 1 + dlen < L->len && memcmp(L->s + L->i + 1, L->s + d, dlen) == 0 &&
        L->s[L->i + 1 + dlen] == '"') {
      L->i += dlen + 2;
      return 1;
    }
    if (c == '\n') {
      L->line++;
      mark_code(L);
    }
    L->i++;
  }
  return 1; /* unterminated: the rest of the file */
}

static int is_raw_prefix(const char *s, size_t n) {
  static const char *const prefixes[] = {"R", "LR", "uR", "UR", "u8R"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (strlen(prefixes[i]) == n && memcmp(prefixes[i], s, n) == 0) return 1;
  return 0;
}

/* A preprocessing number: digits, letters, '.', exponent signs, and C++14/C23 digit
   separators (1'000'000 holds no character literal). */
static void number(lexer *L) {
  mark_code(L);
  L->i++;
  while (L->i < L->len) {
    char c = L->s[L->i];
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && L->i + 1 < L->len &&
        (L->s[L->i + 1] == '+' || L->s[L->i + 1] == '-'))
      L->i += 2;
    else if (c == '\'' && L->i + 1 < L->len && is_ident(L->s[L->i + 1]))
      L->i += 2;
    else if (is_ident(c) || c == '.')
      L->i++;
    else
      break;
  }
}

int tc_comments_scan(const char *text, size_t len, tc_comment_map *out) {
  memset(out, 0, sizeof *out);
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  out->code_lines = calloc(lines, 1);
  if (!out->code_lines) return -1;
  out->n_lines = lines;
  lexer L = {text, len, 0, 1, out};
  while (L.i < len) {
    char c = text[L.i];
    char next = L.i + 1 < len ? text[L.i + 1] : '\0';
    size_t sp;
    if (c == '\n') {
      L.line++;
      L.i++;
    } else if (is_blank(c)) {
      L.i++;
    } else if ((sp = splice_at(&L, L.i)) != 0) {
      L.i += sp;
      L.line++;
    } else if (c == '/' && next == '/') {
      if (line_comment(&L) != 0) goto oom;
    } else if (c == '/' && next == '*') {
      if (block_comment(&L) != 0) goto oom;
    } else if (c == '"' || c == '\'') {
      quoted(&L, c);
    } else if (is_digit(c) || (c == '.' && is_digit(next))) {
      number(&L);
    } else if (is_ident(c)) {
      mark_code(&L);
      size_t start = L.i;
      while (L.i < len && is_ident(text[L.i])) L.i++;
      if (L.i < len && text[L.i] == '"' && is_raw_prefix(text + start, L.i - start))
        raw_string(&L);
    } else {
      mark_code(&L);
      L.i++;
    }
  }
  return 0;
oom:
  tc_comments_free(out);
  return -1;
}

void tc_comments_free(tc_comment_map *m) {
  free(m->comments);
  free(m->code_lines);
  memset(m, 0, sizeof *m);
}

int tc_comments_line_has_code(const tc_comment_map *m, unsigned line) {
  return line >= 1 && line <= m->n_lines && m->code_lines[line - 1];
}
