/* analyzer/src/report/merge.c — `tagcheck merge [-o OUT] IN.sarif...`: joins the SARIF logs
 * of CI shards (--shard K/N) into one valid log: one run, rules unioned by id (ruleIndex
 * renumbered), results de-duplicated by fingerprint and sorted by location, invocations
 * combined into one (executionSuccessful only if every shard's was, all notifications kept),
 * GitHub's result limit applied again. Runs of other tools are merged the same way among
 * themselves, each tool keeping its own run: results stay attributed to the tool that made
 * them (a result of the runtime's log that tagcheck's already holds, same fingerprint, is
 * counted once). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fingerprint.h"
#include "report/json_util.h"
#include "report/output.h"
#include "report/sarif_limits.h"
#include "base/bytes.h"
#include "base/file.h"

/* One merged result and its sort key, read once (comparing through cJSON lookups at every
   step of the sort made large merges slow). */
typedef struct merged_result {
  cJSON *res; /* a copy, owned here until added to the output */
  const char *uri, *rule_id, *fingerprint;
  int line, col;
  char *text; /* results without a fingerprint: the whole result, for de-duplication */
} merged_result;

/* Open-addressing index of the merged rules by id: slot = rule index + 1, 0 empty. */
typedef struct rule_index {
  size_t *slots;
  size_t cap, n;
  const char **ids; /* by rule index, borrowed from the merged rules */
  size_t cap_ids;
} rule_index;

/* The runs of one tool (tool.driver.name), merged into one output run. Runs of different tools
   stay apart: a clang-tidy run given to merge keeps its results attributed to clang-tidy. */
typedef struct merge_ctx {
  const char *tool_name; /* borrowed from the first input of this tool */
  cJSON *rules;          /* the merged driver's rules array (owned until build) */
  rule_index ids;
  merged_result *results;
  size_t n_results, cap_results;
  cJSON *notifications;
  int all_successful;
  cJSON *first_tool;   /* borrowed: the first run's tool object */
  cJSON *base_ids;     /* merged originalUriBaseIds (owned) */
  cJSON *working_dir;  /* borrowed: the first invocation's workingDirectory */
  const char *column_kind;
} merge_ctx;

static void usage(FILE *f) {
  fputs("usage: tagcheck merge [-o OUT.sarif] IN.sarif...\n"
        "Merges the SARIF logs of sharded runs (--shard K/N) into one log: one run per tool,\n"
        "rules unioned, results de-duplicated by fingerprint, invocations combined.\n",
        f);
}

static const char *str_item(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int rule_index_find(const rule_index *x, const char *id) {
  if (!x->cap) return -1;
  for (size_t h = (size_t)tc_fnv64_str(id) & (x->cap - 1); x->slots[h]; h = (h + 1) & (x->cap - 1))
    if (strcmp(x->ids[x->slots[h] - 1], id) == 0) return (int)(x->slots[h] - 1);
  return -1;
}

/* Records that rule number x->n has this id (the index doubles when half full). */
static int rule_index_add(rule_index *x, const char *id) {
  if (x->n == x->cap_ids) {
    size_t cap = x->cap_ids ? x->cap_ids * 2 : 64;
    const char **p = realloc(x->ids, cap * sizeof *p);
    if (!p) return -1;
    x->ids = p;
    x->cap_ids = cap;
  }
  if ((x->n + 1) * 2 > x->cap) {
    size_t cap = x->cap ? x->cap * 2 : 128;
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < x->n; i++) {
      size_t h = (size_t)tc_fnv64_str(x->ids[i]) & (cap - 1);
      while (slots[h]) h = (h + 1) & (cap - 1);
      slots[h] = i + 1;
    }
    free(x->slots);
    x->slots = slots;
    x->cap = cap;
  }
  x->ids[x->n] = id;
  size_t h = (size_t)tc_fnv64_str(id) & (x->cap - 1);
  while (x->slots[h]) h = (h + 1) & (x->cap - 1);
  x->slots[h] = ++x->n;
  return 0;
}

