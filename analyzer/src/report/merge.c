/* analyzer/src/report/merge.c — `tagcheck merge [-o OUT] IN.sarif...`: joins the SARIF logs
 * of CI shards (--shard K/N) into one valid log: one run, rules unioned by id (ruleIndex
 * renumbered), results de-duplicated by fingerprint and sorted by location, invocations
 * combined into one (executionSuccessful only if every shard's was, all notifications kept),
 * GitHub's result limit applied again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fingerprint.h"
#include "report/json_util.h"
#include "report/output.h"
#include "report/sarif_limits.h"

typedef struct merge_ctx {
  cJSON *rules;       /* the merged driver's rules array (owned by out) */
  cJSON **results;    /* copies, owned here until added to the output */
  size_t n_results, cap_results;
  cJSON *notifications;
  int all_successful;
  cJSON *first_driver; /* borrowed from the first input */
  cJSON *base_ids;     /* merged originalUriBaseIds (owned) */
  cJSON *working_dir;  /* borrowed: the first invocation's workingDirectory */
  const char *column_kind;
} merge_ctx;

static void usage(FILE *f) {
  fputs("usage: tagcheck merge [-o OUT.sarif] IN.sarif...\n"
        "Merges the SARIF logs of sharded runs (--shard K/N) into one log: one run, rules\n"
        "unioned, results de-duplicated by fingerprint, invocations combined.\n",
        f);
}

static const char *str_item(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Index of the rule with this id in the merged rules, adding a copy of rule when new. */
static int merged_rule_index(merge_ctx *m, const char *id, const cJSON *rule) {
  int i = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, m->rules) {
    const char *rid = str_item(r, "id");
    if (rid && strcmp(rid, id) == 0) return i;
    i++;
  }
  cJSON *copy = rule ? cJSON_Duplicate(rule, 1) : cJSON_CreateObject();
  if (!copy) return -1;
  if (!rule) cJSON_AddStringToObject(copy, "id", id);
  cJSON_AddItemToArray(m->rules, copy);
  return i;
}

/* artifactLocation.index points into a run's artifacts array, which the merge drops. */
static void strip_artifact_indices(cJSON *item) {
  if (!item) return;
  if (cJSON_IsObject(item)) {
    cJSON *al = cJSON_GetObjectItemCaseSensitive(item, "artifactLocation");
    if (cJSON_IsObject(al)) cJSON_DeleteItemFromObjectCaseSensitive(al, "index");
  }
  cJSON *child;
  cJSON_ArrayForEach(child, item) strip_artifact_indices(child);
}

static int add_result(merge_ctx *m, cJSON *res) {
  if (m->n_results == m->cap_results) {
    size_t cap = m->cap_results ? m->cap_results * 2 : 256;
    cJSON **p = realloc(m->results, cap * sizeof *p);
    if (!p) return -1;
    m->results = p;
    m->cap_results = cap;
  }
  m->results[m->n_results++] = res;
  return 0;
}

static int merge_run(merge_ctx *m, const cJSON *run, const char *path, char *err, size_t n) {
  const cJSON *driver = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(run, "tool"), "driver");
  if (!cJSON_IsObject(driver) || !str_item(driver, "name")) {
    snprintf(err, n, "%s: invalid SARIF: a run without tool.driver.name", path);
    return -1;
  }
  if (!m->first_driver) m->first_driver = (cJSON *)driver;
  const cJSON *rules = cJSON_GetObjectItemCaseSensitive(driver, "rules");

  const cJSON *bases = cJSON_GetObjectItemCaseSensitive(run, "originalUriBaseIds");
  const cJSON *b;
  cJSON_ArrayForEach(b, bases) {
    /* The first shard's %SRCROOT% wins: every shard checked out the same repository, and
       results stay relative to it. */
    if (!cJSON_GetObjectItemCaseSensitive(m->base_ids, b->string))
      cJSON_AddItemToObject(m->base_ids, b->string, cJSON_Duplicate(b, 1));
  }
  if (!m->column_kind) m->column_kind = str_item(run, "columnKind");

  const cJSON *inv;
  cJSON_ArrayForEach(inv, cJSON_GetObjectItemCaseSensitive(run, "invocations")) {
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(inv, "executionSuccessful");
    if (!cJSON_IsTrue(ok)) m->all_successful = 0;
    if (!m->working_dir)
      m->working_dir = cJSON_GetObjectItemCaseSensitive(inv, "workingDirectory");
    const cJSON *note;
    cJSON_ArrayForEach(note, cJSON_GetObjectItemCaseSensitive(inv, "toolExecutionNotifications")) {
      cJSON *copy = cJSON_Duplicate(note, 1);
      strip_artifact_indices(copy);
      if (copy) cJSON_AddItemToArray(m->notifications, copy);
    }
  }

  const cJSON *results = cJSON_GetObjectItemCaseSensitive(run, "results");
  if (results && !cJSON_IsArray(results)) {
    snprintf(err, n, "%s: invalid SARIF: \"results\" must be an array", path);
    return -1;
  }
  const cJSON *res;
  cJSON_ArrayForEach(res, results) {
    const char *id = str_item(res, "ruleId");
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(res, "ruleIndex");
    const cJSON *rule = NULL;
    if (cJSON_IsNumber(idx)) rule = cJSON_GetArrayItem(rules, idx->valueint);
    if (!id && rule) id = str_item(rule, "id");
    if (!rule && id) {
      const cJSON *r;
      cJSON_ArrayForEach(r, rules) {
        const char *rid = str_item(r, "id");
        if (rid && strcmp(rid, id) == 0) {
          rule = r;
          break;
        }
      }
    }
    if (!id) {
      snprintf(err, n, "%s: invalid SARIF: a result without ruleId", path);
      return -1;
    }
    cJSON *copy = cJSON_Duplicate(res, 1);
    int index = merged_rule_index(m, id, rule);
    if (!copy || index < 0 || add_result(m, copy) != 0) {
      cJSON_Delete(copy);
      snprintf(err, n, "%s: out of memory", path);
      return -1;
    }
    strip_artifact_indices(copy);
    if (!str_item(copy, "ruleId")) cJSON_AddStringToObject(copy, "ruleId", id);
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "ruleIndex");
    cJSON_AddNumberToObject(copy, "ruleIndex", index);
  }
  return 0;
}

