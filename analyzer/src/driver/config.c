/* analyzer/src/driver/config.c — the configuration file (.tagcheck.json, found by walking up
 * from the analyzed files' directory, or --config FILE) merged into the options, command-line
 * values first. Keys (docs/ci.md): rules, enable, disable, severity, exclude, unavailable,
 * fail-on, root; "$schema" and "comment" are ignored; anything else is an error that names
 * the file, line and column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/config.h"
#include "report/json_util.h"
#include "report/output.h"
#include "report/diag.h"
#include "base/strbuf.h"
#include "base/uri.h"
#include "base/path.h"

#define TC_CONFIG_NAME ".tagcheck.json"

typedef struct config_ctx {
  tc_options *o;
  const char *path; /* as found or given */
  char *dir;        /* its directory, absolute, no trailing slash (but "/") */
  const char *text; /* the file's text, to locate keys for messages */
  char *err;
  size_t err_len;
} config_ctx;

/* ---- locating keys for error messages (cJSON keeps no positions) ---- */


/* Writes "FILE:LINE:COL: message" with the position of key (inside parent_key's value when
   given), or "FILE: message" when it cannot be found. */
static int fail_at(config_ctx *c, const char *parent_key, const char *key, const char *fmt,
                   const char *arg) {
  size_t from = 0;
  if (parent_key) {
    size_t p = tc_json_key_offset(c->text, 0, parent_key);
    if (p != (size_t)-1) from = p + 1;
  }
  size_t at = key ? tc_json_key_offset(c->text, from, key) : (size_t)-1;
  char msg[512];
  snprintf(msg, sizeof msg, fmt, arg ? arg : "");
  if (at != (size_t)-1) {
    unsigned line, col;
    tc_json_line_col(c->text, at, &line, &col);
    snprintf(c->err, c->err_len, "%s:%u:%u: %s", c->path, line, col, msg);
  } else {
    snprintf(c->err, c->err_len, "%s: %s", c->path, msg);
  }
  return -1;
}

/* ---- small list helpers ---- */

static int push(char ***list, size_t *n, const char *s) {
  char *copy = strdup(s);
  if (!copy) return -1;
  char **p = realloc(*list, (*n + 1) * sizeof *p);
  if (!p) {
    free(copy);
    return -1;
  }
  p[(*n)++] = copy;
  *list = p;
  return 0;
}

static int listed(char *const *list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (list[i] && strcmp(list[i], s) == 0) return 1;
  return 0;
}

/* A path from the configuration, relative to its directory. */
static char *resolve(const config_ctx *c, const char *p) {
  if (p[0] == '/') return tc_normalize_path(p);
  tc_strbuf b;
  tc_strbuf_init(&b);
  tc_strbuf_puts(&b, c->dir);
  if (strcmp(c->dir, "/") != 0) tc_strbuf_putc(&b, '/');
  tc_strbuf_puts(&b, p);
  char *joined = tc_strbuf_take(&b);
  char *norm = joined ? tc_normalize_path(joined) : NULL;
  free(joined);
  return norm;
}

/* An exclude glob made absolute: relative to the config's directory; a pattern without a
   slash (such as "*.gen.c") matches that name in any directory, as in .gitignore. */
static char *resolve_glob(const config_ctx *c, const char *pat) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  size_t len = strlen(pat);
  while (len > 1 && pat[len - 1] == '/') len--; /* "build/" names the directory */
  int has_slash = memchr(pat, '/', len) != NULL;
  if (pat[0] != '/') {
    tc_strbuf_puts(&b, c->dir);
    if (strcmp(c->dir, "/") != 0) tc_strbuf_putc(&b, '/');
    const char *p = pat;
    while (len >= 2 && p[0] == '.' && p[1] == '/') p += 2, len -= 2;
    if (!has_slash) tc_strbuf_puts(&b, "**/");
    tc_strbuf_add(&b, p, len);
  } else {
    tc_strbuf_add(&b, pat, len);
  }
  return tc_strbuf_take(&b);
}

/* ---- keys ---- */

/* Calls each() for every string of a string or (if allow_single) an array of strings. */
static int each_string(config_ctx *c, const cJSON *v, const char *key, int allow_single,
                       int (*each)(config_ctx *c, const char *s)) {
  if (allow_single && cJSON_IsString(v)) return each(c, v->valuestring);
  if (!cJSON_IsArray(v))
    return fail_at(c, NULL, key, "\"%s\" must be an array of strings", key);
  const cJSON *item;
  cJSON_ArrayForEach(item, v) {
    if (!cJSON_IsString(item) || !*item->valuestring)
      return fail_at(c, NULL, key, "\"%s\" must contain only non-empty strings", key);
    if (each(c, item->valuestring) != 0) return -1;
  }
  return 0;
}

