/* tests/corpus/annotations.c — see annotations.h: the corpus annotations read line by line. */
#include "annotations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* 1 when the text before p on its line opens a comment, as corpus.py asks: a line comment or
   a block comment opened before it, or a block comment's continuation line starting with '*'. */
static int in_comment(const char *line, const char *p) {
  for (const char *q = line; q + 1 < p; q++)
    if (q[0] == '/' && (q[1] == '/' || q[1] == '*')) return 1;
  return *skip_ws(line) == '*';
}

static int push(tc_annotation **out, size_t *n, const tc_annotation *a) {
  tc_annotation *g = realloc(*out, (*n + 1) * sizeof **out);
  if (!g) return -1;
  *out = g;
  g[(*n)++] = *a;
  return 0;
}

/* The annotations of one line (lno, 1-based) appended to *out. */
static int read_line(const char *line, unsigned lno, tc_annotation **out, size_t *n) {
  for (const char *p = strstr(line, "expect-"); p; p = strstr(p + 1, "expect-")) {
    tc_annotation a = {0};
    const char *q = p + 7;
    if (!strncmp(q, "error", 5)) {
      a.is_error = 1;
      q += 5;
    } else if (!strncmp(q, "warning", 7)) {
      q += 7;
    } else {
      continue;
    }
    if (!in_comment(line, p)) continue;
    long off = 0;
    if (*q == '@') off = strtol(q + 1, (char **)&q, 10);
    q = skip_ws(q);
    if (*q != ':') continue;
    q = skip_ws(q + 1);
    a.line = (unsigned)((long)lno + off);
    a.src_line = lno;
    a.col = (size_t)(p - line);
    while (*q && *q != '\n') {
      size_t k = 0;
      while ((*q >= 'a' && *q <= 'z') || *q == '-' || (*q >= '0' && *q <= '9'))
        if (k < sizeof a.rule - 1) a.rule[k++] = *q++; else q++;
      a.rule[k] = '\0';
      if (!k) break;
      if (push(out, n, &a) != 0) return -1;
      q = skip_ws(q);
      if (*q != ',') break;
      q = skip_ws(q + 1);
    }
  }
  return 0;
}

int tc_annotations_read(const char *path, tc_annotation **out, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  unsigned lno = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) rc = read_line(line, ++lno, out, n);
  fclose(f);
  return rc;
}
