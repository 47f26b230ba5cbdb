/* analyzer/src/rules/load.c — loads rules files (docs/rules.md) in order into one tc_rules:
 * reads each file, parses it with cJSON, hands each section to the part that reads it
 * (rules/loader.h), and checks what the files together must provide. Later files add
 * backends, kinds and functions and may override earlier entries. Errors read
 * "FILE:LINE:COL: what is wrong" (base/json_pos.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/path.h"
#include "rules/loader.h"
#include "base/bytes.h"

char *rules_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

size_t rules_find_name(const char *const *names, size_t n, const char *name) {
  for (size_t k = 1; k < n; k++)
    if (strcmp(names[k], name) == 0) return k;
  return 0;
}

/* "a", "b" or "c" (quote around each, last_sep before the last) into buf. */
void rules_name_list(const char *const *names, size_t n, const char *quote, const char *last_sep,
                     char *buf, size_t len) {
  size_t pos = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && pos < len; i++) {
    int w = snprintf(buf + pos, len - pos, "%s%s%s%s",
                     i == 0       ? ""
                     : i + 1 == n ? last_sep
                                  : ", ",
                     quote, names[i], quote);
    if (w < 0) break;
    pos += (size_t)w;
  }
}

static int parse_file(loader *L, const cJSON *root, twin_spec *twins) {
  static const char *const k[] = {"tagcheck_rules", "include",
                                  "api",
                                  "description",
                                  "device_types",
                                  "tensor_types",
                                  "backends",
                                  "kinds",
                                  "rule_ids",
                                  "messages",
                                  "callsite_twins",
                                  "functions",
                                  "library_functions",
                                  "rules",
                                  "tensor_fields",
                                  "fixes",
                                  "function_families",
                                  "failed_calls_return_null",
                                  "noreturn",
                                  NULL};
  if (!cJSON_IsObject(root)) {
    tc_json_fail(&L->j, 0, "a rules file must be a JSON object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, root, 0, "the rules file", k)) return -1;
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "tagcheck_rules");
  if (!ver) {
    tc_json_fail(&L->j, 0, "missing \"tagcheck_rules\": 1 (the format version)");
    return -1;
  }
  if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
    tc_json_fail(&L->j, tc_json_locate(&L->j, "tagcheck_rules", NULL),
                 "unsupported \"tagcheck_rules\" version "
                 "(this tagcheck reads version 1)");
    return -1;
  }
  const cJSON *x;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "backends")) && rules_parse_backends(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "kinds")) && rules_parse_kinds(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "device_types")) &&
      rules_parse_device_types(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "tensor_types")) &&
      rules_parse_names(L, x, "tensor_types", "type names", &L->r->tensor_types,
                        &L->r->n_tensor_types))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "noreturn")) &&
      rules_parse_names(L, x, "noreturn", "function names", &L->r->noreturn, &L->r->n_noreturn))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "tensor_fields"))) {
    static const char *const fk[] = {"data", "buffer", "view_src", "kind", NULL};
    char *slots[4] = {L->r->data_field, L->r->buffer_field, L->r->view_src_field,
                      L->r->kind_field};
    int bad = rules_parse_string_map(L, x, "tensor_fields", fk, 4, slots);
    L->r->data_field = slots[0];
    L->r->buffer_field = slots[1];
    L->r->view_src_field = slots[2];
    L->r->kind_field = slots[3];
    if (bad) return -1;
  }
  if (tc_json_bool(&L->j, root, "failed_calls_return_null", 0, &L->r->failed_calls_return_null) <
      0)
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "rules")) && rules_parse_rule_metas(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "fixes")) && rules_parse_fixes(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "rule_ids")) && rules_parse_rule_ids(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "messages")) && rules_parse_messages(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "callsite_twins"))) {
    static const char *const tk[] = {"suffix", "leading_args", NULL};
    size_t at = tc_json_locate(&L->j, "callsite_twins", NULL);
    if (!cJSON_IsObject(x) || tc_json_only_keys(&L->j, x, at, "\"callsite_twins\"", tk)) {
      tc_json_fail(&L->j, at, "\"callsite_twins\" must be {\"suffix\": S, \"leading_args\": N}");
      return -1;
    }
    const char *suffix = tc_json_string(&L->j, x, "suffix", at, 1, "\"callsite_twins\"");
    int lead = 0;
    if (!suffix || tc_json_int(&L->j, x, "leading_args", at, 0, 16, &lead) < 0) return -1;
    free(twins->suffix);
    twins->suffix = rules_strdup(suffix);
    twins->leading = lead;
  }
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "functions")) &&
      rules_parse_functions(L, x, "functions", 1))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "library_functions")) &&
      rules_parse_functions(L, x, "library_functions", 0))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "function_families")) &&
      rules_parse_families(L, x))
    return -1;
  return 0;
}

