/* tests/hostile/test_hostile_config.c — configuration that is broken in every way a CI job can
 * break it, through the real tagcheck binary: rules files and compile databases that are
 * malformed, empty, truncated or wrongly shaped JSON, missing, unreadable, or directories;
 * rules naming functions that do not exist; unknown options and bad option values; a broken
 * .tagcheck.json and baseline. Each must exit 2 (bad usage or configuration) with a message
 * naming the file — never crash, hang, or analyze anyway. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hx_util.h"

typedef struct fixture {
  char dir[256];
  char *clean; /* a program with no finding */
  char *bug;   /* a program with one backend-mismatch */
} fixture;

static const char k_clean[] =
    "#include <dt/dt.h>\n"
    "void f(void) {\n"
    "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
    "  dt_free(dt_add(a, a));\n"
    "  dt_free(a);\n"
    "}\n";

static const char k_bug[] =
    "#include <dt/dt.h>\n"
    "void f(void) {\n"
    "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
    "  dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"
    "  dt_free(dt_add(a, s));\n"
    "}\n";

static int setup(void **state) {
  fixture *fx = calloc(1, sizeof *fx);
  hx_mkdtemp(fx->dir);
  fx->clean = hx_write_str(fx->dir, "clean.c", k_clean);
  fx->bug = hx_write_str(fx->dir, "bug.c", k_bug);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fixture *fx = *state;
  hx_rmtree(fx->dir);
  free(fx->clean);
  free(fx->bug);
  free(fx);
  return 0;
}

/* tagcheck --no-cache --rules RULES bug.c -- -I<runtime>: exit 2 naming `name`. */
static void expect_rules_rejected(fixture *fx, const char *rules, const char *name) {
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "--rules", rules, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, name);
  if (r.out_len != 0) fail_msg("a rejected configuration still printed a report: %s", r.out);
  hx_result_free(&r);
  free(inc);
}

static void rules_case(fixture *fx, const char *name, const char *content) {
  char *path = hx_write_str(fx->dir, name, content);
  expect_rules_rejected(fx, path, name);
  free(path);
}

static char *dt_rules_text(size_t *len) {
  char *text = hx_read(hx_rules_path(), len);
  assert_non_null(text);
  return text;
}

static void test_rules_malformed_json(void **state) {
  fixture *fx = *state;
  rules_case(fx, "syntax.json", "{\"tagcheck_rules\": 1,\n  \"backends\": [,]\n}\n");
  rules_case(fx, "garbage.json", "\x7f\x45\x4c\x46\x02\x01\x01\x00 not json at all");
  rules_case(fx, "nul.json", "{\"tagcheck_rules\"");
  rules_case(fx, "deep.json", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
  /* Nesting deeper than any parser's limit. */
  char *deep = malloc(200001);
  memset(deep, '[', 100000);
  memset(deep + 100000, ']', 100000);
  deep[200000] = '\0';
  rules_case(fx, "very-deep.json", deep);
  free(deep);
}

static void test_rules_empty(void **state) {
  fixture *fx = *state;
  rules_case(fx, "empty.json", "");
  rules_case(fx, "blank.json", " \n\t\n");
  rules_case(fx, "empty-object.json", "{}");
}

static void test_rules_truncated(void **state) {
  fixture *fx = *state;
  size_t len;
  char *text = dt_rules_text(&len);
  /* Cut at a few places: inside a string, after a comma, just before the last brace. */
  size_t cuts[] = {1, len / 3, len / 2, len - 2};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    char name[64];
    snprintf(name, sizeof name, "truncated-%zu.json", i);
    char *path = hx_write(fx->dir, name, text, cuts[i]);
    expect_rules_rejected(fx, path, name);
    free(path);
  }
  free(text);
}

