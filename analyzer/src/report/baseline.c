/* analyzer/src/report/baseline.c — --baseline OLD.sarif: drops the findings whose fingerprint
 * (partialFingerprints "tagcheckFingerprint/v1", never the line) appears in an earlier SARIF
 * log, so that a pull request sees only the findings it introduces. */
#include <stdlib.h>
#include <string.h>

#include "report/fingerprint.h"
#include "report/json_util.h"
#include "report/output.h"
#include "report/report_internal.h"
#include "base/uri.h"

typedef struct baseline_set {
  const char **fps; /* borrowed from the parsed log */
  size_t n;
} baseline_set;

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A finding is known when the baseline has its fingerprint. Fingerprints number the
   occurrences of one key (the same call text twice in a function), so a baseline with two
   occurrences hides two findings, never a third: matching counts occurrences. */
static int keep_new(const tc_diag *d, size_t index, void *p) {
  (void)index;
  baseline_set *s = p;
  if (s->n == 0 || !d->fingerprint) return 1;
  const char *key = d->fingerprint;
  return bsearch(&key, s->fps, s->n, sizeof *s->fps, cmp_str) == NULL;
}

/* Collects every result's fingerprint; -1 with err set when the log is not SARIF. */
static int collect(const cJSON *log, const char *path, baseline_set *s, char *err,
                   size_t err_len) {
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(log, "version");
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(log, "runs");
  if (!cJSON_IsObject(log) || !cJSON_IsArray(runs)) {
    snprintf(err, err_len, "%s: not a SARIF log (expected an object with a \"runs\" array)",
             path);
    return -1;
  }
  if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.1.0") != 0) {
    snprintf(err, err_len, "%s: not a SARIF 2.1.0 log (\"version\" must be \"2.1.0\")", path);
    return -1;
  }
  size_t cap = 0;
  const cJSON *run;
  cJSON_ArrayForEach(run, runs) {
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(run, "results");
    if (results && !cJSON_IsArray(results)) {
      snprintf(err, err_len, "%s: invalid SARIF: \"results\" must be an array", path);
      return -1;
    }
    const cJSON *res;
    cJSON_ArrayForEach(res, results) {
      const cJSON *fps = cJSON_GetObjectItemCaseSensitive(res, "partialFingerprints");
      const cJSON *fp = cJSON_GetObjectItemCaseSensitive(fps, TC_FINGERPRINT_KEY);
      if (!cJSON_IsString(fp)) continue;
      if (s->n == cap) {
        cap = cap ? cap * 2 : 64;
        const char **p = realloc(s->fps, cap * sizeof *p);
        if (!p) {
          snprintf(err, err_len, "%s: out of memory", path);
          return -1;
        }
        s->fps = p;
      }
      s->fps[s->n++] = fp->valuestring;
    }
  }
  return 0;
}

int tc_apply_baseline(tc_report *r, const char *baseline_path, const tc_options *o, char *err,
                      size_t err_len) {
  if (err_len) err[0] = '\0';
  if (!baseline_path || !*baseline_path) return 0;
  int rc = -1;
  baseline_set s = {NULL, 0};
  cJSON *log = tc_json_read_file(baseline_path, NULL, err, err_len);
  if (!log || collect(log, baseline_path, &s, err, err_len) != 0) goto done;
  /* Fingerprints are those of the whole report (fixed before any filter, kept by the writers):
     a new finding never inherits the number of a known one that the baseline drops. */
  if (tc_report_fix_fingerprints(r, o) != 0) {
    snprintf(err, err_len, "%s: out of memory", baseline_path);
    goto done;
  }
  if (s.n > 1) qsort(s.fps, s.n, sizeof *s.fps, cmp_str);
  size_t before = r->n_diags;
  tc_report_filter(r, keep_new, &s);
  r->baseline_applied = 1;
  r->n_baseline_known += before - r->n_diags;
  rc = 0;
done:
  free(s.fps);
  cJSON_Delete(log);
  return rc;
}