static char *read_file(const char *path, char *err, size_t err_len) {
  size_t n = 0;
  char *buf = tc_file_read(path, 0, &n);
  if (!buf) {
    snprintf(err, err_len, "%s: cannot read rules file: %s", path, strerror(errno));
    return NULL;
  }
  if (strlen(buf) != n) {
    free(buf);
    snprintf(err, err_len, "%s: not a text file (NUL byte)", path);
    return NULL;
  }
  return buf;
}

static int add_file_name(tc_rules *r, const char *file) {
  char **nf = realloc(r->files, (r->n_files + 1) * sizeof *nf);
  if (!nf) return -1;
  r->files = nf;
  nf[r->n_files] = rules_strdup(file);
  return nf[r->n_files++] ? 0 : -1;
}

static int load_file(loader *L, const char *path, twin_spec *tw, int depth);

/* Whether the file at path is among those loaded. */
static int loaded(const tc_rules *r, const char *path) {
  char *norm = tc_normalize_path(path);
  int found = 0;
  for (size_t i = 0; norm && !found && i < r->n_files; i++) {
    char *other = tc_normalize_path(r->files[i]);
    found = other && strcmp(other, norm) == 0;
    free(other);
  }
  free(norm);
  return found;
}

#ifndef TC_DEFAULT_RULES_INSTALLED
#define TC_DEFAULT_RULES_INSTALLED ""
#endif
#ifndef TC_DEFAULT_RULES_BUILD
#define TC_DEFAULT_RULES_BUILD ""
#endif

/* An included file: next to the file that includes it, else in the folder of the bundled
   rules (installed, then the source tree's), so that a copy of rules/dt.json still finds
   rules/libc.json. The first of those that exists, or the first when none does. */
static char *find_include(const char *name, const char *dir) {
  char *path = tc_path_absolute(name, dir);
  const char *bundled[2] = {TC_DEFAULT_RULES_INSTALLED, TC_DEFAULT_RULES_BUILD};
  for (int i = 0; path && name[0] != '/' && access(path, R_OK) != 0 && i < 2; i++) {
    if (!bundled[i][0]) continue;
    char *bdir = tc_path_dir_of(bundled[i]);
    char *alt = bdir ? tc_path_absolute(name, bdir) : NULL;
    free(bdir);
    if (alt && access(alt, R_OK) == 0) {
      free(path);
      return alt;
    }
    free(alt);
  }
  return path;
}

/* An included file could not be loaded: the error names the including file and its
   "include" (at offset at of text), then what went wrong in the included one. */
static void include_failed(loader *L, const char *text, const char *file, size_t at) {
  if (!L->j.err || !L->j.err_len) return;
  char inner[512];
  snprintf(inner, sizeof inner, "%s", L->j.err[0] ? L->j.err : "out of memory");
  unsigned line, col;
  tc_json_line_col(text, at, &line, &col);
  snprintf(L->j.err, L->j.err_len, "%s:%u:%u: \"include\": %s", file, line, col, inner);
}

/* "include": [FILE, …]: the rules files this one is layered on (rules/libc.json), relative to
   its folder, loaded before it unless loaded already. */
