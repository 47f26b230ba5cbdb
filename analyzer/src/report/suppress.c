/* analyzer/src/report/suppress.c — suppression comments, tagcheck's and clang-tidy's NOLINT
 * forms (suppress.h), and
 * tc_apply_suppressions (output.h): a finding is suppressed by a comment naming its rule that
 * covers its line. */
#include "report/suppress.h"

#include <stdlib.h>
#include <string.h>

#include "report/comments.h"
#include "report/output.h"
#include "report/source.h"

#define TC_SUPPRESS_MARKER "tagcheck:"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Parses "ignore[...]" at s[i..end); on success sets the list bounds and the index after
   ']'. */
static int parse_ignore(const char *s, size_t end, size_t i, size_t *list_start,
                        size_t *list_end, size_t *after) {
  while (i < end && is_space(s[i])) i++;
  if (end - i < 6 || memcmp(s + i, "ignore", 6) != 0) return 0;
  i += 6;
  while (i < end && is_space(s[i])) i++;
  if (i >= end || s[i] != '[') return 0;
  *list_start = ++i;
  while (i < end && s[i] != ']' && s[i] != '\n') i++;
  if (i >= end || s[i] != ']') return 0;
  *list_end = i;
  *after = i + 1;
  return 1;
}

/* The rest of the marker's line within the comment, trimmed. */
static char *justification_text(const char *s, size_t from, size_t end) {
  size_t a = from, b = from;
  while (b < end && s[b] != '\n') b++;
  while (a < b && (is_space(s[a]) || s[a] == ':' || s[a] == '-')) a++;
  while (b > a && is_space(s[b - 1])) b--;
  return strndup(s + a, b - a);
}

static int add(tc_suppressions *out, unsigned line, char *rules, char *why) {
  if (!rules || !why) goto oom;
  if (out->n == out->cap) {
    size_t cap = out->cap ? out->cap * 2 : 16;
    tc_suppression *p = realloc(out->items, cap * sizeof *p);
    if (!p) goto oom;
    out->items = p;
    out->cap = cap;
  }
  out->items[out->n++] = (tc_suppression){line, rules, why};
  return 0;
oom:
  free(rules);
  free(why);
  return -1;
}

/* The line a marker at line `at` of comment c covers: its own when that line holds code (a
   trailing or leading comment), else the comment's last line when code follows the comment
   there, else the line after the comment. */
static unsigned covered_line(const tc_comment_map *m, const tc_comment *c, unsigned at) {
  if (tc_comments_line_has_code(m, at)) return at;
  if (tc_comments_line_has_code(m, c->last_line)) return c->last_line;
  return c->last_line + 1;
}

/* clang-tidy's markers: NOLINT covers its own line, NOLINTNEXTLINE the next one,
   NOLINTBEGIN … NOLINTEND the lines from the one to the other. */
typedef enum nolint_kind { NOLINT_LINE, NOLINT_NEXT, NOLINT_BEGIN, NOLINT_END } nolint_kind;

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Parses a NOLINT marker at s[i..end) (the caller checked "NOLINT" is there and not part of a
   longer word before it). Sets the kind, the rule list's bounds (empty: every rule) and the
   index after the marker. */
static int parse_nolint(const char *s, size_t end, size_t i, nolint_kind *kind,
                        size_t *list_start, size_t *list_end, size_t *after) {
  static const struct { const char *suffix; nolint_kind kind; } kinds[] = {
      {"NEXTLINE", NOLINT_NEXT}, {"BEGIN", NOLINT_BEGIN}, {"END", NOLINT_END}, {"", NOLINT_LINE}};
  i += 6;
  size_t k = 0;
  for (; k < sizeof kinds / sizeof kinds[0]; k++) {
    size_t n = strlen(kinds[k].suffix);
    if (end - i >= n && memcmp(s + i, kinds[k].suffix, n) == 0 && (i + n == end || !is_ident(s[i + n])))
      break;
  }
  if (k == sizeof kinds / sizeof kinds[0]) return 0; /* NOLINTSOMETHING */
  *kind = kinds[k].kind;
  i += strlen(kinds[k].suffix);
  *list_start = *list_end = i;
  if (i < end && s[i] == '(') {
    size_t j = i + 1;
    while (j < end && s[j] != ')' && s[j] != '\n') j++;
    if (j >= end || s[j] != ')') return 0;
    *list_start = i + 1;
    *list_end = j;
    i = j + 1;
  }
  *after = i;
  return 1;
}