static void test_rules_wrong_shape(void **state) {
  fixture *fx = *state;
  rules_case(fx, "array.json", "[]");
  rules_case(fx, "string.json", "\"rules\"");
  rules_case(fx, "number.json", "42");
  rules_case(fx, "null.json", "null");
  rules_case(fx, "backends-string.json", "{\"tagcheck_rules\": 1, \"backends\": \"cpu\"}");
  /* The real rules with one value of the wrong type at a time. */
  size_t len;
  char *text = dt_rules_text(&len);
  const char *keys[] = {"backends", "kinds", "functions", "device_types", "tensor_types",
                        "rule_ids", "messages"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    if (cJSON_GetObjectItemCaseSensitive(root, keys[i]) == NULL) {
      cJSON_Delete(root);
      continue;
    }
    cJSON_ReplaceItemInObjectCaseSensitive(root, keys[i], cJSON_CreateNumber(7));
    char *bad = cJSON_Print(root);
    char name[64];
    snprintf(name, sizeof name, "wrong-%s.json", keys[i]);
    rules_case(fx, name, bad);
    free(bad);
    cJSON_Delete(root);
  }
  /* A function entry that is an array, and one with a check naming an argument past its arity. */
  cJSON *root = cJSON_Parse(text);
  cJSON *fns = cJSON_GetObjectItemCaseSensitive(root, "functions");
  assert_true(cJSON_IsObject(fns));
  cJSON_AddItemToObject(fns, "dt_weird", cJSON_CreateIntArray((const int[]){1, 2}, 2));
  char *bad = cJSON_Print(root);
  rules_case(fx, "function-array.json", bad);
  free(bad);
  cJSON_Delete(root);
  free(text);
}

static void test_rules_missing_unreadable_directory(void **state) {
  fixture *fx = *state;
  char *missing = hx_fmt("%s/no-such-rules.json", fx->dir);
  expect_rules_rejected(fx, missing, "no-such-rules.json");
  free(missing);

  char *dir = hx_fmt("%s/rules-dir.json", fx->dir);
  assert_int_equal(mkdir(dir, 0755), 0);
  expect_rules_rejected(fx, dir, "rules-dir.json");
  free(dir);

  char *loop_a = hx_fmt("%s/loop-a.json", fx->dir), *loop_b = hx_fmt("%s/loop-b.json", fx->dir);
  assert_int_equal(symlink(loop_b, loop_a), 0);
  assert_int_equal(symlink(loop_a, loop_b), 0);
  expect_rules_rejected(fx, loop_a, "loop-a.json");
  free(loop_a);
  free(loop_b);

  char *through_file = hx_fmt("%s/clean.c/rules.json", fx->dir); /* ENOTDIR */
  expect_rules_rejected(fx, through_file, "rules.json");
  free(through_file);

  /* Unreadable: mode 000, read as an ordinary user (the test may run as root). */
  size_t len;
  char *text = dt_rules_text(&len);
  char *locked = hx_write(fx->dir, "locked.json", text, len);
  free(text);
  assert_int_equal(chmod(locked, 0), 0);
  assert_int_equal(chmod(fx->dir, 0755), 0);
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  const char *argv[] = {hx_tagcheck_path(), "--no-cache", "--rules", locked, fx->bug, "--",
                        inc, NULL};
  hx_result r;
  hx_run(argv, fx->dir, 1, &r);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "locked.json");
  hx_result_free(&r);
  free(inc);
  free(locked);
}

/* Rules that describe functions no program declares or calls: the analysis is unchanged. */
static void test_rules_naming_absent_functions(void **state) {
  fixture *fx = *state;
  size_t len;
  char *text = dt_rules_text(&len);
  cJSON *root = cJSON_Parse(text);
  free(text);
  assert_non_null(root);
  cJSON *fns = cJSON_GetObjectItemCaseSensitive(root, "functions");
  const cJSON *add = cJSON_GetObjectItemCaseSensitive(fns, "dt_add");
  assert_non_null(add);
  for (int i = 0; i < 50; i++) {
    char name[64];
    snprintf(name, sizeof name, "no_such_function_%d", i);
    cJSON_AddItemToObject(fns, name, cJSON_Duplicate(add, 1));
  }
  char *rules = cJSON_Print(root);
  cJSON_Delete(root);
  char *path = hx_write_str(fx->dir, "extra.json", rules);
  free(rules);
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "--rules", path, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "[backend-mismatch]");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--rules", path, fx->clean, "--", inc, NULL);
  hx_assert_status(&r, 0);
  hx_result_free(&r);
  free(inc);
  free(path);
}

/* ---- compile databases ---- */

