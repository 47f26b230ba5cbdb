/* runtime/src/report_sarif.c — the runtime's SARIF writer. When DT_REPORT=path.sarif is set,
 * every failure dt__fail records is kept (one result per call site and rule, with an
 * occurrence count) and a SARIF 2.1.0 log is written when the program exits — and right away,
 * before the abort, in abort mode. Rule ids come from dt/rules.def and fingerprints from
 * dt/fingerprint.h, exactly as tagcheck writes them, so `tagcheck merge` can fold static and
 * run-time findings into one report.
 *
 *   DT_REPORT       the log's path; "%p" is replaced by the process id (one log per process
 *                   when a test suite runs many programs), "%%" by "%".
 *   DT_REPORT_ROOT  %SRCROOT%, the directory result URIs are relative to (default: the working
 *                   directory at start-up), as tagcheck's --root. */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dt/fingerprint.h"
#include "internal.h"
#include "report_source.h"

#define DT_SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define DT_INFORMATION_URI "https://github.com/tagcheck/tagcheck"
#define DT_RULES_HELP_URI DT_INFORMATION_URI "/blob/main/docs/rules.md"

/* One call site that failed, with how often. */
typedef struct report_entry {
  char *file; /* as the site named it; NULL without a call site */
  int line;
  char *op;
  dt_status status;
  char *message; /* the first failure's text */
  unsigned long long count;
} report_entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int enabled;
  int written;
  char *path;     /* DT_REPORT with %p expanded */
  char *root_dir; /* absolute, normalized, ending in '/' */
  char *cwd;      /* the working directory at start-up, ending in '/' */
  report_entry *entries;
  size_t n, cap;
} g_report;

/* ---- a growable text buffer (allocation failures make it "failed", never crash) ---- */

typedef struct jbuf {
  char *data;
  size_t len, cap;
  int failed;
} jbuf;

static void jb_add(jbuf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + n + 1) cap *= 2;
    char *bigger = realloc(b->data, cap);
    if (!bigger) {
      b->failed = 1;
      return;
    }
    b->data = bigger;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void jb_puts(jbuf *b, const char *s) { jb_add(b, s, strlen(s)); }

static void jb_printf(jbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void jb_printf(jbuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  jb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 when it is not valid. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  size_t need;
  if (s[0] < 0x80) return 1;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) need = 2;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF) need = 3;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4) need = 4;
  else return 0;
  if (n < need) return 0;
  for (size_t i = 1; i < need; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  if (need == 3 && s[0] == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
  if (need == 3 && s[0] == 0xED && s[1] >= 0xA0) return 0; /* surrogates */
  if (need == 4 && s[0] == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
  if (need == 4 && s[0] == 0xF4 && s[1] >= 0x90) return 0; /* past U+10FFFF */
  return need;
}

/* A JSON string literal of n bytes of s; invalid UTF-8 becomes U+FFFD. With `brackets`, '['
   and ']' are escaped for SARIF message text (they would read as embedded links). */
static void jb_string_n(jbuf *b, const char *s, size_t n, int brackets) {
  jb_puts(b, "\"");
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    unsigned char c = p[i];
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      jb_add(b, esc, 2);
      i++;
    } else if (c < 0x20) {
      switch (c) {
        case '\n': jb_puts(b, "\\n"); break;
        case '\t': jb_puts(b, "\\t"); break;
        case '\r': jb_puts(b, "\\r"); break;
        default: jb_printf(b, "\\u%04x", c); break;
      }
      i++;
    } else if (brackets && (c == '[' || c == ']')) {
      jb_puts(b, c == '[' ? "\\\\[" : "\\\\]");
      i++;
    } else {
      size_t k = utf8_seq(p + i, n - i);
      if (k == 0) {
        jb_puts(b, "\xEF\xBF\xBD");
        i++;
      } else {
        jb_add(b, s + i, k);
        i += k;
      }
    }
  }
  jb_puts(b, "\"");
}

