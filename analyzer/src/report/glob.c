/* analyzer/src/report/glob.c — the path glob matcher of glob.h (recursive, backtracking; the
 * patterns and paths it sees are short). */
#include "report/glob.h"

#include <string.h>

/* Matches a class "[...]" at *pp against c; advances *pp past it. -1: not a valid class
   (then '[' is a literal). */
static int match_class(const char **pp, char c) {
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

int tc_glob_match(const char *p, const char *s) {
  while (*p) {
    if (p[0] == '*' && p[1] == '*') {
      p += 2;
      if (*p == '/') {
        /* "**" "/": zero or more whole directories. */
        p++;
        if (tc_glob_match(p, s)) return 1;
        for (; *s; s++)
          if (*s == '/' && tc_glob_match(p, s + 1)) return 1;
        return 0;
      }
      for (;; s++) {
        if (tc_glob_match(p, s)) return 1;
        if (!*s) return 0;
      }
    }
    if (*p == '*') {
      p++;
      for (;; s++) {
        if (tc_glob_match(p, s)) return 1;
        if (!*s || *s == '/') return 0;
      }
    }
    if (!*s) return 0;
    if (*p == '?') {
      if (*s == '/') return 0;
      p++, s++;
      continue;
    }
    if (*p == '[') {
      const char *q = p;
      int m = *s == '/' ? 0 : match_class(&q, *s);
      if (m == 0) return 0;
      if (m == 1) {
        p = q, s++;
        continue;
      }
      /* not a class: a literal '[' */
    }
    if (*p == '\\' && p[1]) p++;
    if (*p != *s) return 0;
    p++, s++;
  }
  return *s == '\0';
}
