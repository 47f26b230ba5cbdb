/* bench/lsp/bench_lsp.c — editor latency of `tagcheck --lsp`: the time from a didChange of a
 * 500-line C file to the publishDiagnostics for that version, measured with the debounce off
 * (pure analysis + protocol) and with the default 200 ms debounce (what a user sees), printed
 * with the ratio to the 300 ms target. Baseline measured in the same run: a one-shot
 * `tagcheck FILE` process on the same file (process start, parse, analysis, report). Then the
 * same on one unit of a 100-unit generated project (bench/analyzer/gen_project.py) whose cache
 * is warm — a comment, a new function that reaches no API call (the findings of the analysis
 * without it hold), a new function calling the API (the whole program analyzed again) — against
 * a one-shot warm `tagcheck -p DIR FILE`, and the server's resident memory after 100 and after
 * 1,000 API code edits of that unit (cycling through 8 texts, so each is lowered again and its
 * program's findings looked up, the analysis running for the first of each).
 *
 *   bench_lsp [--project-only] [--edits N] [--memory-edits N]
 *
 * --project-only skips the 500-line file; --edits sets the edits per latency measurement
 * (default 30); --memory-edits the length of the memory session (default 1000, 0: none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lsp_client.h"

#define TARGET_MS 300.0
#define DEFAULT_DEBOUNCE_MS 200
#define EDITS_DEFAULT 30
#define EDITS_MAX 1000
#define MEMORY_EDITS_DEFAULT 1000
#define MEMORY_FIRST 100 /* the memory session's first sample */
#define MEMORY_VARIANTS 8 /* the memory session's edits cycle through this many texts */
#define CLI_RUNS 5

/* A 500-line program: 30 layer functions, then main chaining them (padded with comments to 500
   lines); when buggy, main adds a cpu tensor to the sim result (one backend-mismatch finding). */
static char *make_source(int buggy, int edit, int *lines_out) {
  size_t cap = 64 * 1024, n = 0;
  char *s = malloc(cap);
  int lines = 0;
#define EMIT(...)                                       \
  do {                                                  \
    n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__); \
    lines++;                                            \
  } while (0)
  EMIT("// bench_lsp generated model, edit %d\n", edit);
  EMIT("#include <dt/dt.h>\n");
  for (int k = 0; k < 30; k++) {
    EMIT("static dt_tensor *layer_%d(dt_device d, const dt_tensor *x) {\n", k);
    EMIT("  const int64_t shape[2] = {4, 4};\n");
    EMIT("  dt_tensor *w = dt_randn(d, %d, 2, shape);\n", k);
    EMIT("  dt_tensor *b = dt_zeros(d, DT_FLOAT, 2, shape);\n");
    EMIT("  dt_tensor *h = dt_matmul(x, w);\n");
    EMIT("  dt_tensor *o = dt_add(h, b);\n");
    EMIT("  dt_free(h);\n");
    EMIT("  dt_free(b);\n");
    EMIT("  dt_free(w);\n");
    EMIT("  return o;\n");
    EMIT("}\n");
  }
  EMIT("int main(void) {\n");
  EMIT("  dt_device acc = dt_sim(0);\n");
  EMIT("  const int64_t shape[2] = {4, 4};\n");
  EMIT("  dt_tensor *x = dt_ones(acc, DT_FLOAT, 2, shape);\n");
  for (int k = 0; k < 30; k++) {
    EMIT("  dt_tensor *x%d = layer_%d(acc, x);\n", k, k);
    EMIT("  dt_free(x);\n");
    EMIT("  x = x%d;\n", k);
  }
  EMIT("  dt_tensor *other = dt_ones(%s, DT_FLOAT, 2, shape);\n", buggy ? "dt_cpu()" : "acc");
  EMIT("  dt_tensor *y = dt_add(x, other);\n");
  while (lines < 495) EMIT("  /* padding to 500 lines */\n");
  EMIT("  dt_free(y);\n");
  EMIT("  dt_free(other);\n");
  EMIT("  dt_free(x);\n");
  EMIT("  return 0;\n");
  EMIT("}\n");