static int load_includes(loader *L, const cJSON *inc, const char *text, const char *file,
                         twin_spec *tw, int depth) {
  size_t at = tc_json_locate(&L->j, "include", NULL);
  if (!cJSON_IsArray(inc)) {
    tc_json_fail(&L->j, at, "\"include\" must be a list of rules file names");
    return -1;
  }
  if (depth >= 8) {
    tc_json_fail(&L->j, at, "\"include\": files included more than 8 deep");
    return -1;
  }
  char *dir = tc_path_dir_of(file);
  int rc = dir ? 0 : -1;
  for (const cJSON *x = inc->child; rc == 0 && x; x = x->next) {
    if (!cJSON_IsString(x) || !x->valuestring[0]) {
      tc_json_fail(&L->j, at, "\"include\" must hold non-empty file names");
      rc = -1;
      break;
    }
    char *path = find_include(x->valuestring, dir);
    if (!path) rc = -1;
    else if (!loaded(L->r, path) && (rc = load_file(L, path, tw, depth + 1)) != 0)
      include_failed(L, text, file, at);
    free(path);
  }
  free(dir);
  return rc;
}

static int load_text(loader *L, const char *text, const char *file, twin_spec *tw, int depth) {
  if (depth == 0) L->given = file;
  L->j.text = text;
  L->j.file = file;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) {
    size_t off = end ? (size_t)(end - text) : 0;
    if (off > strlen(text)) off = strlen(text);
    tc_json_fail(&L->j, off, "invalid JSON%s", text[off] ? "" : " (unexpected end of file)");
    return -1;
  }
  const cJSON *inc = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "include") : NULL;
  int rc = inc ? load_includes(L, inc, text, file, tw, depth) : 0;
  L->j.text = text; /* again: an included file was being read */
  L->j.file = file;
  if (rc == 0) rc = parse_file(L, root, tw);
  cJSON_Delete(root);
  return rc;
}

/* Reads and loads the rules file at path (what it includes first). */
static int load_file(loader *L, const char *path, twin_spec *tw, int depth) {
  char *text = read_file(path, L->j.err, L->j.err_len);
  if (!text) return -1;
  tc_rules *r = L->r;
  int rc = add_file_name(r, path) ? -1 : load_text(L, text, path, tw, depth);
  r->content_hash =
      tc_fnv64(tc_fnv64(r->content_hash, path, strlen(path) + 1), text, strlen(text) + 1);
  free(text);
  return rc;
}

/* Whether a function the rules describe reads or makes device values (a check of device
   operands; a device result; a tensor made on a device argument): then device types are
   needed. */
static int uses_devices(const tc_rules *r) {
  for (size_t f = 0; f < r->n_fns; f++) {
    const tc_result_spec *res = &r->fns[f].result;
    if (res->what == TC_RES_DEVICE || res->what == TC_RES_DEVICES_EQUAL ||
        (res->what == TC_RES_TENSOR && res->device_arg >= 0))
      return 1;
    for (size_t c = 0; c < r->fns[f].n_checks; c++)
      if (rules_check_reads_devices(r->fns[f].checks[c].kind)) return 1;
  }
  return 0;
}

/* Checks what the files together must provide and fills defaults. */
static int finish(loader *L, twin_spec *tw) {
  tc_rules *r = L->r;
  const char *last = L->given ? L->given : r->n_files ? r->files[r->n_files - 1] : "rules";
  char *e = L->j.err;
  size_t el = L->j.err_len;
  int devices = uses_devices(r);
  if (!r->n_backends || !r->n_kinds || (devices && !r->n_device_types) || !r->n_tensor_types) {
    snprintf(e, el, "%s: the rules declare no %s", last,
             !r->n_backends                      ? "backends"
             : !r->n_kinds                       ? "kinds"
             : devices && !r->n_device_types     ? "device_types"
                                                 : "tensor_types");
    return -1;
  }
  if (rules_finish_messages(r, last, e, el) || rules_finish_fixes(r, last, e, el)) return -1;
  if (rules_add_twins(r, tw)) return -1;
  free(r->backend_names);
  free(r->single_device);
  free(r->kind_names);
  r->backend_names = calloc(r->n_backends, sizeof *r->backend_names);
  r->single_device = calloc(r->n_backends, 1);
  r->kind_names = calloc(r->n_kinds, sizeof *r->kind_names);
  if (!r->backend_names || !r->single_device || !r->kind_names) return -1;
  for (size_t i = 0; i < r->n_backends; i++) {
    r->backend_names[i] = r->backends[i].name;
    r->single_device[i] = (unsigned char)r->backends[i].single_device;
  }
  for (size_t i = 0; i < r->n_kinds; i++) r->kind_names[i] = r->kinds[i].name;
  return 0;
}