/* Index of the rule with this id in the merged rules, adding a copy of rule when new. */
static int merged_rule_index(merge_ctx *m, const char *id, const cJSON *rule) {
  int i = rule_index_find(&m->ids, id);
  if (i >= 0) return i;
  cJSON *copy = rule ? cJSON_Duplicate(rule, 1) : cJSON_CreateObject();
  if (!copy) return -1;
  const char *copy_id = str_item(copy, "id");
  if (!copy_id || strcmp(copy_id, id) != 0) { /* no rule, or one that disagrees with ruleId */
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "id");
    cJSON_AddStringToObject(copy, "id", id);
  }
  const char *own_id = str_item(copy, "id");
  if (!own_id || rule_index_add(&m->ids, own_id) != 0) {
    cJSON_Delete(copy);
    return -1;
  }
  cJSON_AddItemToArray(m->rules, copy);
  return (int)m->ids.n - 1;
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
    merged_result *p = realloc(m->results, cap * sizeof *p);
    if (!p) return -1;
    m->results = p;
    m->cap_results = cap;
  }
  merged_result *r = &m->results[m->n_results++];
  memset(r, 0, sizeof *r);
  r->res = res;
  return 0;
}

/* The rules of one input run, by position (ruleIndex) and, sorted, by id (ruleId alone). */
typedef struct run_rules {
  const cJSON **by_pos;
  size_t n;
  const cJSON **by_id;
} run_rules;

static int cmp_rule_id(const void *pa, const void *pb) {
  const char *a = str_item(*(const cJSON *const *)pa, "id");
  const char *b = str_item(*(const cJSON *const *)pb, "id");
  return strcmp(a ? a : "", b ? b : "");
}

static int run_rules_init(run_rules *rr, const cJSON *rules) {
  memset(rr, 0, sizeof *rr);
  size_t n = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, rules) n++;
  rr->by_pos = calloc(n ? n : 1, sizeof *rr->by_pos);
  rr->by_id = calloc(n ? n : 1, sizeof *rr->by_id);
  if (!rr->by_pos || !rr->by_id) return -1;
  cJSON_ArrayForEach(r, rules) rr->by_pos[rr->n] = rr->by_id[rr->n] = r, rr->n++;
  if (n > 1) qsort(rr->by_id, n, sizeof *rr->by_id, cmp_rule_id);
  return 0;
}