#undef EMIT
  int newlines = 0;
  for (size_t i = 0; i < n; i++) newlines += s[i] == '\n';
  *lines_out = newlines;
  return s;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct stats {
  double median, p90, max;
} stats;

static stats summarize(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  stats s = {v[n / 2], v[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1], v[n - 1]};
  return s;
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

/* One-shot CLI runs on the file: median wall time in ms, or -1. */
static double cli_baseline(const char *dir, const char *file) {
  double t[CLI_RUNS];
  for (int i = 0; i < CLI_RUNS; i++) {
    double t0 = lsp_client_now_ms();
    fflush(stdout); /* a child must not write it again */
    pid_t pid = fork();
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      execl(TC_TAGCHECK_BIN, TC_TAGCHECK_BIN, "--no-cache", "-p", dir, file, (char *)NULL);
      _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) return -1; /* 0 or 1 (findings) */
    t[i] = lsp_client_now_ms() - t0;
  }
  return summarize(t, CLI_RUNS).median;
}

/* Version v of the document: didOpen with its text for v 0, else a full-text didChange. */
static void send_version(lsp_client *c, const char *uri, int v, const char *text) {
  cJSON *p = cJSON_CreateObject();
  cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
  cJSON_AddStringToObject(td, "uri", uri);
  cJSON_AddNumberToObject(td, "version", v);
  if (v == 0) {
    cJSON_AddStringToObject(td, "languageId", "c");
    cJSON_AddStringToObject(td, "text", text);
  } else {
    cJSON *ch = cJSON_CreateObject();
    cJSON_AddStringToObject(ch, "text", text);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(p, "contentChanges"), ch);
  }
  lsp_client_notify(c, v == 0 ? "textDocument/didOpen" : "textDocument/didChange", p);
}

/* Edit -> publishDiagnostics latencies with the given debounce; returns 0 or -1. */
static int measure(const char *uri, int debounce_ms, double *lat, int edits, int *lines,
                   const char *cwd) {
  lsp_client c;
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", NULL};
  if (lsp_client_spawn(&c, argv, cwd, "/dev/null") != 0) return -1;
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                       "\"capabilities\":{},\"initializationOptions\":{\"debounceMs\":%d}}}", debounce_ms);
  int rc = -1;
  if (!lsp_client_response(&c, 1, 30000)) goto done;
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  for (int v = 0; v <= edits; v++) {
    char *text = make_source(v % 2, v, lines);
    double t0 = lsp_client_now_ms();
    send_version(&c, uri, v, text);
    free(text);
    for (;;) {
      const cJSON *m = lsp_client_notification(&c, "textDocument/publishDiagnostics", uri, 30000);
      if (!m) goto done;
      const cJSON *params = cJSON_GetObjectItem(m, "params");
      if (cJSON_GetObjectItem(params, "version")->valueint != v) continue;
      if (cJSON_GetArraySize(cJSON_GetObjectItem(params, "diagnostics")) != v % 2) {
        fprintf(stderr, "bench_lsp: version %d: expected %d finding(s)\n", v, v % 2);
        goto done;
      }
      break;
    }
    if (v > 0) lat[v - 1] = lsp_client_now_ms() - t0; /* the open is warm-up */
  }
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  lsp_client_response(&c, 2, 30000);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  rc = lsp_client_wait_exit(&c, 0, 30000) == 0 ? 0 : -1;
done:
  lsp_client_free(&c);
  return rc;
}

/* Runs argv to completion with its output discarded: wall time in ms, or -1 (exit > 1). */
static double run_ms(const char *const *argv) {
  double t0 = lsp_client_now_ms();
  fflush(stdout); /* a child must not write it again */
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) return -1;
  return lsp_client_now_ms() - t0;
}

/* What an edit appends to the unit: a comment (the IR is unchanged, so the program's findings
   come from the cache), a new function that reaches no API call (an inert function: the
   findings of the analysis without it hold, engine/fingerprint.c), or a new function calling
   the API (the program is analyzed again). */