/* ---- ordering and de-duplication ---- */

static const cJSON *primary_location(const cJSON *res) {
  return cJSON_GetObjectItemCaseSensitive(
      cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(res, "locations"), 0),
      "physicalLocation");
}

static const char *result_uri(const cJSON *res) {
  const char *uri =
      str_item(cJSON_GetObjectItemCaseSensitive(primary_location(res), "artifactLocation"), "uri");
  return uri ? uri : "";
}

static int region_num(const cJSON *res, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(primary_location(res), "region"), key);
  return cJSON_IsNumber(v) ? v->valueint : 0;
}

static const char *result_fingerprint(const cJSON *res) {
  return str_item(cJSON_GetObjectItemCaseSensitive(res, "partialFingerprints"),
                  TC_FINGERPRINT_KEY);
}

static int cmp_result(const void *pa, const void *pb) {
  const cJSON *a = *(cJSON *const *)pa, *b = *(cJSON *const *)pb;
  int c = strcmp(result_uri(a), result_uri(b));
  if (!c) c = region_num(a, "startLine") - region_num(b, "startLine");
  if (!c) c = region_num(a, "startColumn") - region_num(b, "startColumn");
  if (!c) c = strcmp(str_item(a, "ruleId"), str_item(b, "ruleId"));
  if (!c) {
    const char *fa = result_fingerprint(a), *fb = result_fingerprint(b);
    c = strcmp(fa ? fa : "", fb ? fb : "");
  }
  return c;
}

/* Drops repeated results. Sorted, the copies of one finding (a header's helper analyzed by two
   shards) are neighbours: same place, rule and fingerprint. Results without a fingerprint are
   compared whole against the others of their group. */
static void dedupe(merge_ctx *m) {
  size_t out = 0, group = 0;
  for (size_t i = 0; i < m->n_results; i++) {
    cJSON *res = m->results[i];
    if (out == 0 || cmp_result(&m->results[group], &res) != 0) group = out;
    int dup = 0;
    for (size_t k = group; k < out && !dup; k++) {
      if (result_fingerprint(res) && result_fingerprint(m->results[k])) dup = 1;
      else dup = cJSON_Compare(res, m->results[k], 1);
    }
    if (dup) {
      cJSON_Delete(res);
      continue;
    }
    m->results[out++] = res;
  }
  m->n_results = out;
}

/* ---- output ---- */

static cJSON *build(merge_ctx *m) {
  cJSON *log = cJSON_CreateObject();
  if (!log) return NULL;
  cJSON_AddStringToObject(log, "$schema", TC_SARIF_SCHEMA);
  cJSON_AddStringToObject(log, "version", TC_SARIF_VERSION);
  cJSON *runs = cJSON_AddArrayToObject(log, "runs");
  cJSON *run = cJSON_CreateObject();
  if (!runs || !run) {
    cJSON_Delete(run);
    cJSON_Delete(log);
    return NULL;
  }
  cJSON_AddItemToArray(runs, run);

  cJSON *tool = cJSON_AddObjectToObject(run, "tool");
  cJSON *driver = cJSON_Duplicate(m->first_driver, 1);
  if (!driver) driver = cJSON_CreateObject();
  cJSON_DeleteItemFromObjectCaseSensitive(driver, "rules");
  cJSON_AddItemToObject(driver, "rules", m->rules);
  m->rules = NULL;
  cJSON_AddItemToObject(tool, "driver", driver);

  if (cJSON_GetArraySize(m->base_ids) > 0) {
    cJSON_AddItemToObject(run, "originalUriBaseIds", m->base_ids);
    m->base_ids = NULL;
  }

  cJSON *inv = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
  cJSON_AddBoolToObject(inv, "executionSuccessful", m->all_successful);
  if (m->working_dir)
    cJSON_AddItemToObject(inv, "workingDirectory", cJSON_Duplicate(m->working_dir, 1));

  size_t n = m->n_results < TC_SARIF_MAX_RESULTS ? m->n_results : TC_SARIF_MAX_RESULTS;
  if (m->n_results > n) {
    char text[256];
    snprintf(text, sizeof text,
             "The merged logs hold %zu results; this log keeps the first %zu (GitHub's limit "
             "per run).",
             m->n_results, n);
    cJSON *note = cJSON_CreateObject();
    cJSON_AddStringToObject(note, "level", "warning");
    tc_json_add_message(note, "message", text);
    cJSON_AddItemToArray(m->notifications, note);
  }
  if (cJSON_GetArraySize(m->notifications) > 0) {
    cJSON_AddItemToObject(inv, "toolExecutionNotifications", m->notifications);
    m->notifications = NULL;
  }

  cJSON *results = cJSON_AddArrayToObject(run, "results");
  for (size_t i = 0; i < m->n_results; i++) {
    if (i < n) cJSON_AddItemToArray(results, m->results[i]);
    else cJSON_Delete(m->results[i]);
  }
  m->n_results = 0;
  if (m->column_kind) cJSON_AddStringToObject(run, "columnKind", m->column_kind);
  return log;
}

