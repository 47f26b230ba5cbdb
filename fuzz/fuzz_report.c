/* fuzz/fuzz_report.c — libFuzzer harness for the report writers, SARIF above all: the input is
 * decoded into a report (findings with arbitrary bytes in paths, messages and notes, line and
 * column numbers past the end of their files, failed units, a rule of the fuzzer's own), a
 * source file the findings may point at is written with fuzzed content, suppressions are
 * applied, and the report is written as SARIF, JSON and text. SARIF and JSON must come out as
 * valid UTF-8 JSON, with one SARIF result per finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "options.h"
#include "report/diag.h"
#include "report/output.h"
#include "utf8_valid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- reading the input ---- */

typedef struct bytes {
  const uint8_t *p;
  size_t n;
} bytes;

static unsigned take_byte(bytes *b) {
  if (b->n == 0) return 0;
  b->n--;
  return *b->p++;
}

static unsigned take_u16(bytes *b) {
  unsigned lo = take_byte(b);
  return lo | take_byte(b) << 8;
}

/* A line or column: mostly small, sometimes 0 or far past any end. */
static unsigned take_position(bytes *b) {
  unsigned sel = take_byte(b);
  if (sel < 200) return sel % 40;
  if (sel < 250) return take_u16(b);
  return 0xFFFFFFF0u + (sel & 0xF);
}

/* Up to max arbitrary bytes (NUL bytes become 'x'; with no_slash, '/' too), NUL-terminated. */
static char *take_text(bytes *b, size_t max, int no_slash) {
  size_t len = take_byte(b) % (max + 1);
  if (len > b->n) len = b->n;
  char *s = malloc(len + 1);
  if (s == NULL) abort();
  for (size_t i = 0; i < len; i++) {
    char c = (char)b->p[i];
    s[i] = (c == '\0' || (no_slash && c == '/')) ? 'x' : c;
  }
  s[len] = '\0';
  b->p += len;
  b->n -= len;
  return s;
}

/* ---- files: a work directory with a source file whose name has a space, '%', '#' and bytes
   that are not UTF-8, written afresh for each input ---- */

typedef struct workdir {
  char dir[64];
  char sub[128];
  char source[192];
} workdir;

static const workdir *get_workdir(void) {
  static workdir w; /* one per fuzzing process */
  if (w.dir[0] == '\0') {
    snprintf(w.dir, sizeof w.dir, "/tmp/tagcheck-fuzz-report-XXXXXX");
    if (mkdtemp(w.dir) == NULL) abort();
    snprintf(w.sub, sizeof w.sub, "%s/src dir %%20\xff\xfe", w.dir);
    if (mkdir(w.sub, 0700) != 0) abort();
    snprintf(w.source, sizeof w.source, "%s/m\xc3\xa9 #1.c", w.sub);
  }
  return &w;
}

/* An absolute, normalized path: the work file, or segments of fuzzed bytes. */
static char *take_path(bytes *b, const workdir *w) {
  unsigned sel = take_byte(b);
  if (sel < 128) {
    char *s = strdup(w->source);
    if (s == NULL) abort();
    return s;
  }
  const char *base = sel < 192 ? w->sub : "";
  size_t segments = 1 + sel % 3;
  size_t cap = strlen(base) + segments * 34 + 1, len = strlen(base);
  char *path = malloc(cap);
  if (path == NULL) abort();
  memcpy(path, base, len);
  for (size_t i = 0; i < segments; i++) {
    char *seg = take_text(b, 32, 1);
    if (seg[0] == '\0' || strcmp(seg, ".") == 0 || strcmp(seg, "..") == 0) {
      free(seg);
      seg = strdup("f");
      if (seg == NULL) abort();
    }
    path[len++] = '/';
    memcpy(path + len, seg, strlen(seg));
    len += strlen(seg);
    free(seg);
  }
  path[len] = '\0';
  return path;
}

static void take_loc(bytes *b, const workdir *w, tc_loc *loc) {
  loc->file = take_path(b, w);
  loc->line = take_position(b);
  loc->col = take_position(b);
  loc->end_line = take_position(b);
  loc->end_col = take_position(b);
}

static const char *const k_rule_ids[] = {"backend-mismatch", "autodiff-inner-backend",
                                          "autodiff-expected", "autodiff-nested",
                                          "device-mismatch", "kind-mismatch",
                                          "backend-unavailable", "shape"};