enum { COMMENT_EDIT = 0, CODE_EDIT_INERT = 1, CODE_EDIT_API = 2 };

/* One session of edits of file (debounce off) in a project with a warm cache: each edit
   appends what code_edit says; with variants > 0 the function is one of that many, so after
   the first of each the findings come from the cache though the document is lowered again at
   every edit. lat (when not NULL)
   gets the edit -> publishDiagnostics latency of each edit; *rss_first the server's resident
   memory after MEMORY_FIRST edits (when edits reach it), *rss_last after the last. Returns 0
   or -1. */
static int measure_project(const char *dir, const char *file, int code_edit, double *lat,
                           int edits, int variants, long *rss_first, long *rss_last) {
  char uri[600];
  snprintf(uri, sizeof uri, "file://%s", file);
  char *text = lsp_read_file(file, NULL);
  if (!text) return -1;
  lsp_client c;
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", NULL};
  if (lsp_client_spawn(&c, argv, dir, "/dev/null") != 0) {
    free(text);
    return -1;
  }
  int rc = -1;
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                       "\"capabilities\":{},\"initializationOptions\":{\"debounceMs\":0}}}");
  if (!lsp_client_response(&c, 1, 60000)) goto done;
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  size_t len = strlen(text);
  *rss_first = -1;
  for (int v = 0; v <= edits; v++) {
    char *edited = malloc(len + 160);
    int id = variants > 0 ? v % variants : v;
    if (code_edit == CODE_EDIT_API)
      snprintf(edited, len + 160,
               "%svoid bench_api_edit_%d(void) { dt_free(dt_ones(dt_cpu(), DT_FLOAT, 1, "
               "(const int64_t[]){%d})); }\n", text, id, id + 1);
    else if (code_edit)
      snprintf(edited, len + 160, "%sint bench_edit_%d(void) { return %d; }\n", text, id, id);
    else
      snprintf(edited, len + 160, "%s/* edit %d */\n", text, v);
    double t0 = lsp_client_now_ms();
    send_version(&c, uri, v, edited);
    free(edited);
    const cJSON *m = lsp_client_take(&c, "textDocument/publishDiagnostics", uri, v, 60000);
    if (!m) goto done;
    if (v > 0 && lat) lat[v - 1] = lsp_client_now_ms() - t0; /* the open is warm-up */
    /* keep the client's own memory small: forget what was seen */
    cJSON_Delete(c.seen);
    c.seen = cJSON_CreateArray();
    if (v == MEMORY_FIRST) *rss_first = lsp_client_rss_kb(&c);
  }
  *rss_last = lsp_client_rss_kb(&c);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  lsp_client_response(&c, 2, 30000);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  rc = lsp_client_wait_exit(&c, 0, 30000) == 0 ? 0 : -1;
done:
  lsp_client_free(&c);
  free(text);
  return rc;
}