static tc_rules *rules_new(void) { return calloc(1, sizeof(tc_rules)); }


/* The rules loaded (rc 0: every file read) once finished, or NULL with the error in err. */
static tc_rules *finish_load(loader *L, twin_spec *tw, int rc) {
  tc_rules *r = L->r;
  char *err = L->j.err;
  size_t err_len = L->j.err_len;
  if (rc == 0) rc = finish(L, tw);
  free(tw->suffix);
  if (rc) {
    if (err && err_len && !err[0]) snprintf(err, err_len, "out of memory loading rules");
    tc_rules_free(r);
    return NULL;
  }
  return r;
}

tc_rules *tc_rules_load(const char *const *paths, size_t n_paths, char *err, size_t err_len) {
  if (err && err_len) err[0] = '\0';
  if (!n_paths) {
    snprintf(err, err_len, "no rules file given");
    return NULL;
  }
  tc_rules *r = rules_new();
  loader L = {{"", "", err, err_len, 0}, r, NULL};
  twin_spec tw = {NULL, 0};
  int rc = r ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < n_paths; i++)
    if (!loaded(r, paths[i])) rc = load_file(&L, paths[i], &tw, 0);
  return finish_load(&L, &tw, rc);
}

tc_rules *tc_rules_load_string(const char *text, const char *file, char *err, size_t err_len) {
  if (err && err_len) err[0] = '\0';
  tc_rules *r = rules_new();
  loader L = {{"", "", err, err_len, 0}, r, NULL};
  twin_spec tw = {NULL, 0};
  int rc = (r && !add_file_name(r, file)) ? load_text(&L, text, file, &tw, 0) : -1;
  if (r)
    r->content_hash =
        tc_fnv64(tc_fnv64(TC_FNV_INIT, file, strlen(file) + 1), text, strlen(text) + 1);
  return finish_load(&L, &tw, rc);
}

uint64_t tc_rules_content_hash(const tc_rules *r) { return r->content_hash; }

void tc_rules_free(tc_rules *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n_families; i++) {
    free(r->families[i].context_type);
    free(r->families[i].returns);
  }
  free(r->families);
  for (size_t i = 0; i < r->n_backends; i++) {
    free(r->backends[i].name);
    free(r->backends[i].enum_name);
  }
  free(r->backends);
  free(r->backend_names);
  free(r->single_device);
  for (size_t i = 0; i < r->n_kinds; i++) {
    free(r->kinds[i].name);
    free(r->kinds[i].enum_name);
  }
  free(r->kinds);
  free(r->kind_names);
  for (size_t i = 0; i < r->n_device_types; i++) {
    free(r->device_types[i].name);
    free(r->device_types[i].backend_field);
    free(r->device_types[i].ordinal_field);
    free(r->device_types[i].autodiff_field);
  }
  free(r->device_types);
  for (size_t i = 0; i < r->n_tensor_types; i++) free(r->tensor_types[i]);
  free(r->tensor_types);
  for (size_t i = 0; i < r->n_noreturn; i++) free(r->noreturn[i]);
  free(r->noreturn);
  free(r->data_field);
  free(r->buffer_field);
  free(r->view_src_field);
  free(r->kind_field);
  for (int i = 0; i < TC_RULE_COUNT; i++) free(r->rule_ids[i]);
  for (int i = 0; i < TC_MSG_COUNT; i++) free(r->messages[i]);
  for (size_t i = 0; i < r->n_fns; i++) {
    free(r->fns[i].name);
    free(r->fns[i].effects);
    free(r->fns[i].result.placement_field);
    rules_free_checks(r->fns[i].checks, r->fns[i].n_checks);
  }
  free(r->fns);
  free(r->fn_index);
  for (size_t i = 0; i < r->n_metas; i++) {
    free(r->metas[i].id);
    free(r->metas[i].name);
    free(r->metas[i].short_description);
    free(r->metas[i].full_description);
    free(r->metas[i].help);
    free(r->metas[i].example);
    free(r->metas[i].example_fix);
  }
  free(r->metas);
  rules_free_fixes(r);
  for (size_t i = 0; i < r->n_files; i++) free(r->files[i]);
  free(r->files);
  free(r);
}