/* A NOLINTBEGIN waiting for its NOLINTEND. */
typedef struct nolint_open {
  unsigned line;
  char *rules;
} nolint_open;

typedef struct nolint_stack {
  nolint_open *v;
  size_t n, cap;
} nolint_stack;

/* The rule list of a NOLINT marker as a suppression list ("*" when it names none). */
static char *nolint_rules(const char *s, size_t a, size_t b) {
  while (a < b && is_space(s[a])) a++;
  return a == b ? strdup("*") : strndup(s + a, b - a);
}

static int nolint(const char *text, const tc_comment *c, unsigned line, size_t i,
                  nolint_stack *open, tc_suppressions *out, size_t *resume) {
  nolint_kind kind;
  size_t ls, le, after;
  if (!parse_nolint(text, c->body_end, i, &kind, &ls, &le, &after)) return 0;
  *resume = after;
  char *rules = nolint_rules(text, ls, le);
  if (!rules) return -1;
  switch (kind) {
  case NOLINT_LINE:
  case NOLINT_NEXT:
    return add(out, kind == NOLINT_LINE ? line : line + 1, rules,
               justification_text(text, after, c->body_end));
  case NOLINT_BEGIN:
    if (open->n == open->cap) {
      size_t cap = open->cap ? open->cap * 2 : 4;
      nolint_open *v = realloc(open->v, cap * sizeof *v);
      if (!v) {
        free(rules);
        return -1;
      }
      open->v = v;
      open->cap = cap;
    }
    open->v[open->n++] = (nolint_open){line, rules};
    return 0;
  case NOLINT_END: {
    size_t k = open->n; /* the latest BEGIN with the same list */
    while (k > 0 && strcmp(open->v[k - 1].rules, rules) != 0) k--;
    free(rules);
    if (k == 0) return 0; /* an END without a BEGIN covers nothing */
    nolint_open b = open->v[k - 1];
    memmove(&open->v[k - 1], &open->v[k], (open->n - k) * sizeof *open->v);
    open->n--;
    int rc = 0;
    for (unsigned l = b.line; l <= line && rc == 0; l++)
      rc = add(out, l, strdup(b.rules), strdup(""));
    free(b.rules);
    return rc;
  }
  }
  free(rules);
  return 0;
}

static int scan_comment(const char *text, const tc_comment_map *m, const tc_comment *c,
                        nolint_stack *open, tc_suppressions *out) {
  size_t mlen = strlen(TC_SUPPRESS_MARKER);
  unsigned line = c->first_line;
  size_t counted = c->start; /* newlines before this offset are in `line` */
  for (size_t i = c->body_start; i < c->body_end; i++) {
    int ours = i + mlen <= c->body_end && memcmp(text + i, TC_SUPPRESS_MARKER, mlen) == 0;
    int tidy = !ours && i + 6 <= c->body_end && memcmp(text + i, "NOLINT", 6) == 0 &&
               (i == c->body_start || !is_ident(text[i - 1]));
    if (!ours && !tidy) continue;
    for (; counted < i; counted++) line += text[counted] == '\n';
    if (tidy) {
      size_t resume = i + 1;
      if (nolint(text, c, line, i, open, out, &resume) != 0) return -1;
      i = resume - 1;
      continue;
    }
    size_t ls, le, after;
    if (!parse_ignore(text, c->body_end, i + mlen, &ls, &le, &after)) continue;
    if (add(out, covered_line(m, c, line), strndup(text + ls, le - ls),
            justification_text(text, after, c->body_end)) != 0)
      return -1;
    i = after - 1;
  }
  return 0;
}

static int cmp_line(const void *pa, const void *pb) {
  const tc_suppression *a = pa, *b = pb;
  return (a->line > b->line) - (a->line < b->line);
}