/* Writes DIR/db-NAME/compile_commands.json (content NULL: none) and runs tagcheck -p on it. */
static void expect_db_rejected(fixture *fx, const char *name, const char *content) {
  char *dbdir = hx_fmt("%s/db-%s", fx->dir, name);
  assert_int_equal(mkdir(dbdir, 0755), 0);
  if (content != NULL) free(hx_write_str(dbdir, "compile_commands.json", content));
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "-p", dbdir, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, dbdir);
  hx_assert_err_has(&r, "compile_commands.json");
  hx_result_free(&r);
  free(dbdir);
}

static void test_compdb_malformed(void **state) {
  fixture *fx = *state;
  expect_db_rejected(fx, "syntax", "[{\"directory\": \"/tmp\", \"file\": \"a.c\",, }]");
  expect_db_rejected(fx, "binary", "\x89PNG\r\n\x1a\n\x00\x00");
  expect_db_rejected(fx, "unterminated-string", "[{\"directory\": \"/tmp");
}

/* A valid array followed by more text (a second document, a bad concatenation of two
   databases) is rejected at the first byte after it, with its line and column. */
static void test_compdb_trailing_garbage(void **state) {
  fixture *fx = *state;
  const char *tails[] = {"\n  garbage\n", "\n  [{\"directory\": \"/tmp\"}]", "\n  }", "\n  \x01"};
  for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
    char *dbdir = hx_fmt("%s/db-trailing-%zu", fx->dir, i);
    assert_int_equal(mkdir(dbdir, 0755), 0);
    char *db = hx_fmt("[{\"directory\": \"%s\", \"command\": \"cc -c bug.c\", \"file\": "
                      "\"bug.c\"}]%s", fx->dir, tails[i]);
    free(hx_write_str(dbdir, "compile_commands.json", db));
    hx_result r;
    hx_tagcheck(&r, fx->dir, "--no-cache", "-p", dbdir, NULL);
    hx_assert_status(&r, 2);
    hx_assert_err_has(&r, dbdir);
    hx_assert_err_has(&r, "compile_commands.json:2:3: error: unexpected text after");
    hx_result_free(&r);
    free(db);
    free(dbdir);
  }
}

static void test_compdb_empty_truncated(void **state) {
  fixture *fx = *state;
  expect_db_rejected(fx, "empty", "");
  expect_db_rejected(fx, "blank", "\n\n");
  char *entry = hx_fmt("[{\"directory\": \"%s\", \"command\": \"cc -c bug.c\", \"file\": \"bug.c\"}]",
                       fx->dir);
  for (size_t cut = 1; cut < strlen(entry); cut += 9) {
    char name[32];
    snprintf(name, sizeof name, "cut-%zu", cut);
    char *part = strndup(entry, cut);
    expect_db_rejected(fx, name, part);
    free(part);
  }
  free(entry);
}

static void test_compdb_wrong_shape(void **state) {
  fixture *fx = *state;
  expect_db_rejected(fx, "object", "{\"directory\": \"/tmp\", \"file\": \"a.c\", \"command\": \"cc\"}");
  expect_db_rejected(fx, "string", "\"compile_commands\"");
  expect_db_rejected(fx, "entry-number", "[1, 2, 3]");
  expect_db_rejected(fx, "file-number", "[{\"directory\": \"/tmp\", \"file\": 3, \"command\": \"cc\"}]");
  expect_db_rejected(fx, "no-file", "[{\"directory\": \"/tmp\", \"command\": \"cc -c a.c\"}]");
  expect_db_rejected(fx, "no-command", "[{\"directory\": \"/tmp\", \"file\": \"a.c\"}]");
  expect_db_rejected(fx, "directory-array",
                     "[{\"directory\": [\"/tmp\"], \"file\": \"a.c\", \"command\": \"cc -c a.c\"}]");
  expect_db_rejected(fx, "arguments-string",
                     "[{\"directory\": \"/tmp\", \"file\": \"a.c\", \"arguments\": \"cc -c a.c\"}]");
  expect_db_rejected(fx, "arguments-numbers",
                     "[{\"directory\": \"/tmp\", \"file\": \"a.c\", \"arguments\": [1, 2]}]");
  expect_db_rejected(fx, "unterminated-quote",
                     "[{\"directory\": \"/tmp\", \"file\": \"a.c\", \"command\": \"cc 'a.c\"}]");
}