#define N_RULE_IDS (sizeof k_rule_ids / sizeof k_rule_ids[0])

static void build_report(bytes *b, const workdir *w, tc_report *r) {
  tc_report_add_builtin_rules(r);
  tc_rule_meta own = {0};
  own.id = take_text(b, 24, 0);
  own.name = take_text(b, 24, 0);
  own.short_description = take_text(b, 48, 0);
  own.full_description = take_text(b, 48, 0);
  own.help = take_text(b, 48, 0);
  own.default_level = (tc_level)(take_byte(b) % 3);
  int own_usable = own.id[0] != '\0';
  if (own_usable) tc_report_add_rule(r, &own);

  size_t n_diags = take_byte(b) % 9;
  for (size_t i = 0; i < n_diags && b->n > 0; i++) {
    unsigned rule = take_byte(b) % (N_RULE_IDS + 1);
    const char *rule_id = rule < N_RULE_IDS || !own_usable ? k_rule_ids[rule % N_RULE_IDS] : own.id;
    tc_level level = (tc_level)(take_byte(b) % 3);
    tc_loc loc;
    take_loc(b, w, &loc);
    char *op = take_text(b, 16, 0), *fn = take_text(b, 16, 0), *msg = take_text(b, 64, 0);
    tc_diag *d = tc_report_add(r, rule_id, level, &loc, op, fn, msg);
    if (d == NULL) abort();
    size_t n_notes = take_byte(b) % 4;
    for (size_t k = 0; k < n_notes; k++) {
      tc_loc nl;
      take_loc(b, w, &nl);
      char *nm = take_text(b, 48, 0);
      tc_diag_add_note(d, &nl, nm);
      free(nm);
      free(nl.file);
    }
    free(op);
    free(fn);
    free(msg);
    free(loc.file);
  }
  size_t n_failures = take_byte(b) % 3;
  for (size_t i = 0; i < n_failures; i++) {
    char *file = take_path(b, w), *reason = take_text(b, 64, 0);
    tc_report_add_failure(r, file, reason);
    free(file);
    free(reason);
  }
  r->n_units = take_byte(b);
  free(own.id);
  free(own.name);
  free(own.short_description);
  free(own.full_description);
  free(own.help);
}

/* ---- checking the output ---- */

/* Writes r in format f; returns the parsed output (NULL for text, which is only written). */
static cJSON *write_as(const tc_report *r, tc_options *o, tc_format f) {
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  if (mem == NULL) abort();
  o->format = f;
  if (tc_write_report(r, o, mem) != 0) abort();
  fclose(mem);
  cJSON *json = NULL;
  if (f != TC_FORMAT_TEXT) {
    if (!utf8_valid(out, len)) abort();
    json = cJSON_ParseWithLength(out, len);
    if (json == NULL) abort();
  }
  free(out);
  return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const workdir *w = get_workdir();
  bytes b = {data, size};

  /* The source file's content: the first chunk of the input. */
  size_t src_len = take_u16(&b) % 2048;
  if (src_len > b.n) src_len = b.n;
  FILE *f = fopen(w->source, "wb");
  if (f == NULL) abort();
  fwrite(b.p, 1, src_len, f);
  fclose(f);
  b.p += src_len;
  b.n -= src_len;

  tc_options o;
  memset(&o, 0, sizeof o);
  unsigned root_sel = take_byte(&b) % 3;
  o.root = strdup(root_sel == 0 ? w->dir : root_sel == 1 ? w->sub : "/");
  o.show_suppressed = take_byte(&b) & 1;

  tc_report r;
  tc_report_init(&r);
  build_report(&b, w, &r);
  tc_apply_suppressions(&r);
  tc_report_sort(&r);

  cJSON *sarif = write_as(&r, &o, TC_FORMAT_SARIF);
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sarif, "runs");
  const cJSON *results = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(runs, 0), "results");
  if (!cJSON_IsArray(results) || (size_t)cJSON_GetArraySize(results) != r.n_diags) abort();
  cJSON_Delete(sarif);
  cJSON_Delete(write_as(&r, &o, TC_FORMAT_JSON));
  write_as(&r, &o, TC_FORMAT_TEXT);

  tc_report_free(&r);
  free(o.root);
  return 0;
}