static void print_load(const char *when) {
  double l[3];
  if (getloadavg(l, 3) == 3) printf("  load average %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
}

/* The 100-unit project: generated, its cache warmed, then edits of one unit. */
static int bench_project(int edits, int memory_edits) {
  char dir[] = "/tmp/tc-bench-lsp-project-XXXXXX";
  if (!mkdtemp(dir)) return -1;
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "python3 %s/bench/analyzer/gen_project.py %s --units 100 --include %s",
           TC_SOURCE_DIR, dir, TC_RUNTIME_INCLUDE);
  int rc = -1;
  int api_edits = edits / 3 > 3 ? edits / 3 : 3; /* each analyzes the program: fewer */
  double *lat = calloc((size_t)edits, sizeof *lat), *code = calloc((size_t)edits, sizeof *code);
  double *api = calloc((size_t)api_edits, sizeof *api);
  long rss_api = -1;
  long rss_100 = -1, rss = -1, rss_code = -1, unused = -1;
  char file[512];
  snprintf(file, sizeof file, "%s/src/unit_7.c", dir);
  const char *warm[] = {TC_TAGCHECK_BIN, "-q", "-p", dir, NULL};
  const char *one[] = {TC_TAGCHECK_BIN, "-q", "-p", dir, file, NULL};
  fflush(stdout); /* the generator writes to the same output */
  if (!lat || !code || !api || system(cmd) != 0 || access(file, R_OK) != 0) {
    fprintf(stderr, "bench_lsp: could not generate the project (%s)\n", cmd);
    goto out;
  }
  double cold = run_ms(warm); /* fills the cache */
  double cli = run_ms(one);
  print_load("before the edits");
  if (cold < 0 || cli < 0 ||
      measure_project(dir, file, COMMENT_EDIT, lat, edits, 0, &unused, &rss) != 0 ||
      measure_project(dir, file, CODE_EDIT_INERT, code, edits, 0, &unused, &rss_code) != 0 ||
      measure_project(dir, file, CODE_EDIT_API, api, api_edits, 0, &unused, &rss_api) != 0) {
    fprintf(stderr, "bench_lsp: the project run failed\n");
    goto out;
  }
  stats a = summarize(lat, edits), b = summarize(code, edits), c = summarize(api, api_edits);
  printf("bench_lsp: one unit of a 100-unit project (one program), warm cache, %d edits each\n",
         edits);
  printf("  baseline: cold `tagcheck -p DIR` of the project       %7.1f ms\n", cold);
  printf("  baseline: warm one-shot `tagcheck -p DIR FILE`         %7.1f ms\n", cli);
  printf("  comment edit -> publishDiagnostics, debounce off      median %7.1f  p90 %7.1f  max %7.1f ms\n",
         a.median, a.p90, a.max);
  printf("    ratio to the %.0f ms target (p90): %.2f%s\n", TARGET_MS, a.p90 / TARGET_MS,
         a.p90 <= TARGET_MS ? "  -- within target" : "  -- OVER target");
  printf("  code edit, new function reaching no API (not analyzed again)  median %7.1f  p90 %7.1f  max %7.1f ms\n",
         b.median, b.p90, b.max);
  printf("    ratio to the %.0f ms target (p90): %.2f%s; to the warm one-shot CLI (median): %.2f\n",
         TARGET_MS, b.p90 / TARGET_MS, b.p90 <= TARGET_MS ? "  -- within target" : "  -- OVER target",
         b.median / cli);
  printf("  code edit, new function calling the API (program analyzed again, %d edits)  median %7.1f  p90 %7.1f  max %7.1f ms\n",
         api_edits, c.median, c.p90, c.max);
  printf("    ratio to the %.0f ms target (p90): %.2f%s\n", TARGET_MS, c.p90 / TARGET_MS,
         c.p90 <= TARGET_MS ? "  -- within target" : "  -- OVER target");
  printf("  server resident memory after %d edits: %ld KiB (comment edits), %ld KiB (inert code edits), "
         "%ld KiB after %d API code edits\n", edits, rss, rss_code, rss_api, api_edits);
  print_load("after the latency runs");
  if (memory_edits > 0) {
    long rss_end = -1;
    if (measure_project(dir, file, CODE_EDIT_API, NULL, memory_edits, MEMORY_VARIANTS, &rss_100,
                        &rss_end) != 0) {
      fprintf(stderr, "bench_lsp: the memory session failed\n");
      goto out;
    }
    printf("  memory session, %d code edits (%d texts in turn): server RSS %ld KiB after %d edits, "
           "%ld KiB after %d (%+ld KiB)\n", memory_edits, MEMORY_VARIANTS, rss_100, MEMORY_FIRST,
           rss_end, memory_edits,
           rss_100 >= 0 ? rss_end - rss_100 : 0);
    print_load("after the memory session");
  }
  rc = 0;
out:
  free(lat);
  free(code);
  free(api);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "bench_lsp: could not remove %s\n", dir);
  return rc;
}