static void test_compdb_missing_unreadable_directory(void **state) {
  fixture *fx = *state;
  expect_db_rejected(fx, "none", NULL); /* a directory without compile_commands.json */

  char *dbdir = hx_fmt("%s/db-is-dir", fx->dir);
  char *inner = hx_fmt("%s/compile_commands.json", dbdir);
  assert_int_equal(mkdir(dbdir, 0755), 0);
  assert_int_equal(mkdir(inner, 0755), 0);
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "-p", dbdir, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "compile_commands.json");
  hx_result_free(&r);

  /* -p naming a file, and a directory that does not exist. */
  hx_tagcheck(&r, fx->dir, "--no-cache", "-p", fx->clean, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "clean.c");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "-p", "/nonexistent/tagcheck/build", NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "/nonexistent/tagcheck/build");
  hx_result_free(&r);

  /* Unreadable: mode 000, read as an ordinary user. */
  char *locked_dir = hx_fmt("%s/db-locked", fx->dir);
  assert_int_equal(mkdir(locked_dir, 0755), 0);
  char *db = hx_write_str(locked_dir, "compile_commands.json", "[]");
  assert_int_equal(chmod(db, 0), 0);
  assert_int_equal(chmod(fx->dir, 0755), 0);
  size_t rules_len; /* a copy the ordinary user can read (the checkout may be under /root) */
  char *rules_text = dt_rules_text(&rules_len);
  char *rules = hx_write(fx->dir, "rules.json", rules_text, rules_len);
  free(rules_text);
  const char *argv[] = {hx_tagcheck_path(), "--no-cache", "--rules", rules, "-p", locked_dir, NULL};
  hx_run(argv, fx->dir, 1, &r);
  free(rules);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "compile_commands.json");
  hx_result_free(&r);
  free(db);
  free(locked_dir);
  free(inner);
  free(dbdir);
}

/* Thousands of entries: read whole, sharded so only a few units are parsed. */
static void test_compdb_thousands_of_entries(void **state) {
  fixture *fx = *state;
  enum { N = 5000 };
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  size_t cap = (size_t)N * 512, len = 0;
  char *db = malloc(cap);
  len += (size_t)snprintf(db + len, cap - len, "[\n");
  for (int i = 0; i < N; i++) {
    /* Every fifth entry is the buggy program, with a different macro each (distinct units). */
    const char *file = i % 5 == 0 ? "bug.c" : "clean.c";
    len += (size_t)snprintf(db + len, cap - len,
                            "%s{\"directory\": \"%s\", \"arguments\": [\"cc\", \"%s\", \"-DUNIT=%d\", "
                            "\"-c\", \"%s\", \"-o\", \"u%d.o\"], \"file\": \"%s\"}\n",
                            i ? "," : "", fx->dir, inc, i, file, i, file);
  }
  len += (size_t)snprintf(db + len, cap - len, "]\n");
  char *dbdir = hx_fmt("%s/db-big", fx->dir);
  free(hx_write(dbdir, "compile_commands.json", db, len));
  free(db);
  /* Shards deal whole programs (here every unit is one), largest first: each of the 1000
     shards gets one of the 1000 buggy units and four clean ones. */
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "-j", "2", "--shard", "1/1000", "-p", dbdir, NULL);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "bug.c:5:11: error: dt_add:");
  hx_assert_err_has(&r, "1 error, 0 warnings in 5 units");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "-j", "2", "--shard", "1000/1000", "-p", dbdir, NULL);
  hx_assert_status(&r, 1);
  hx_assert_err_has(&r, "1 error, 0 warnings in 5 units");
  hx_result_free(&r);
  free(dbdir);
  free(inc);
}

/* ---- options ---- */

static void expect_usage_error(fixture *fx, const char *const *args, size_t n, const char *needle) {
  hx_result r;
  hx_tagcheck_v(&r, fx->dir, args, n);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, needle);
  hx_result_free(&r);
}

#define USAGE(needle, ...)                                                                    \
  do {                                                                                        \
    const char *args_[] = {__VA_ARGS__};                                                      \
    expect_usage_error(fx, args_, sizeof args_ / sizeof args_[0], needle);                    \
  } while (0)