int tc_suppressions_scan(const char *text, size_t len, tc_suppressions *out) {
  memset(out, 0, sizeof *out);
  tc_comment_map m;
  if (tc_comments_scan(text, len, &m) != 0) return -1;
  int rc = 0;
  nolint_stack open = {NULL, 0, 0};
  for (size_t i = 0; i < m.n && rc == 0; i++) {
    rc = scan_comment(text, &m, &m.comments[i], &open, out);
  }
  for (size_t i = 0; i < open.n; i++) free(open.v[i].rules); /* a BEGIN never ended */
  free(open.v);
  tc_comments_free(&m);
  if (rc != 0) {
    tc_suppressions_free(out);
    return -1;
  }
  /* in file order already but for a comment covering the line after it, which a trailing
     comment on that line may precede in the list */
  if (out->n > 1) qsort(out->items, out->n, sizeof *out->items, cmp_line);
  return 0;
}

void tc_suppressions_free(tc_suppressions *s) {
  for (size_t i = 0; i < s->n; i++) {
    free(s->items[i].rules);
    free(s->items[i].justification);
  }
  free(s->items);
  memset(s, 0, sizeof *s);
}

static int list_names(const char *list, const char *rule_id) {
  size_t rlen = strlen(rule_id);
  const char *p = list;
  for (;;) {
    const char *e = strchr(p, ',');
    const char *a = p, *b = e ? e : p + strlen(p);
    while (a < b && is_space(*a)) a++;
    while (b > a && is_space(b[-1])) b--;
    if ((b - a == 1 && *a == '*') || ((size_t)(b - a) == rlen && memcmp(a, rule_id, rlen) == 0))
      return 1;
    if (!e) return 0;
    p = e + 1;
  }
}

const tc_suppression *tc_suppressions_find(const tc_suppressions *s, unsigned line,
                                           const char *rule_id) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) { /* the first item at or after line */
    size_t mid = lo + (hi - lo) / 2;
    if (s->items[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < s->n && s->items[i].line == line; i++)
    if (list_names(s->items[i].rules, rule_id)) return &s->items[i];
  return NULL;
}

typedef struct diag_ref {
  const char *file;
  size_t index;
} diag_ref;

static int cmp_diag_ref(const void *pa, const void *pb) {
  const diag_ref *a = pa, *b = pb;
  int c = strcmp(a->file, b->file);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}

void tc_apply_suppressions(tc_report *r) {
  if (r->n_diags == 0) return;
  /* file by file, so that each file is read and scanned once whatever the report's order */
  diag_ref *order = malloc(r->n_diags * sizeof *order);
  if (!order) return;
  for (size_t i = 0; i < r->n_diags; i++)
    order[i] = (diag_ref){r->diags[i].loc.file ? r->diags[i].loc.file : "", i};
  qsort(order, r->n_diags, sizeof *order, cmp_diag_ref);
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  tc_suppressions sup = {NULL, 0, 0};
  const char *scanned = NULL; /* the file sup was read from */
  for (size_t k = 0; k < r->n_diags; k++) {
    tc_diag *d = &r->diags[order[k].index];
    if (!d->loc.file || !*d->loc.file) continue;
    if (!scanned || strcmp(scanned, d->loc.file) != 0) {
      tc_suppressions_free(&sup);
      scanned = d->loc.file;
      const char *text;
      size_t len;
      /* each file is read once: the cache drops it when the next one is read */
      tc_source_cache_free(&sc);
      tc_source_cache_init(&sc);
      if (tc_source_text(&sc, d->loc.file, &text, &len) != 0 ||
          tc_suppressions_scan(text, len, &sup) != 0)
        continue;
    }
    const tc_suppression *s = tc_suppressions_find(&sup, d->loc.line, d->rule_id);
    if (!s) continue;
    char *why = strdup(s->justification);
    if (!why) continue;
    free(d->suppression_text);
    d->suppression_text = why;
    d->suppressed = 1;
  }
  tc_suppressions_free(&sup);
  tc_source_cache_free(&sc);
  free(order);
}