static int oom(config_ctx *c) {
  snprintf(c->err, c->err_len, "%s: out of memory", c->path);
  return -1;
}

static int add_rules_file(config_ctx *c, const char *s) {
  char *p = resolve(c, s);
  if (!p) return oom(c);
  int rc = push(&c->o->rules_files, &c->o->n_rules_files, p);
  free(p);
  return rc ? oom(c) : 0;
}

static int add_enable(config_ctx *c, const char *s) {
  if (listed(c->o->enable_rules, c->o->n_enable_rules, s)) return 0;
  return push(&c->o->enable_rules, &c->o->n_enable_rules, s) ? oom(c) : 0;
}

static int add_disable(config_ctx *c, const char *s) {
  if (listed(c->o->disable_rules, c->o->n_disable_rules, s)) return 0;
  return push(&c->o->disable_rules, &c->o->n_disable_rules, s) ? oom(c) : 0;
}

static int add_exclude(config_ctx *c, const char *s) {
  char *g = resolve_glob(c, s);
  if (!g) return oom(c);
  int rc = push(&c->o->exclude, &c->o->n_exclude, g);
  free(g);
  return rc ? oom(c) : 0;
}

static int add_unavailable(config_ctx *c, const char *s) {
  if (listed(c->o->unavailable, c->o->n_unavailable, s)) return 0;
  return push(&c->o->unavailable, &c->o->n_unavailable, s) ? oom(c) : 0;
}

/* "enable"/"disable" from the file, minus what the command line says the other way. */
static int apply_enable_disable(config_ctx *c, const cJSON *v, const char *key, int enable) {
  if (!cJSON_IsArray(v))
    return fail_at(c, NULL, key, "\"%s\" must be an array of rule ids", key);
  const cJSON *item;
  cJSON_ArrayForEach(item, v) {
    if (!cJSON_IsString(item) || !*item->valuestring)
      return fail_at(c, NULL, key, "\"%s\" must contain only rule ids (strings)", key);
  }
  tc_options *o = c->o;
  cJSON_ArrayForEach(item, v) {
    const char *id = item->valuestring;
    if (enable && listed(o->disable_rules, o->n_disable_rules, id)) continue;
    if (!enable && listed(o->enable_rules, o->n_enable_rules, id)) continue;
    if ((enable ? add_enable(c, id) : add_disable(c, id)) != 0) return -1;
  }
  return 0;
}

static int apply_severity(config_ctx *c, const cJSON *v) {
  if (!cJSON_IsObject(v))
    return fail_at(c, NULL, "severity", "\"%s\" must be an object: rule id -> level", "severity");
  const cJSON *item;
  cJSON_ArrayForEach(item, v) {
    tc_level level;
    if (!cJSON_IsString(item) ||
        (strcmp(item->valuestring, "off") != 0 && tc_level_parse(item->valuestring, &level) != 0))
      return fail_at(c, "severity", item->string,
                     "severity of \"%s\" must be \"error\", \"warning\", \"note\" or \"off\"",
                     item->string);
  }
  cJSON_ArrayForEach(item, v) {
    if (push(&c->o->severity_rules, &c->o->n_severity, item->string) != 0) return oom(c);
    c->o->n_severity--; /* push the level under the same index */
    if (push(&c->o->severity_levels, &c->o->n_severity, item->valuestring) != 0) {
      free(c->o->severity_rules[c->o->n_severity]);
      return oom(c);
    }
  }
  return 0;
}

static int apply_fail_on(config_ctx *c, const cJSON *v) {
  static const struct { const char *name; tc_fail_on value; } names[] = {
      {"error", TC_FAIL_ON_ERROR}, {"warning", TC_FAIL_ON_WARNING}, {"never", TC_FAIL_ON_NEVER}};
  for (size_t i = 0; cJSON_IsString(v) && i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(v->valuestring, names[i].name) == 0) {
      if (!c->o->fail_on_given) c->o->fail_on = names[i].value;
      return 0;
    }
  }
  return fail_at(c, NULL, "fail-on", "\"%s\" must be \"error\", \"warning\" or \"never\"",
                 "fail-on");
}