static const cJSON *run_rule_by_id(const run_rules *rr, const char *id) {
  size_t lo = 0, hi = rr->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *mid_id = str_item(rr->by_id[mid], "id");
    int c = strcmp(mid_id ? mid_id : "", id);
    if (c == 0) return rr->by_id[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

static void run_rules_free(run_rules *rr) {
  free(rr->by_pos);
  free(rr->by_id);
}

static int merge_results(merge_ctx *m, const cJSON *results, const run_rules *rr,
                         const char *path, char *err, size_t n) {
  const cJSON *res;
  cJSON_ArrayForEach(res, results) {
    const char *id = str_item(res, "ruleId");
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(res, "ruleIndex");
    const cJSON *rule = NULL;
    if (cJSON_IsNumber(idx) && idx->valuedouble >= 0 && idx->valuedouble < (double)rr->n)
      rule = rr->by_pos[(size_t)idx->valuedouble];
    if (!id && rule) id = str_item(rule, "id");
    if (!rule && id) rule = run_rule_by_id(rr, id);
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

static int merge_run(merge_ctx *m, const cJSON *run, const char *path, char *err, size_t n) {
  const cJSON *tool = cJSON_GetObjectItemCaseSensitive(run, "tool");
  const cJSON *driver = cJSON_GetObjectItemCaseSensitive(tool, "driver");
  if (!m->first_tool) m->first_tool = (cJSON *)tool;

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
  run_rules rr;
  int rc = run_rules_init(&rr, cJSON_GetObjectItemCaseSensitive(driver, "rules"));
  if (rc != 0) snprintf(err, n, "%s: out of memory", path);
  else rc = merge_results(m, results, &rr, path, err, n);
  run_rules_free(&rr);
  return rc;
}

/* ---- ordering and de-duplication ---- */

static const cJSON *primary_location(const cJSON *res) {
  return cJSON_GetObjectItemCaseSensitive(
      cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(res, "locations"), 0),
      "physicalLocation");
}

static int region_num(const cJSON *res, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(primary_location(res), "region"), key);
  return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* Fills the sort key of every result; -1 when out of memory. */
static int read_keys(merge_ctx *m) {
  for (size_t i = 0; i < m->n_results; i++) {
    merged_result *r = &m->results[i];
    const char *uri = str_item(
        cJSON_GetObjectItemCaseSensitive(primary_location(r->res), "artifactLocation"), "uri");
    r->uri = uri ? uri : "";
    r->line = region_num(r->res, "startLine");
    r->col = region_num(r->res, "startColumn");
    r->rule_id = str_item(r->res, "ruleId");
    r->fingerprint = str_item(cJSON_GetObjectItemCaseSensitive(r->res, "partialFingerprints"),
                              TC_FINGERPRINT_KEY);
    if (!r->fingerprint && !(r->text = cJSON_PrintUnformatted(r->res))) return -1;
  }
  return 0;
}

static int cmp_int(int a, int b) { return a < b ? -1 : a > b; }

static int cmp_result(const void *pa, const void *pb) {
  const merged_result *a = pa, *b = pb;
  int c = strcmp(a->uri, b->uri);
  if (!c) c = cmp_int(a->line, b->line);
  if (!c) c = cmp_int(a->col, b->col);
  if (!c) c = strcmp(a->rule_id, b->rule_id);
  if (!c) c = strcmp(a->fingerprint ? a->fingerprint : "", b->fingerprint ? b->fingerprint : "");
  if (!c) c = strcmp(a->text ? a->text : "", b->text ? b->text : "");
  return c;
}

/* Drops repeated results. Sorted, the copies of one finding (a header's helper analyzed by two
   shards) are neighbours: same place, rule and fingerprint; results without a fingerprint are
   repeats when they are equal as a whole. */
static void dedupe(merge_ctx *m) {
  size_t out = 0;
  for (size_t i = 0; i < m->n_results; i++) {
    merged_result *r = &m->results[i];
    if (out > 0 && cmp_result(&m->results[out - 1], r) == 0) {
      cJSON_Delete(r->res);
      cJSON_free(r->text);
      continue;
    }
    m->results[out++] = *r;
  }
  m->n_results = out;
}

static int cmp_str_ptr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The runtime's DT_REPORT log (tool "dt") and tagcheck's share the fingerprint scheme
   (dt/fingerprint.h) so that a bug both halves report counts once: a result whose fingerprint
   an earlier run of the output already holds is dropped. The results that stay keep their own
   tool. Returns 0, or -1 when out of memory. */
static int drop_seen_in_earlier_runs(merge_ctx *tools, size_t n_tools) {
  size_t total = 0;
  for (size_t t = 0; t < n_tools; t++) total += tools[t].n_results;
  const char **seen = malloc((total ? total : 1) * sizeof *seen);
  if (!seen) return -1;
  size_t n_seen = 0;
  for (size_t t = 0; t < n_tools; t++) {
    merge_ctx *m = &tools[t];
    size_t before = n_seen, out = 0;
    if (before > 1) qsort(seen, before, sizeof *seen, cmp_str_ptr);
    for (size_t i = 0; i < m->n_results; i++) {
      merged_result *r = &m->results[i];
      if (r->fingerprint && before &&
          bsearch(&r->fingerprint, seen, before, sizeof *seen, cmp_str_ptr)) {
        cJSON_Delete(r->res);
        cJSON_free(r->text);
        continue;
      }
      m->results[out++] = *r;
    }
    m->n_results = out;
    for (size_t i = 0; i < m->n_results; i++)
      if (m->results[i].fingerprint) seen[n_seen++] = m->results[i].fingerprint;
  }
  free(seen);
  return 0;
}

/* ---- output ---- */

static cJSON *build_run(merge_ctx *m) {
  cJSON *run = cJSON_CreateObject();
  if (!run) return NULL;
  cJSON *tool = cJSON_Duplicate(m->first_tool, 1);
  if (!tool) tool = cJSON_CreateObject();
  cJSON *driver = cJSON_GetObjectItemCaseSensitive(tool, "driver");
  cJSON_DeleteItemFromObjectCaseSensitive(driver, "rules");
  cJSON_AddItemToObject(driver, "rules", m->rules);
  m->rules = NULL;
  cJSON_AddItemToObject(run, "tool", tool);

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
    if (i < n) cJSON_AddItemToArray(results, m->results[i].res);
    else cJSON_Delete(m->results[i].res);
    cJSON_free(m->results[i].text);
  }
  m->n_results = 0;
  if (m->column_kind) cJSON_AddStringToObject(run, "columnKind", m->column_kind);
  return run;
}

static cJSON *build(merge_ctx *tools, size_t n_tools) {
  cJSON *log = cJSON_CreateObject();
  if (!log) return NULL;
  cJSON_AddStringToObject(log, "$schema", TC_SARIF_SCHEMA);
  cJSON_AddStringToObject(log, "version", TC_SARIF_VERSION);
  cJSON *runs = cJSON_AddArrayToObject(log, "runs");
  for (size_t t = 0; t < n_tools; t++) {
    cJSON *run = build_run(&tools[t]);
    if (!runs || !run) {
      cJSON_Delete(run);
      cJSON_Delete(log);
      return NULL;
    }
    cJSON_AddItemToArray(runs, run);
  }
  return log;
}

static void merge_ctx_free(merge_ctx *m) {
  for (size_t k = 0; k < m->n_results; k++) {
    cJSON_Delete(m->results[k].res);
    cJSON_free(m->results[k].text);
  }
  free(m->results);
  free(m->ids.slots);
  free(m->ids.ids);
  cJSON_Delete(m->rules);
  cJSON_Delete(m->notifications);
  cJSON_Delete(m->base_ids);
}

/* The merge of this run's tool, a new one for a tool not seen yet; NULL with err set when the
   run names no tool or memory runs out. */
static merge_ctx *tool_of(merge_ctx **tools, size_t *n_tools, const cJSON *run,
                          const char *path, char *err, size_t n) {
  const char *name = str_item(cJSON_GetObjectItemCaseSensitive(
                                  cJSON_GetObjectItemCaseSensitive(run, "tool"), "driver"),
                              "name");
  if (!name) {
    snprintf(err, n, "%s: invalid SARIF: a run without tool.driver.name", path);
    return NULL;
  }
  for (size_t t = 0; t < *n_tools; t++)
    if (strcmp((*tools)[t].tool_name, name) == 0) return &(*tools)[t];
  merge_ctx *p = realloc(*tools, (*n_tools + 1) * sizeof *p);
  if (!p) {
    snprintf(err, n, "%s: out of memory", path);
    return NULL;
  }
  *tools = p;
  merge_ctx *m = &p[(*n_tools)++];
  memset(m, 0, sizeof *m);
  m->tool_name = name;
  m->all_successful = 1;
  m->rules = cJSON_CreateArray();
  m->notifications = cJSON_CreateArray();
  m->base_ids = cJSON_CreateObject();
  if (!m->rules || !m->notifications || !m->base_ids) {
    snprintf(err, n, "%s: out of memory", path);
    return NULL;
  }
  return m;
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
  merge_ctx *tools = NULL;
  size_t n_tools = 0;
  cJSON **logs = calloc(n_inputs, sizeof *logs);
  cJSON *out = NULL;
  if (!logs) goto done;
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
      merge_ctx *m = tool_of(&tools, &n_tools, run, inputs[k], err, sizeof err);
      if (!m || merge_run(m, run, inputs[k], err, sizeof err) != 0) goto fail;
    }
  }
  if (n_tools == 0) {
    snprintf(err, sizeof err, "%s: no runs to merge", inputs[0]);
    goto fail;
  }
  for (size_t t = 0; t < n_tools; t++) {
    merge_ctx *m = &tools[t];
    if (read_keys(m) != 0) {
      snprintf(err, sizeof err, "out of memory");
      goto fail;
    }
    if (m->n_results > 1) qsort(m->results, m->n_results, sizeof *m->results, cmp_result);
    dedupe(m);
  }
  if (drop_seen_in_earlier_runs(tools, n_tools) != 0) {
    snprintf(err, sizeof err, "out of memory");
    goto fail;
  }
  out = build(tools, n_tools);
  if (!out) goto done;
  /* -o FILE is replaced atomically: a full disk or a kill leaves the previous log whole */
  int to_file = out_path && strcmp(out_path, "-") != 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = to_file ? open_memstream(&buf, &len) : stdout;
  if (!f) {
    fprintf(stderr, "tagcheck merge: out of memory\n");
    goto done;
  }
  int wrc = tc_json_write(out, f);
  if (to_file) {
    if (fclose(f) != 0) wrc = -1;
    if (wrc == 0 && tc_write_file_atomically(out_path, buf, len) != 0) {
      fprintf(stderr, "%s: error: cannot write the log: %s (the previous file is kept)\n",
              out_path, strerror(errno));
      free(buf);
      goto done;
    }
    free(buf);
  }
  if (wrc != 0) {
    fprintf(stderr, "%s: error: write error\n", out_path ? out_path : "<stdout>");
    goto done;
  }
  rc = 0;
  goto done;
fail:
  tc_print_problem("tagcheck merge", "error", err);
done:
  for (size_t t = 0; t < n_tools; t++) merge_ctx_free(&tools[t]);
  free(tools);
  cJSON_Delete(out);
  for (size_t k = 0; logs && k < n_inputs; k++) cJSON_Delete(logs[k]);
  free(logs);
  free(inputs);
  return rc;
}
