/* analyzer/src/report/fingerprint.c — the line-independent fingerprints of fingerprint.h. */
#include "report/fingerprint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/strbuf.h"
#include "report/uri.h"

char *tc_fingerprint_normalize_line(const char *text, size_t len) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  char quote = 0;
  int in_block = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (in_block) {
      if (c == '*' && i + 1 < len && text[i + 1] == '/') {
        in_block = 0;
        i++;
      }
      continue;
    }
    if (quote) {
      tc_strbuf_putc(&b, c);
      if (c == '\\' && i + 1 < len) tc_strbuf_putc(&b, text[++i]);
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      break;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
      in_block = 1;
      i++;
      continue;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
      continue;
    }
    tc_strbuf_putc(&b, c);
  }
  return tc_strbuf_take(&b);
}

/* FNV-1a, 64 bits, from a given offset basis; two bases give a 128-bit hash. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}

#define FNV_BASIS_A UINT64_C(0xcbf29ce484222325)
#define FNV_BASIS_B UINT64_C(0x84222325cbf29ce4)

typedef struct keyed {
  uint64_t a, b;       /* hash of the key without the occurrence index */
  unsigned line, col;  /* occurrences are numbered by position in the file, so the index does
                          not depend on the order the report happens to be in */
  size_t index;        /* the diag */
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *x = pa, *y = pb;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  if (x->b != y->b) return x->b < y->b ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int diag_key(const tc_diag *d, const char *root_dir, tc_source_cache *sc, keyed *k) {
  char *rel = tc_path_below_root(root_dir, d->loc.file);
  const char *file = rel ? rel : d->loc.file;
  const char *text = "";
  size_t len = 0;
  if (tc_source_line(sc, d->loc.file, d->loc.line, &text, &len) != 0) text = "", len = 0;
  char *line = tc_fingerprint_normalize_line(text, len);
  if (!line) {
    free(rel);
    return -1;
  }
  const char *parts[] = {d->rule_id, file, d->function, d->operation, line};
  k->a = FNV_BASIS_A;
  k->b = FNV_BASIS_B;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    size_t n = strlen(parts[i]) + 1; /* the NUL separates the parts */
    k->a = fnv1a(k->a, parts[i], n);
    k->b = fnv1a(k->b, parts[i], n);
  }
  free(line);
  free(rel);
  return 0;
}

int tc_fingerprints(const tc_report *r, const char *root_dir, tc_source_cache *sc,
                    tc_fingerprint *out) {
  if (r->n_diags == 0) return 0;
  keyed *keys = calloc(r->n_diags, sizeof *keys);
  if (!keys) return -1;
  for (size_t i = 0; i < r->n_diags; i++) {
    keys[i].index = i;
    keys[i].line = r->diags[i].loc.line;
    keys[i].col = r->diags[i].loc.col;
    if (diag_key(&r->diags[i], root_dir, sc, &keys[i]) != 0) {
      free(keys);
      return -1;
    }
  }
  qsort(keys, r->n_diags, sizeof *keys, cmp_keyed);
  unsigned long long occurrence = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    if (i > 0 && keys[i].a == keys[i - 1].a && keys[i].b == keys[i - 1].b) occurrence++;
    else occurrence = 0;
    char idx[32];
    int n = snprintf(idx, sizeof idx, "%llu", occurrence);
    uint64_t a = fnv1a(keys[i].a, idx, (size_t)n);
    uint64_t b = fnv1a(keys[i].b, idx, (size_t)n);
    snprintf(out[keys[i].index], sizeof out[keys[i].index], "%016llx%016llx",
             (unsigned long long)a, (unsigned long long)b);
  }
  free(keys);
  return 0;
}