static int apply_key(config_ctx *c, const cJSON *v) {
  const char *k = v->string;
  tc_options *o = c->o;
  if (strcmp(k, "$schema") == 0 || strcmp(k, "comment") == 0) return 0;
  if (strcmp(k, "rules") == 0) {
    if (o->n_rules_files > 0) { /* --rules on the command line wins; still check the type */
      if (!cJSON_IsString(v) && !cJSON_IsArray(v))
        return fail_at(c, NULL, k, "\"%s\" must be a path or an array of paths", k);
      return 0;
    }
    return each_string(c, v, k, 1, add_rules_file);
  }
  if (strcmp(k, "enable") == 0) return apply_enable_disable(c, v, k, 1);
  if (strcmp(k, "disable") == 0) return apply_enable_disable(c, v, k, 0);
  if (strcmp(k, "severity") == 0) return apply_severity(c, v);
  if (strcmp(k, "exclude") == 0) return each_string(c, v, k, 1, add_exclude);
  if (strcmp(k, "unavailable") == 0) return each_string(c, v, k, 1, add_unavailable);
  if (strcmp(k, "fail-on") == 0) return apply_fail_on(c, v);
  if (strcmp(k, "root") == 0) {
    if (!cJSON_IsString(v) || !*v->valuestring)
      return fail_at(c, NULL, k, "\"%s\" must be a directory path", k);
    if (o->root) return 0;
    o->root = resolve(c, v->valuestring);
    return o->root ? 0 : oom(c);
  }
  return fail_at(c, NULL, k,
                 "unknown key \"%s\" (expected rules, enable, disable, severity, exclude, "
                 "unavailable, fail-on or root)",
                 k);
}

/* ---- finding the file ---- */

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *tc_config_find(const char *start_dir) {
  char *dir = tc_normalize_path(start_dir && *start_dir ? start_dir : ".");
  if (!dir) return NULL;
  char *found = NULL;
  for (;;) {
    tc_strbuf b;
    tc_strbuf_init(&b);
    tc_strbuf_puts(&b, dir);
    if (strcmp(dir, "/") != 0) tc_strbuf_putc(&b, '/');
    tc_strbuf_puts(&b, TC_CONFIG_NAME);
    char *candidate = tc_strbuf_take(&b);
    if (candidate && is_file(candidate)) {
      found = candidate;
      break;
    }
    free(candidate);
    char *slash = strrchr(dir, '/');
    if (!slash || strcmp(dir, "/") == 0) break;
    if (slash == dir) slash[1] = '\0';
    else *slash = '\0';
  }
  free(dir);
  return found;
}


int tc_config_load(tc_options *o, const char *start_dir, char *err, size_t err_len) {
  if (err_len) err[0] = '\0';
  char *path = NULL;
  if (o->config && *o->config) {
    path = strdup(o->config);
  } else {
    /* The analyzed files' directory first (the first FILE given), then start_dir (the -p
       directory or the current one). */
    if (o->n_files > 0 && o->files[0]) {
      char *dir = tc_path_dir_of(o->files[0]);
      if (dir) path = tc_config_find(dir);
      free(dir);
    }
    if (!path) path = tc_config_find(start_dir);
  }
  if (!path) return 0;

  int rc = -1;
  char *text = NULL;
  config_ctx c = {o, path, tc_path_dir_of(path), NULL, err, err_len};
  cJSON *root = tc_json_read_file(path, &text, err, err_len);
  if (!root) goto done;
  c.text = text;
  if (!c.dir) {
    oom(&c);
    goto done;
  }
  if (!cJSON_IsObject(root)) {
    snprintf(err, err_len, "%s:1:1: the configuration must be a JSON object", path);
    goto done;
  }
  const cJSON *v;
  cJSON_ArrayForEach(v, root) { /* a key given twice is an error, as every JSON reader differs */
    for (const cJSON *w = root->child; w != v; w = w->next)
      if (strcmp(w->string, v->string) == 0) {
        fail_at(&c, NULL, v->string, "\"%s\" is given twice", v->string);
        goto done;
      }
    if (cJSON_IsObject(v))
      for (const cJSON *x = v->child; x; x = x->next)
        for (const cJSON *y = v->child; y != x; y = y->next)
          if (strcmp(x->string, y->string) == 0) {
            fail_at(&c, v->string, x->string, "\"%s\" is given twice", x->string);
            goto done;
          }
  }
  cJSON_ArrayForEach(v, root) {
    if (apply_key(&c, v) != 0) goto done;
  }
  free(o->config_loaded);
  o->config_loaded = strdup(path);
  rc = 0;
done:
  cJSON_Delete(root);
  free(text);
  free(c.dir);
  free(path);
  return rc;
}

void tc_options_free_config(tc_options *o) {
  for (size_t i = 0; i < o->n_severity; i++) {
    free(o->severity_rules[i]);
    free(o->severity_levels[i]);
  }
  free(o->severity_rules);
  free(o->severity_levels);
  o->severity_rules = o->severity_levels = NULL;
  o->n_severity = 0;
  for (size_t i = 0; i < o->n_exclude; i++) free(o->exclude[i]);
  free(o->exclude);
  o->exclude = NULL;
  o->n_exclude = 0;
  free(o->config_loaded);
  o->config_loaded = NULL;
}