static void jb_string(jbuf *b, const char *s) { jb_string_n(b, s, strlen(s), 0); }

/* ---- paths and URIs (the same normalization as tagcheck's report layer) ---- */

/* Removes "." and "x/.." components and doubled slashes of an absolute path. */
static char *normalize_path(const char *path) {
  size_t n = strlen(path);
  char *out = malloc(n + 2);
  if (!out) return NULL;
  size_t o = 0;
  const char *p = path;
  while (*p) {
    while (*p == '/') p++;
    const char *end = strchr(p, '/');
    size_t w = end ? (size_t)(end - p) : strlen(p);
    if (w == 0) break;
    if (w == 1 && p[0] == '.') {
      /* skip */
    } else if (w == 2 && p[0] == '.' && p[1] == '.') {
      while (o > 0 && out[o - 1] != '/') o--;
      if (o > 0) o--;
    } else {
      out[o++] = '/';
      memcpy(out + o, p, w);
      o += w;
    }
    p += w;
  }
  if (o == 0) out[o++] = '/';
  out[o] = '\0';
  return out;
}

static char *with_slash(char *dir) {
  if (!dir) return NULL;
  size_t n = strlen(dir);
  if (n > 0 && dir[n - 1] == '/') return dir;
  char *s = realloc(dir, n + 2);
  if (!s) {
    free(dir);
    return NULL;
  }
  s[n] = '/';
  s[n + 1] = '\0';
  return s;
}

/* An absolute, normalized version of path (relative paths are taken from the start-up
   working directory, where the build most likely ran). */
static char *absolute(const char *path) {
  if (path[0] == '/') return normalize_path(path);
  const char *cwd = g_report.cwd ? g_report.cwd : "/";
  size_t n = strlen(cwd) + strlen(path) + 2;
  char *joined = malloc(n);
  if (!joined) return NULL;
  snprintf(joined, n, "%s%s", cwd, path);
  char *norm = normalize_path(joined);
  free(joined);
  return norm;
}

/* The part of abs_path below the root, or NULL (tries the path as given, then its realpath). */
static char *below_root(const char *abs_path) {
  const char *root = g_report.root_dir;
  if (!root) return NULL;
  size_t n = strlen(root);
  if (strncmp(abs_path, root, n) == 0 && abs_path[n]) return strdup(abs_path + n);
  char *real = realpath(abs_path, NULL);
  char *rel = NULL;
  if (real && strncmp(real, root, n) == 0 && real[n]) rel = strdup(real + n);
  free(real);
  return rel;
}

static void jb_uri_path(jbuf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned c = *p;
    int keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      char ch = (char)c;
      jb_add(b, &ch, 1);
    } else {
      char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
      jb_add(b, esc, 3);
    }
  }
}

/* ---- configuration ---- */

static char *expand_report_path(const char *spec) {
  jbuf b = {0};
  for (const char *p = spec; *p; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      jb_printf(&b, "%ld", (long)getpid());
      p++;
    } else if (p[0] == '%' && p[1] == '%') {
      jb_puts(&b, "%");
      p++;
    } else {
      jb_add(&b, p, 1);
    }
  }
  if (b.failed) {
    free(b.data);
    return NULL;
  }
  return b.data ? b.data : strdup(spec);
}

static void write_log_locked(int aborting);

static void write_at_exit(void) {
  pthread_mutex_lock(&g_lock);
  if (g_report.enabled && !g_report.written) write_log_locked(0);
  for (size_t i = 0; i < g_report.n; i++) {
    free(g_report.entries[i].file);
    free(g_report.entries[i].op);
    free(g_report.entries[i].message);
  }
  free(g_report.entries);
  g_report.entries = NULL;
  g_report.n = g_report.cap = 0;
  pthread_mutex_unlock(&g_lock);
}

/* Reads DT_REPORT when the library is loaded, so that a run without failures still leaves a
   (valid, empty) log for CI to merge. */