/* The 500-line file alone: latency with the debounce off and on, against one-shot CLI runs. */
static int bench_file(int edits) {
  char dir[] = "/tmp/tc-bench-lsp-XXXXXX";
  if (!mkdtemp(dir)) return -1;
  char file[256], db[256], uri[300];
  snprintf(file, sizeof file, "%s/model.c", dir);
  snprintf(db, sizeof db, "%s/compile_commands.json", dir);
  snprintf(uri, sizeof uri, "file://%s", file);
  int lines = 0;
  char *src = make_source(1, 0, &lines);
  char dbtext[1024];
  snprintf(dbtext, sizeof dbtext,
           "[{\"directory\":\"%s\",\"file\":\"model.c\",\"arguments\":[\"cc\",\"-std=c11\",\"-I%s\","
           "\"-c\",\"model.c\"]}]\n", dir, TC_RUNTIME_INCLUDE);
  int rc = -1;
  double *nodeb = calloc((size_t)edits, sizeof *nodeb), *deb = calloc((size_t)edits, sizeof *deb);
  if (!nodeb || !deb || write_text(file, src) != 0 || write_text(db, dbtext) != 0) goto out;
  double cli = cli_baseline(dir, file);
  if (measure(uri, 0, nodeb, edits, &lines, dir) != 0 ||
      measure(uri, DEFAULT_DEBOUNCE_MS, deb, edits, &lines, dir) != 0) {
    fprintf(stderr, "bench_lsp: the server did not answer as expected\n");
    goto out;
  }
  stats a = summarize(nodeb, edits), b = summarize(deb, edits);
  printf("bench_lsp: %d-line file, %d edits per mode (each toggles one backend-mismatch)\n", lines, edits);
  if (cli > 0) printf("  baseline: one-shot `tagcheck FILE` process            median %7.1f ms\n", cli);
  else printf("  baseline: one-shot `tagcheck FILE` process            (failed to run)\n");
  printf("  edit -> publishDiagnostics, debounce off              median %7.1f  p90 %7.1f  max %7.1f ms\n",
         a.median, a.p90, a.max);
  printf("  edit -> publishDiagnostics, %d ms debounce           median %7.1f  p90 %7.1f  max %7.1f ms\n",
         DEFAULT_DEBOUNCE_MS, b.median, b.p90, b.max);
  printf("    of which analysis + protocol (minus the debounce)   median %7.1f ms\n",
         b.median - DEFAULT_DEBOUNCE_MS);
  printf("  ratio to the %.0f ms target (with the debounce, median): %.2f  (p90 %.2f)\n", TARGET_MS,
         b.median / TARGET_MS, b.p90 / TARGET_MS);
  printf("  ratio to the %.0f ms target (debounce off, median):    %.2f  (p90 %.2f)%s\n", TARGET_MS,
         a.median / TARGET_MS, a.p90 / TARGET_MS, a.p90 <= TARGET_MS ? "  -- within target" : "  -- OVER target");
  if (cli > 0) printf("  ratio to the one-shot CLI (debounce off, median):     %.2f\n", a.median / cli);
  rc = 0;
out:
  free(nodeb);
  free(deb);
  free(src);
  unlink(file);
  unlink(db);
  rmdir(dir);
  return rc;
}

/* A count option's value in [lo, hi], or -1. */
static int count_arg(const char *s, int lo, int hi) {
  char *end;
  long v = strtol(s, &end, 10);
  return *s && !*end && v >= lo && v <= hi ? (int)v : -1;
}

int main(int argc, char **argv) {
  int project_only = 0, edits = EDITS_DEFAULT, memory_edits = MEMORY_EDITS_DEFAULT;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--project-only") == 0) project_only = 1;
    else if (strcmp(argv[i], "--edits") == 0 && i + 1 < argc &&
             (edits = count_arg(argv[++i], 2, EDITS_MAX)) > 0) continue;
    else if (strcmp(argv[i], "--memory-edits") == 0 && i + 1 < argc &&
             (memory_edits = count_arg(argv[++i], 0, 100000)) >= 0) continue;
    else {
      fprintf(stderr, "usage: bench_lsp [--project-only] [--edits N (2-%d)] [--memory-edits N]\n",
              EDITS_MAX);
      return 2;
    }
  }
  print_load("at the start");
  if (!project_only && bench_file(edits) != 0) return 1;
  return bench_project(edits, memory_edits) == 0 ? 0 : 1;
}
