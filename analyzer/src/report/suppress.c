/* analyzer/src/report/suppress.c — suppression comments (suppress.h) and
 * tc_apply_suppressions (output.h): a finding is suppressed by a comment naming its rule on
 * its own line or on the line before. */
#include "report/suppress.h"

#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "report/source.h"

#define TC_SUPPRESS_MARKER "tagcheck:"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Is position `at` of the line inside a comment? A "//" or "/" "*" before it, or a line that
   continues a block comment (" * …"). String literals are not tracked: a marker inside a
   string that follows a comment opener on the same line is rare enough. */
static int in_comment(const char *line, size_t at) {
  for (size_t i = 0; i + 1 < at; i++)
    if (line[i] == '/' && (line[i + 1] == '/' || line[i + 1] == '*')) return 1;
  size_t i = 0;
  while (i < at && is_space(line[i])) i++;
  return i < at && line[i] == '*';
}

static const char *find_marker(const char *s, size_t len, size_t from, size_t *pos) {
  size_t m = strlen(TC_SUPPRESS_MARKER);
  for (size_t i = from; i + m <= len; i++) {
    if (memcmp(s + i, TC_SUPPRESS_MARKER, m) == 0) {
      *pos = i;
      return s + i;
    }
  }
  return NULL;
}

/* Parses "ignore[...]" at line[i..len); on success sets the list bounds and the index after
   ']'. */
static int parse_ignore(const char *line, size_t len, size_t i, size_t *list_start,
                        size_t *list_end, size_t *after) {
  while (i < len && is_space(line[i])) i++;
  if (len - i < 6 || memcmp(line + i, "ignore", 6) != 0) return 0;
  i += 6;
  while (i < len && is_space(line[i])) i++;
  if (i >= len || line[i] != '[') return 0;
  *list_start = ++i;
  while (i < len && line[i] != ']') i++;
  if (i >= len) return 0;
  *list_end = i;
  *after = i + 1;
  return 1;
}

static int list_names(const char *line, size_t start, size_t end, const char *rule_id) {
  size_t rlen = strlen(rule_id);
  size_t i = start;
  while (i < end) {
    size_t j = i;
    while (j < end && line[j] != ',') j++;
    size_t a = i, b = j;
    while (a < b && is_space(line[a])) a++;
    while (b > a && is_space(line[b - 1])) b--;
    if ((b - a == 1 && line[a] == '*') || (b - a == rlen && memcmp(line + a, rule_id, rlen) == 0))
      return 1;
    i = j + 1;
  }
  return 0;
}

static char *justification_text(const char *line, size_t from, size_t len) {
  size_t a = from, b = len;
  const char *close = NULL;
  for (size_t i = a; i + 1 < b; i++) {
    if (line[i] == '*' && line[i + 1] == '/') {
      close = line + i;
      break;
    }
  }
  if (close) b = (size_t)(close - line);
  while (a < b && (is_space(line[a]) || line[a] == ':' || line[a] == '-')) a++;
  while (b > a && is_space(line[b - 1])) b--;
  return strndup(line + a, b - a);
}

int tc_suppression_match(const char *line, size_t len, const char *rule_id, char **justification) {
  size_t from = 0, pos;
  while (find_marker(line, len, from, &pos)) {
    size_t ls, le, after;
    if (in_comment(line, pos) &&
        parse_ignore(line, len, pos + strlen(TC_SUPPRESS_MARKER), &ls, &le, &after) &&
        list_names(line, ls, le, rule_id)) {
      *justification = justification_text(line, after, len);
      return *justification ? 1 : -1;
    }
    from = pos + 1;
  }
  return 0;
}

static int suppressed_by_line(tc_source_cache *sc, tc_diag *d, unsigned line) {
  const char *text;
  size_t len;
  if (line == 0 || tc_source_line(sc, d->loc.file, line, &text, &len) != 0) return 0;
  char *why = NULL;
  if (tc_suppression_match(text, len, d->rule_id, &why) != 1) return 0;
  free(d->suppression_text);
  d->suppression_text = why;
  d->suppressed = 1;
  return 1;
}

void tc_apply_suppressions(tc_report *r) {
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  for (size_t i = 0; i < r->n_diags; i++) {
    tc_diag *d = &r->diags[i];
    if (!suppressed_by_line(&sc, d, d->loc.line)) suppressed_by_line(&sc, d, d->loc.line - 1);
  }
  tc_source_cache_free(&sc);
}
