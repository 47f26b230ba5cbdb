/* analyzer/src/base/glob.c — the path glob matcher of glob.h. The pattern is run as a
 * nondeterministic automaton over the path, one byte at a time, with the set of pattern
 * positions still alive: time is bounded by pattern length × path length whatever the stars
 * ("*a*a*a*a*b" against a long run of "a" was exponential with backtracking). */
#include "base/glob.h"

#include <stdlib.h>
#include <string.h>

int tc_glob_class(const char **pp, char c) {
  const char *p = *pp + 1;
  int negate = 0, hit = 0;
  if (*p == '!' || *p == '^') negate = 1, p++;
  const char *first = p;
  while (*p && (*p != ']' || p == first)) {
    char lo = *p, hi = lo;
    if (p[1] == '-' && p[2] && p[2] != ']') {
      hi = p[2];
      p += 3;
    } else {
      p++;
    }
    if (c >= lo && c <= hi) hit = 1;
  }
  if (*p != ']') return -1;
  *pp = p + 1;
  return hit != negate;
}

typedef enum glob_op {
  GLOB_END,         /* the whole pattern matched */
  GLOB_STAR,        /* "*": any bytes but '/' */
  GLOB_STARSTAR,    /* "**": any bytes */
  GLOB_DIRS,        /* "**" "/": zero or more whole directories */
  GLOB_ONE          /* one byte: literal, '?', class */
} glob_op;

/* What the pattern asks for at offset at; *next is the offset after it. */
static glob_op op_at(const char *pat, size_t at, size_t *next) {
  const char *p = pat + at;
  if (!*p) return *next = at, GLOB_END;
  if (p[0] == '*' && p[1] == '*') {
    if (p[2] == '/') return *next = at + 3, GLOB_DIRS;
    return *next = at + 2, GLOB_STARSTAR;
  }
  if (*p == '*') return *next = at + 1, GLOB_STAR;
  *next = at + 1;
  if (*p == '[') {
    const char *q = p;
    if (tc_glob_class(&q, 'a') >= 0) *next = (size_t)(q - pat);
  } else if (*p == '\\' && p[1]) {
    *next = at + 2;
  }
  return GLOB_ONE;
}

/* Does the single-byte element at offset at accept c? */
static int one_accepts(const char *pat, size_t at, char c) {
  const char *p = pat + at;
  if (*p == '?') return c != '/';
  if (*p == '[') {
    const char *q = p;
    int m = tc_glob_class(&q, c);
    if (m >= 0) return c != '/' && m == 1;
  }
  if (*p == '\\' && p[1]) p++;
  return *p == c;
}

/* The live set holds, per pattern offset, 0, LIVE, or INSIDE_DIRS at the '/' of a "**" "/"
   that has read at least one byte: unlike its start, it can no longer match zero directories,
   only go on or end after a '/'. */
#define LIVE 1
#define INSIDE_DIRS 2

/* Adds offset at to the live set, with everything reachable from it without reading a byte
   (a star matching nothing). */
static void add_state(const char *pat, unsigned char *live, size_t at) {
  while (!live[at]) {
    live[at] = LIVE;
    size_t next;
    glob_op op = op_at(pat, at, &next);
    if (op != GLOB_STAR && op != GLOB_STARSTAR && op != GLOB_DIRS) return;
    at = next;
  }
}

int tc_glob_match(const char *pat, const char *s) {
  size_t n = strlen(pat) + 1;
  unsigned char *cur = calloc(2 * n, 1);
  if (!cur) return 0; /* out of memory: nothing is excluded */
  unsigned char *nxt = cur + n;
  add_state(pat, cur, 0);
  for (; *s; s++) {
    memset(nxt, 0, n);
    int any = 0;
    for (size_t at = 0; at < n; at++) {
      if (!cur[at]) continue;
      if (cur[at] == INSIDE_DIRS) { /* within "**" "/": any byte; a '/' may end it */
        nxt[at] = INSIDE_DIRS, any = 1;
        if (*s == '/') add_state(pat, nxt, at + 1);
        continue;
      }
      size_t next;
      switch (op_at(pat, at, &next)) {
      case GLOB_END:
        break;
      case GLOB_STAR:
        if (*s != '/') add_state(pat, nxt, at), any = 1;
        break;
      case GLOB_STARSTAR:
        add_state(pat, nxt, at), any = 1;
        break;
      case GLOB_DIRS:
        nxt[next - 1] = INSIDE_DIRS, any = 1;
        if (*s == '/') add_state(pat, nxt, next);
        break;
      case GLOB_ONE:
        if (one_accepts(pat, at, *s)) add_state(pat, nxt, next), any = 1;
        break;
      }
    }
    unsigned char *t = cur;
    cur = nxt;
    nxt = t;
    if (!any) break;
  }
  size_t end = n - 1;
  int matched = !*s && cur[end];
  free(cur < nxt ? cur : nxt);
  return matched;
}