#if defined(__GNUC__)
__attribute__((constructor))
#endif
static void report_init(void) {
  const char *spec = getenv("DT_REPORT");
  if (!spec || !*spec) return;
  g_report.path = expand_report_path(spec);
  char *cwd = getcwd(NULL, 0);
  if (cwd) {
    char *norm = normalize_path(cwd);
    g_report.cwd = with_slash(norm);
    free(cwd);
  }
  const char *root = getenv("DT_REPORT_ROOT");
  if (root && *root) {
    char *real = realpath(root, NULL);
    g_report.root_dir = with_slash(real ? normalize_path(real) : absolute(root));
    free(real);
  } else if (g_report.cwd) {
    char *real = realpath(g_report.cwd, NULL);
    g_report.root_dir = with_slash(real ? normalize_path(real) : strdup(g_report.cwd));
    free(real);
  }
  if (!g_report.path) return;
  g_report.enabled = 1;
  atexit(write_at_exit);
}

/* ---- recording ---- */

void dt__report_record(const dt_site *site, dt_status status, const char *message) {
  if (!g_report.enabled) return;
  pthread_mutex_lock(&g_lock);
  const char *file = site ? site->file : NULL;
  int line = site && site->file ? site->line : 0;
  const char *op = site && site->op ? site->op : "dt";
  report_entry *e = NULL;
  for (size_t i = 0; i < g_report.n; i++) {
    report_entry *x = &g_report.entries[i];
    if (x->status == status && x->line == line && strcmp(x->op, op) == 0 &&
        ((!x->file && !file) || (x->file && file && strcmp(x->file, file) == 0))) {
      e = x;
      break;
    }
  }
  if (e) {
    e->count++;
  } else {
    if (g_report.n == g_report.cap) {
      size_t cap = g_report.cap ? g_report.cap * 2 : 16;
      report_entry *bigger = realloc(g_report.entries, cap * sizeof *bigger);
      if (bigger) {
        g_report.entries = bigger;
        g_report.cap = cap;
      }
    }
    if (g_report.n < g_report.cap) {
      e = &g_report.entries[g_report.n];
      e->file = file ? strdup(file) : NULL;
      e->line = line;
      e->op = strdup(op);
      e->status = status;
      e->message = strdup(message ? message : "");
      e->count = 1;
      if (e->op && e->message && (!file || e->file)) {
        g_report.n++;
      } else {
        free(e->file);
        free(e->op);
        free(e->message);
      }
    }
  }
  /* In abort mode dt__fail aborts right after this call: atexit handlers will not run. */
  if (dt_get_error_mode() == DT_ERRORS_ABORT) write_log_locked(1);
  pthread_mutex_unlock(&g_lock);
}

/* ---- the log ---- */

typedef struct rule_row {
  dt_status status;
  const char *id, *name, *short_description, *help;
} rule_row;

static const rule_row k_rules[] = {
#define DT_RULE(status, id, name, short_description, help) {status, id, name, short_description, help},
#include "dt/rules.def"
#undef DT_RULE
};
#define N_RULES (sizeof k_rules / sizeof k_rules[0])

static size_t rule_index(dt_status s) {
  for (size_t i = 0; i < N_RULES; i++)
    if (k_rules[i].status == s) return i;
  return 0;
}