static void test_unknown_options(void **state) {
  fixture *fx = *state;
  USAGE("--frobnicate", "--frobnicate", "clean.c");
  USAGE("-Z", "-Z", "clean.c");
  USAGE("--format", "--format", "xml", "clean.c");
  USAGE("-j", "-j", "lots", "clean.c");
  USAGE("-j", "clean.c", "-j");
  USAGE("--shard", "--shard", "0/3", "clean.c");
  USAGE("--shard", "--shard", "4/3", "clean.c");
  USAGE("--fail-on", "--fail-on", "sometimes", "clean.c");
  USAGE("--rules", "clean.c", "--rules");
  USAGE("-p", "-p");
}

/* ---- rule ids: --list-rules, --explain, unknown ids named ---- */

static void test_rule_ids(void **state) {
  fixture *fx = *state;
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--version", NULL); /* names the libclang it runs on */
  hx_assert_status(&r, 0);
  hx_assert_out_has(&r, "tagcheck ");
  hx_assert_out_has(&r, "clang version");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--list-rules", NULL);
  hx_assert_status(&r, 0);
  const char *tag_rules[] = {"backend-mismatch", "autodiff-inner-backend", "autodiff-expected",
                             "autodiff-nested", "device-mismatch", "kind-mismatch",
                             "backend-unavailable"};
  for (size_t i = 0; i < sizeof tag_rules / sizeof tag_rules[0]; i++) {
    char *line = hx_fmt("%s ", tag_rules[i]);
    hx_assert_out_has(&r, line);
    free(line);
  }
  hx_result_free(&r);
  for (size_t i = 0; i < sizeof tag_rules / sizeof tag_rules[0]; i++) {
    hx_tagcheck(&r, fx->dir, "--explain", tag_rules[i], NULL);
    hx_assert_status(&r, 0);
    hx_assert_out_has(&r, "Wrong:");
    hx_assert_out_has(&r, "Fixed:");
    hx_result_free(&r);
  }
  /* every rule's helpUri (docs/ci.md#ID) names a section that exists, ggml's rules included */
  char *ci_md = hx_fmt("%s/../docs/ci.md", hx_corpus_dir());
  char *doc = hx_read(ci_md, NULL);
  assert_non_null(doc);
  char *ggml_rules = hx_fmt("%s/../rules/ggml.json", hx_corpus_dir());
  hx_tagcheck(&r, fx->dir, "--list-rules", "--rules", ggml_rules, NULL);
  hx_assert_status(&r, 0);
  for (char *line = r.out; line && *line;) {
    char *sp = strchr(line, ' '), *nl = strchr(line, '\n');
    if (!sp) break;
    char *heading = hx_fmt("\n### %.*s\n", (int)(sp - line), line);
    if (!strstr(doc, heading)) fail_msg("docs/ci.md has no section for %s", heading);
    free(heading);
    /* and --explain shows the rules file's own wrong and fixed example for its rules */
    char *id = hx_fmt("%.*s", (int)(sp - line), line);
    if (strncmp(id, "ggml-", 5) == 0) {
      hx_result ex;
      hx_tagcheck(&ex, fx->dir, "--rules", ggml_rules, "--explain", id, NULL);
      hx_assert_status(&ex, 0);
      hx_assert_out_has(&ex, "Wrong:");
      hx_assert_out_has(&ex, "Fixed:");
      hx_result_free(&ex);
    }
    free(id);
    line = nl ? nl + 1 : NULL;
  }
  hx_result_free(&r);
  /* an example without its fixed version is an error naming the file */
  char *half = hx_write_str(fx->dir, "half-example.json",
                            "{\"tagcheck_rules\": 1, \"api\": \"x\", \"rules\": [{\"id\": \"x-rule\", "
                            "\"name\": \"XRule\", \"short_description\": \"s\", \"example\": \"f();\"}]}\n");
  hx_tagcheck(&r, fx->dir, "--rules", half, "--list-rules", NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "half-example.json:");
  hx_assert_err_has(&r, "example_fix");
  hx_result_free(&r);
  free(half);
  free(ggml_rules);
  free(doc);
  free(ci_md);
  hx_tagcheck(&r, fx->dir, "--explain", "no-such-rule", NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "no-such-rule");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--disable", "backend-mismtach", fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "unknown rule 'backend-mismtach' in --disable");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--enable", "ggml-host-access", fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2); /* a ggml rule, but the ggml rules are not loaded */
  hx_result_free(&r);
  char *cfg = hx_write_str(fx->dir, "typo-config.json", "{\"disable\": [\"kind-mismach\"]}\n");
  hx_tagcheck(&r, fx->dir, "--no-cache", "--config", cfg, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "kind-mismach");
  hx_assert_err_has(&r, "typo-config.json");
  hx_result_free(&r);
  free(cfg);
  cfg = hx_write_str(fx->dir, "twice-config.json",
                     "{\"disable\": [\"shape\"],\n \"disable\": [\"kind-mismatch\"]}\n");
  hx_tagcheck(&r, fx->dir, "--no-cache", "--config", cfg, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "twice-config.json:");
  hx_assert_err_has(&r, "\"disable\" is given twice");
  hx_result_free(&r);
  free(cfg);
  cfg = hx_write_str(fx->dir, "twice-severity.json",
                     "{\"severity\": {\"shape\": \"note\", \"shape\": \"off\"}}\n");
  hx_tagcheck(&r, fx->dir, "--no-cache", "--config", cfg, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "\"shape\" is given twice");
  hx_result_free(&r);
  free(cfg);
  free(inc);
}