int tc_merge_main(int argc, char **argv) {
  const char *out_path = NULL;
  const char **inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *inputs);
  size_t n_inputs = 0;
  if (!inputs) return 2;
  int i = 1;
  /* Called with argv = {"merge", …} or with the whole command line {"tagcheck", "merge", …}. */
  if (argc > 1 && strcmp(argv[1], "merge") == 0 &&
      (!argv[0] || strcmp(argv[0], "merge") != 0))
    i = 2;
  int only_files = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!only_files && strcmp(a, "--") == 0) {
      only_files = 1;
    } else if (!only_files && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
      usage(stdout);
      free(inputs);
      return 0;
    } else if (!only_files && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)) {
      if (i + 1 >= argc) {
        fprintf(stderr, "tagcheck merge: %s needs a file name\n", a);
        free(inputs);
        return 2;
      }
      out_path = argv[++i];
    } else if (!only_files && strncmp(a, "--output=", 9) == 0) {
      out_path = a + 9;
    } else if (!only_files && strncmp(a, "-o", 2) == 0) {
      out_path = a + 2;
    } else if (!only_files && a[0] == '-' && a[1]) {
      fprintf(stderr, "tagcheck merge: unknown option %s\n", a);
      usage(stderr);
      free(inputs);
      return 2;
    } else {
      inputs[n_inputs++] = a;
    }
  }
  if (n_inputs == 0) {
    fputs("tagcheck merge: no input SARIF files\n", stderr);
    usage(stderr);
    free(inputs);
    return 2;
  }

  int rc = 2;
  char err[1024];
  merge_ctx m;
  memset(&m, 0, sizeof m);
  m.all_successful = 1;
  m.rules = cJSON_CreateArray();
  m.notifications = cJSON_CreateArray();
  m.base_ids = cJSON_CreateObject();
  cJSON **logs = calloc(n_inputs, sizeof *logs);
  cJSON *out = NULL;
  if (!logs || !m.rules || !m.notifications || !m.base_ids) goto done;
  for (size_t k = 0; k < n_inputs; k++) {
    logs[k] = tc_json_read_file(inputs[k], NULL, err, sizeof err);
    if (!logs[k]) goto fail;
    const char *version = str_item(logs[k], "version");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(logs[k], "runs");
    if (!version || strcmp(version, TC_SARIF_VERSION) != 0 || !cJSON_IsArray(runs)) {
      snprintf(err, sizeof err, "%s: not a SARIF 2.1.0 log", inputs[k]);
      goto fail;
    }
    const cJSON *run;
    cJSON_ArrayForEach(run, runs) {
      if (merge_run(&m, run, inputs[k], err, sizeof err) != 0) goto fail;
    }
  }
  if (!m.first_driver) {
    snprintf(err, sizeof err, "%s: no runs to merge", inputs[0]);
    goto fail;
  }
  if (m.n_results > 1) qsort(m.results, m.n_results, sizeof *m.results, cmp_result);
  dedupe(&m);
  out = build(&m);
  if (!out) goto done;
  FILE *f = out_path && strcmp(out_path, "-") != 0 ? fopen(out_path, "w") : stdout;
  if (!f) {
    perror(out_path);
    goto done;
  }
  int wrc = tc_json_write(out, f);
  if (f != stdout && fclose(f) != 0) wrc = -1;
  if (wrc != 0) {
    fprintf(stderr, "tagcheck merge: %s: write error\n", out_path ? out_path : "<stdout>");
    goto done;
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "tagcheck merge: %s\n", err);
done:
  for (size_t k = 0; k < m.n_results; k++) cJSON_Delete(m.results[k]);
  free(m.results);
  cJSON_Delete(m.rules);
  cJSON_Delete(m.notifications);
  cJSON_Delete(m.base_ids);
  cJSON_Delete(out);
  for (size_t k = 0; logs && k < n_inputs; k++) cJSON_Delete(logs[k]);
  free(logs);
  free(inputs);
  return rc;
}