static void write_rules(jbuf *b) {
  jb_puts(b, "\"rules\": [");
  for (size_t i = 0; i < N_RULES; i++) {
    const rule_row *r = &k_rules[i];
    jb_puts(b, i ? ",\n      {" : "\n      {");
    jb_puts(b, "\"id\": ");
    jb_string(b, r->id);
    jb_puts(b, ", \"name\": ");
    /* SARIF wants a readable name that differs from the id ("shape" / "Shape" do not): the
       same fix as tagcheck's rule metadata. */
    jbuf name = {0};
    jb_puts(&name, r->name);
    if (strcasecmp(r->name, r->id) == 0) jb_puts(&name, "Rule");
    jb_string(b, name.data ? name.data : r->name);
    free(name.data);
    jb_puts(b, ", \"shortDescription\": {\"text\": ");
    jb_string(b, r->short_description);
    jb_puts(b, "}, \"fullDescription\": {\"text\": ");
    jb_string(b, r->short_description);
    jb_puts(b, "}, \"help\": {\"text\": ");
    jb_string(b, r->help);
    jb_puts(b, "}, \"helpUri\": ");
    jbuf uri = {0};
    jb_puts(&uri, DT_RULES_HELP_URI "#");
    jb_puts(&uri, r->id);
    jb_string(b, uri.data ? uri.data : DT_RULES_HELP_URI);
    free(uri.data);
    jb_puts(b, ", \"defaultConfiguration\": {\"level\": \"error\"}, \"properties\": {\"tags\": "
               "[\"correctness\", \"tensor-tags\"], \"precision\": \"very-high\", "
               "\"problem.severity\": \"error\"}}");
  }
  jb_puts(b, "\n    ]");
}

/* What a result needs beyond its entry: location text and its fingerprint. */
typedef struct result_info {
  const report_entry *e;
  char *abs_file; /* NULL without a site */
  char *exe_rel;  /* without a site: the program's executable, below the root or absolute */
  char *rel_file; /* below the root, or NULL */
  char function[256];
  const char *line_text;
  size_t line_len;
  int column; /* of the call, 0 when not known */
  dt_fingerprint_hash key;
  char fingerprint[DT_FINGERPRINT_HEX + 1];
} result_info;

static int cmp_results(const void *pa, const void *pb) {
  const result_info *x = pa, *y = pb;
  const char *fx = x->abs_file ? x->abs_file : "", *fy = y->abs_file ? y->abs_file : "";
  int c = strcmp(fx, fy);
  if (c) return c;
  if (x->e->line != y->e->line) return x->e->line < y->e->line ? -1 : 1;
  c = strcmp(dt_status_rule_id(x->e->status), dt_status_rule_id(y->e->status));
  if (c) return c;
  return strcmp(x->e->op, y->e->op);
}

static int cmp_keys(const void *pa, const void *pb) {
  const result_info *const *x = pa, *const *y = pb;
  int c = dt_fingerprint_cmp((*x)->key, (*y)->key);
  if (c) return c;
  return *x < *y ? -1 : *x > *y;
}

/* Fills the infos (sorted like tagcheck's reports) and numbers equal keys in that order. */
static void compute_fingerprints(result_info *infos, size_t n, dt_src_cache *src) {
  for (size_t i = 0; i < n; i++) {
    result_info *r = &infos[i];
    r->e = &g_report.entries[i];
    if (r->e->file) {
      r->abs_file = absolute(r->e->file);
      r->rel_file = r->abs_file ? below_root(r->abs_file) : NULL;
      r->line_text = r->abs_file ? dt__src_line(src, r->abs_file, r->e->line, &r->line_len) : NULL;
      if (r->line_text) r->column = dt__src_call_column(r->line_text, r->line_len, r->e->op);
      if (r->abs_file) dt__src_function(src, r->abs_file, r->e->line, r->column, r->function, sizeof r->function);
    } else {
      char *exe = realpath("/proc/self/exe", NULL);
      if (exe) {
        r->exe_rel = below_root(exe);
        if (!r->exe_rel) r->exe_rel = exe;
        else free(exe);
      }
    }
  }
  qsort(infos, n, sizeof *infos, cmp_results);
  result_info **order = malloc((n ? n : 1) * sizeof *order);
  for (size_t i = 0; i < n; i++) {
    result_info *r = &infos[i];
    char *norm = malloc(r->line_len + 1);
    if (norm) dt_fingerprint_normalize(r->line_text ? r->line_text : "", r->line_len, norm);
    const char *file = r->rel_file ? r->rel_file : r->abs_file ? r->abs_file : "";
    r->key = dt_fingerprint_key(dt_status_rule_id(r->e->status), file, r->function, r->e->op,
                                norm ? norm : "");
    free(norm);
    if (order) order[i] = r;
  }
  if (!order) {
    for (size_t i = 0; i < n; i++) dt_fingerprint_format(infos[i].key, 0, infos[i].fingerprint);
    return;
  }
  qsort(order, n, sizeof *order, cmp_keys);
  unsigned long long occurrence = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && dt_fingerprint_cmp(order[i]->key, order[i - 1]->key) == 0) occurrence++;
    else occurrence = 0;
    dt_fingerprint_format(order[i]->key, occurrence, order[i]->fingerprint);
  }
  free(order);
}