/* ---- compiler flags: every flag libclang accepts is kept, the ones it rejects dropped ---- */

static void test_compiler_flags(void **state) {
  fixture *fx = *state;
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  char *src = hx_write_str(fx->dir, "opt.c",
                           "#include <dt/dt.h>\n"
                           "void f(void) {\n"
                           "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
                           "#ifdef __OPTIMIZE__\n"
                           "  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"
                           "#else\n"
                           "  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
                           "#endif\n"
                           "  dt_free(dt_add(a, b));\n"
                           "}\n");
  hx_result r; /* -O2 defines __OPTIMIZE__; gcc's -fconserve-stack is unknown to clang */
  hx_tagcheck(&r, fx->dir, "--no-cache", src, "--", inc, "-O2", "-fconserve-stack", "-Werror",
              "-pedantic-errors", NULL);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "opt.c:9:11: error: dt_add");
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", src, "--", inc, "-O0", NULL);
  hx_assert_status(&r, 0);
  hx_result_free(&r);
  free(src);
  free(inc);
}

/* ---- .tagcheck.json and baselines ---- */

static void test_config_and_baseline_broken(void **state) {
  fixture *fx = *state;
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  char *cfg = hx_write_str(fx->dir, "bad-config.json", "{\n  \"disabel\": [\"kind-mismatch\"]\n}\n");
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "--config", cfg, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "bad-config.json:2:");
  hx_result_free(&r);
  free(cfg);
  cfg = hx_write_str(fx->dir, "trunc-config.json", "{\"severity\": {\"kind-mismatch\": ");
  hx_tagcheck(&r, fx->dir, "--no-cache", "--config", cfg, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "trunc-config.json");
  hx_result_free(&r);
  free(cfg);

  const char *baselines[][2] = {{"base-empty.sarif", ""},
                                {"base-syntax.sarif", "{\"version\": \"2.1.0\", \"runs\": [}"},
                                {"base-not-sarif.sarif", "{\"findings\": []}"},
                                {"base-array.sarif", "[1, 2]"}};
  for (size_t i = 0; i < sizeof baselines / sizeof baselines[0]; i++) {
    char *base = hx_write_str(fx->dir, baselines[i][0], baselines[i][1]);
    hx_tagcheck(&r, fx->dir, "--no-cache", "--baseline", base, fx->bug, "--", inc, NULL);
    hx_assert_status(&r, 2);
    hx_assert_err_has(&r, baselines[i][0]);
    hx_result_free(&r);
    free(base);
  }
  char *missing = hx_fmt("%s/no-baseline.sarif", fx->dir);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--baseline", missing, fx->bug, "--", inc, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "no-baseline.sarif");
  hx_result_free(&r);
  free(missing);
  free(inc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_rules_malformed_json, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rules_empty, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rules_truncated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rules_wrong_shape, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rules_missing_unreadable_directory, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rules_naming_absent_functions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_malformed, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_trailing_garbage, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_empty_truncated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_wrong_shape, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_missing_unreadable_directory, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compdb_thousands_of_entries, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unknown_options, setup, teardown),
      cmocka_unit_test_setup_teardown(test_config_and_baseline_broken, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rule_ids, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compiler_flags, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