/* {"artifactLocation": …, "region": …} of the failing call. */
static void write_physical(jbuf *b, const result_info *r, int with_snippet) {
  jb_puts(b, "{\"artifactLocation\": {\"uri\": \"");
  if (r->rel_file) {
    jb_uri_path(b, r->rel_file);
    jb_puts(b, "\", \"uriBaseId\": \"%SRCROOT%\"}");
  } else {
    jb_puts(b, "file://");
    jb_uri_path(b, r->abs_file);
    jb_puts(b, "\"}");
  }
  jb_printf(b, ", \"region\": {\"startLine\": %d", r->e->line);
  if (r->column > 0) jb_printf(b, ", \"startColumn\": %d", r->column);
  if (with_snippet && r->line_text) {
    jb_puts(b, ", \"snippet\": {\"text\": ");
    jb_string_n(b, r->line_text, r->line_len, 0);
    jb_puts(b, "}");
  }
  jb_puts(b, "}}");
}

static void write_result(jbuf *b, const result_info *r) {
  const report_entry *e = r->e;
  jb_puts(b, "{\"ruleId\": ");
  jb_string(b, dt_status_rule_id(e->status));
  jb_printf(b, ", \"ruleIndex\": %zu, \"level\": \"error\", \"message\": {\"text\": ",
            rule_index(e->status));
  jbuf msg = {0};
  jb_puts(&msg, e->op);
  jb_puts(&msg, ": ");
  jb_puts(&msg, e->message);
  if (e->count > 1) jb_printf(&msg, " (%llu times)", e->count);
  jb_string_n(b, msg.data ? msg.data : "", msg.data ? msg.len : 0, 1);
  free(msg.data);
  jb_puts(b, "}");
  if (r->abs_file) {
    jb_puts(b, ", \"locations\": [{\"physicalLocation\": ");
    write_physical(b, r, 1);
    if (r->function[0]) {
      jb_puts(b, ", \"logicalLocations\": [{\"name\": ");
      jb_string(b, r->function);
      jb_puts(b, ", \"kind\": \"function\"}]");
    }
    /* The code flow has the one step a run-time check knows: the failing call. */
    jb_puts(b, "}], \"codeFlows\": [{\"threadFlows\": [{\"locations\": [{\"location\": "
               "{\"physicalLocation\": ");
    write_physical(b, r, 0);
    jb_puts(b, ", \"message\": {\"text\": ");
    jbuf step = {0};
    jb_printf(&step, "%s: the run-time tag check failed here [%s]", e->op,
              dt_status_rule_id(e->status));
    jb_string_n(b, step.data ? step.data : "", step.data ? step.len : 0, 1);
    free(step.data);
    jb_puts(b, "}}, \"executionOrder\": 1}]}]}]");
  }
  if (!r->abs_file && r->exe_rel) {
    /* A call through the plain function (no call site): GitHub needs a location, and the
       program is all that is known. */
    jb_puts(b, ", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"");
    if (r->exe_rel[0] != '/') {
      jb_uri_path(b, r->exe_rel);
      jb_puts(b, "\", \"uriBaseId\": \"%SRCROOT%\"}}}]");
    } else {
      jb_puts(b, "file://");
      jb_uri_path(b, r->exe_rel);
      jb_puts(b, "\"}}}]");
    }
  }
  jb_puts(b, ", \"partialFingerprints\": {\"" DT_FINGERPRINT_KEY "\": \"");
  jb_puts(b, r->fingerprint);
  jb_printf(b, "\"}, \"occurrenceCount\": %llu, \"properties\": {\"operation\": ", e->count);
  jb_string(b, e->op);
  jb_puts(b, ", \"detectedBy\": \"runtime\"}}");
}

static void write_invocation(jbuf *b, int aborting) {
  jb_printf(b, "\"invocations\": [{\"executionSuccessful\": %s", aborting ? "false" : "true");
  if (aborting) jb_puts(b, ", \"exitSignalName\": \"SIGABRT\"");
  FILE *f = fopen("/proc/self/cmdline", "rb");
  if (f) {
    char args[4096];
    size_t n = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    if (n > 0) {
      for (size_t i = 0; i + 1 < n; i++)
        if (args[i] == '\0') args[i] = ' ';
      if (args[n - 1] == '\0') n--;
      jb_puts(b, ", \"commandLine\": ");
      jb_string_n(b, args, n, 0);
    }
  }
  if (g_report.cwd) {
    jb_puts(b, ", \"workingDirectory\": {\"uri\": \"file://");
    jb_uri_path(b, g_report.cwd);
    jb_puts(b, "\"}");
  }
  jb_puts(b, "}]");
}

static void write_log_locked(int aborting) {
  size_t n = g_report.n;
  result_info *infos = calloc(n ? n : 1, sizeof *infos);
  if (!infos) return;
  dt_src_cache src;
  dt__src_init(&src);
  compute_fingerprints(infos, n, &src);

  jbuf b = {0};
  jb_puts(&b, "{\n  \"$schema\": \"" DT_SARIF_SCHEMA "\",\n  \"version\": \"2.1.0\",\n"
              "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"dt\", \"fullName\": "
              "\"dt runtime tag checks\", \"version\": \"" DT_VERSION_STRING
              "\", \"semanticVersion\": \"" DT_VERSION_STRING "\", \"informationUri\": \""
              DT_INFORMATION_URI "\",\n    ");
  write_rules(&b);
  jb_puts(&b, "}},\n    ");
  if (g_report.root_dir) {
    jb_puts(&b, "\"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": \"file://");
    jb_uri_path(&b, g_report.root_dir);
    jb_puts(&b, "\"}},\n    ");
  }
  write_invocation(&b, aborting);
  jb_puts(&b, ",\n    \"results\": [");
  for (size_t i = 0; i < n; i++) {
    jb_puts(&b, i ? ",\n      " : "\n      ");
    write_result(&b, &infos[i]);
  }
  jb_puts(&b, n ? "\n    ],\n" : "],\n");
  jb_puts(&b, "    \"columnKind\": \"unicodeCodePoints\"\n  }]\n}\n");

  for (size_t i = 0; i < n; i++) {
    free(infos[i].abs_file);
    free(infos[i].rel_file);
    free(infos[i].exe_rel);
  }
  free(infos);
  dt__src_free(&src);
  if (b.failed || !b.data) {
    free(b.data);
    return;
  }
  /* Write beside the target, then rename: readers never see half a log. */
  size_t tn = strlen(g_report.path) + 32;
  char *tmp = malloc(tn);
  if (tmp) {
    snprintf(tmp, tn, "%s.tmp%ld", g_report.path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(b.data, 1, b.len, f) == b.len;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, g_report.path) == 0) g_report.written = 1;
    else {
      remove(tmp);
      fprintf(stderr, "dt: cannot write the DT_REPORT log %s\n", g_report.path);
    }
    free(tmp);
  }
  free(b.data);
}
