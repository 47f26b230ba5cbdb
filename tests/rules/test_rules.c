/* tests/rules/test_rules.c — the rules loader: the bundled rules/dt.json and rules/ggml.json,
 * errors positioned as FILE:LINE:COL for syntax and semantic mistakes, buffer placements,
 * several files merged, and the example of docs/rules.md (so the documentation cannot drift
 * from what the loader accepts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "rules/rules.h"

static const char *k_min_head =
    "{\n"
    "  \"tagcheck_rules\": 1,\n"
    "  \"device_types\": [{\"name\": \"dev\", \"backend_field\": \"b\", \"ordinal_field\": \"o\",\n"
    "                    \"autodiff_field\": \"a\"}],\n"
    "  \"tensor_types\": [\"ten\"],\n"
    "  \"backends\": [{\"name\": \"host\", \"value\": 1}, {\"name\": \"acc\", \"value\": 2}],\n"
    "  \"kinds\": [{\"name\": \"f\", \"value\": 1}, {\"name\": \"i\", \"value\": 2}],\n"
    "  \"rule_ids\": {\"autodiff_nested\": \"autodiff-nested\", \"autodiff_expected\": "
    "\"autodiff-expected\", \"autodiff_inner_backend\": \"autodiff-inner-backend\", "
    "\"backend_mismatch\": \"backend-mismatch\", \"device_mismatch\": \"device-mismatch\", "
    "\"kind_mismatch\": \"kind-mismatch\", \"backend_unavailable\": \"backend-unavailable\"},\n";

/* A minimal valid file whose "functions" object is `fns`. */
static char *with_functions(const char *fns) {
  size_t n = strlen(k_min_head) + strlen(fns) + 64;
  char *s = malloc(n);
  snprintf(s, n, "%s  \"functions\": %s\n}\n", k_min_head, fns);
  return s;
}

static tc_rules *load_text(const char *text, char *err, size_t len) {
  return tc_rules_load_string(text, "t.json", err, len);
}

static void test_bundled_rules(void **state) {
  (void)state;
  char err[512];
  const char *p = TC_DEFAULT_RULES_BUILD;
  tc_rules *r = tc_rules_load(&p, 1, err, sizeof err);
  assert_non_null(r);
  assert_non_null(tc_rules_find(r, "malloc")); /* rules/libc.json, which dt.json includes */
  assert_int_equal(r->n_files, 2);
  assert_int_equal(r->n_backends, 3);
  assert_int_equal(r->n_kinds, 3);
  assert_int_equal(tc_rules_backend_by_value(r, 2), tc_rules_backend_by_name(r, "sim"));
  const tc_api_fn *add = tc_rules_find(r, "dt_add");
  assert_non_null(add);
  assert_int_equal(add->n_checks, 2);
  assert_int_equal(add->checks[0].kind, TC_CHECK_AGREE);
  assert_int_equal(add->result.what, TC_RES_TENSOR);
  const tc_api_fn *twin = tc_rules_find(r, "dt_add_at");
  assert_non_null(twin);
  assert_int_equal(twin->leading_args, 2);
  assert_int_equal(twin->n_checks, 2);
  assert_null(tc_rules_find(r, "dt_no_such_function"));
  assert_non_null(tc_rules_find(r, "malloc"));
  assert_int_equal(tc_rules_find(r, "malloc")->api, 0);
  /* every function of SPEC §3 is described */
  static const char *const spec[] = {
      "dt_cpu", "dt_sim", "dt_cuda", "dt_autodiff", "dt_inner_device", "dt_device_equal",
      "dt_device_name", "dt_backend_available", "dt_zeros", "dt_ones", "dt_full",
      "dt_from_floats", "dt_from_ints", "dt_randn", "dt_free", "dt_device_of", "dt_kind_of",
      "dt_rank", "dt_dim", "dt_numel", "dt_read_floats", "dt_read_ints", "dt_to_device",
      "dt_from_inner", "dt_inner", "dt_require_grad", "dt_detach", "dt_backward", "dt_grad",
      "dt_add", "dt_sub", "dt_mul", "dt_div", "dt_matmul", "dt_add_scalar", "dt_mul_scalar",
      "dt_neg", "dt_exp", "dt_log", "dt_relu", "dt_sigmoid", "dt_tanh", "dt_sum", "dt_mean",
      "dt_sum_dim", "dt_reshape", "dt_transpose", "dt_cat", "dt_greater", "dt_where",
      "dt_mse_loss", "dt_set_error_mode", "dt_last_status", "dt_last_error"};
  for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
    if (!tc_rules_find(r, spec[i])) fail_msg("%s is not described", spec[i]);
  }
  tc_rules_free(r);
}

static void test_syntax_error_position(void **state) {
  (void)state;
  char err[512];
  const char *text = "{\n  \"tagcheck_rules\": 1,\n  \"backends\": [ , ]\n}\n";
  tc_rules *r = load_text(text, err, sizeof err);
  assert_null(r);
  assert_non_null(strstr(err, "t.json:3:"));
  assert_non_null(strstr(err, "invalid JSON"));
  r = load_text("{\"tagcheck_rules\": 1,", err, sizeof err);
  assert_null(r);
  assert_non_null(strstr(err, "t.json:1:"));
}

static void test_unknown_key(void **state) {
  (void)state;
  char err[512];
  char *t = with_functions("{\"f\": {\"params\": 1, \"reslt\": {}}}");
  tc_rules *r = load_text(t, err, sizeof err);
  assert_null(r);
  assert_non_null(strstr(err, "unknown key \"reslt\""));
  /* the line of the offending key: the functions line is the 9th */
  assert_non_null(strstr(err, "t.json:9:"));
  free(t);
}

static void test_semantic_errors(void **state) {
  (void)state;
  char err[512];
  struct {
    const char *fns, *needle;
  } cases[] = {
      {"{\"f\": {\"params\": 2, \"checks\": [{\"check\": \"agree\", \"args\": [0, 2]}]}}",
       "argument indices"},
      {"{\"f\": {\"checks\": [{\"check\": \"kinds\", \"args\": [0], \"accept\": [[\"q\"]]}]}}",
       "unknown kind"},
      {"{\"f\": {\"checks\": [{\"check\": \"kinds\", \"args\": [0, 1], \"accept\": [[\"f\"]]}]}}",
       "row must list 2"},
      {"{\"f\": {\"checks\": [{\"check\": \"agreee\", \"args\": [0, 1]}]}}", "unknown check"},
      {"{\"f\": {\"result\": {\"device\": {\"backend\": \"tpu\", \"ordinal\": 0}}}}",
       "unknown backend \"tpu\""},
      {"{\"f\": {\"result\": {\"tensor\": {\"device_arg\": 0}}}}", "needs \"kind\""},
      {"{\"f\": {\"result\": {\"tensor\": {\"like_arg\": 0}, \"device\": {}}}}",
       "exactly one of"},
      {"{\"f\": {\"params\": 0, \"checks\": [{\"check\": \"autodiff_required\", \"arg\": 0}]}}",
       "takes no parameters"},
      {"{\"f\": {}, \"f\": {}}", "described twice"},
      /* buffers and host memory */
      {"{\"f\": {\"checks\": [{\"check\": \"buffer_set\", \"arg\": 0}]}}",
       "lacks \"buffer_not_set\""},
      {"{\"f\": {\"checks\": [{\"check\": \"host_tensor\", \"arg\": 0}]}}",
       "lacks \"host_access\""},
      /* a host_pointer check needs the rule only where data pointers exist */
      {"{\"f\": {\"checks\": [{\"check\": \"host_pointer\", \"arg\": 0}]}, "
       "\"g\": {\"result\": {\"data_of_tensor_arg\": 0}}}",
       "lacks \"host_access\""},
      {"{\"f\": {\"result\": {\"tensor\": {\"device_like_args\": [1], \"like_arg\": 1}}}}",
       "needs \"context_arg\""},
      {"{\"f\": {\"result\": {\"tensor\": {\"context_arg\": 0, \"device_arg\": 1, "
       "\"kind\": \"f\"}}}}",
       "exactly one of"},
      {"{\"f\": {\"result\": {\"tensor\": {\"backend\": \"tpu\"}}}}", "unknown backend"},
      {"{\"f\": {\"result\": {\"new_object\": {\"placement_arg\": 0, \"field\": \"x\", "
       "\"if_nonzero\": \"host\"}}}}",
       "\"if_zero\""},
      {"{\"f\": {\"result\": {\"new_object\": {\"placement\": \"host\", \"placement_arg\": "
       "0, \"field\": \"x\", \"if_nonzero\": \"host\", \"if_zero\": \"acc\"}}}}",
       "not both"},
      {"{\"f\": {\"result\": {\"new_object\": 3}}}", "true or an object"},
      {"{\"f\": {\"effects\": [{\"bind_context\": {\"device_of_arg\": 1}}]}}",
       "missing \"context_arg\""},
      {"{\"f\": {\"effects\": [{\"record\": {\"object_arg\": 0}}]}}",
       "missing \"tensor_arg\""},
      {"{\"f\": {\"effects\": [{\"bind\": {\"context_arg\": 0}}]}}", "unknown effect"},
      {"{\"f\": {\"effects\": [{\"hold\": {\"arg\": 0}}]}}", "missing \"value_arg\""},
      {"{\"f\": {\"effects\": [{\"new_context\": {\"arg\": 0, \"field\": \"ctx\", "
       "\"placement_field\": \"no_alloc\", \"if_nonzero\": \"host\"}}]}}",
       "\"if_zero\""},
      {"{\"f\": {\"effects\": [{\"new_context\": {\"arg\": 0, \"placement\": \"host\"}}]}}",
       "unknown key \"placement\""},
      /* graphs, lookups, devices chosen at run time */
      {"{\"f\": {\"effects\": [{\"bind_graph\": {\"device_of_arg\": 0}}]}}",
       "missing \"graph_arg\""},
      {"{\"f\": {\"effects\": [{\"bind_graph\": {\"graph_arg\": 0, \"context_arg\": 1}}]}}",
       "unknown key \"context_arg\""},
      {"{\"f\": {\"params\": 1, \"result\": {\"member_of_arg\": 2}}}", "in [0, 0]"},
      {"{\"f\": {\"result\": {\"one_of\": [{\"backend\": \"host\"}]}}}", "2 to 8 devices"},
      {"{\"f\": {\"result\": {\"one_of\": [{\"backend\": \"host\"}, {\"backend\": \"tpu\"}]}}}",
       "unknown backend \"tpu\""},
      {"{\"f\": {\"result\": {\"one_of\": [{}, {\"ordinal_arg\": 0}]}}}",
       "unknown key \"ordinal_arg\""},
      {"{\"f\": {\"result\": {\"one_of_array\": {\"array_arg\": 0}}}}",
       "missing \"count_arg\""},
      /* devices by name */
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [], \"one_of\": [{}, {}]}}}}",
       "1 to 12 patterns"},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [{\"equals\": \"A\", \"prefix\": \"B\", \"backend\": \"host\"}], "
       "\"one_of\": [{}, {}]}}}}",
       "\"equals\" or \"prefix\""},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [{\"equals\": \"A\", \"backend\": \"host\", "
       "\"ordinal_from_suffix\": true}], \"one_of\": [{}, {}]}}}}",
       "needs a \"prefix\""},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [{\"prefix\": \"A\", \"backend\": \"tpu\"}], \"one_of\": [{}, {}]}}}}",
       "unknown backend \"tpu\""},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [{\"prefix\": \"A\", \"backend\": \"host\"}]}}}}",
       "2 to 8 devices"},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 1, "
       "\"names\": [{\"prefix\": \"A\", \"backend\": \"host\"}], \"one_of\": [{}, {}]}}}}",
       "in [0, 0]"},
      {"{\"f\": {\"params\": 1, \"result\": {\"device_by_name\": {\"arg\": 0, "
       "\"names\": [{\"like\": \"A\", \"backend\": \"host\"}], \"one_of\": [{}, {}]}}}}",
       "unknown key \"like\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *t = with_functions(cases[i].fns);
    tc_rules *r = load_text(t, err, sizeof err);
    if (r || !strstr(err, cases[i].needle) || strncmp(err, "t.json:", 7) != 0)
      fail_msg("case %zu: expected an error with '%s', got %s", i, cases[i].needle,
               r ? "success" : err);
    tc_rules_free(r);
    free(t);
  }
}

/* A device chosen by name loads its patterns in order and its fallback devices. */
static void test_device_by_name(void **state) {
  (void)state;
  char err[512];
  char *t = with_functions(
      "{\"by_name\": {\"params\": 2, \"result\": {\"device_by_name\": {\"arg\": 1, "
      "\"names\": [{\"equals\": \"CPU\", \"backend\": \"host\"}, {\"prefix\": \"ACC\", "
      "\"backend\": \"acc\", \"ordinal_from_suffix\": true}], "
      "\"one_of\": [{\"backend\": \"host\"}, {}]}}}}");
  tc_rules *r = load_text(t, err, sizeof err);
  if (!r) fail_msg("%s", err);
  const tc_result_spec *res = &tc_rules_find(r, "by_name")->result;
  assert_int_equal(res->what, TC_RES_DEVICE_BY_NAME);
  assert_int_equal(res->arg, 1);
  assert_int_equal(res->n_names, 2);
  assert_string_equal(res->names[0].text, "CPU");
  assert_int_equal(res->names[0].prefix, 0);
  assert_int_equal(res->names[0].ordinal_from_suffix, 0);
  assert_int_equal(res->names[0].backend, tc_rules_backend_by_name(r, "host"));
  assert_string_equal(res->names[1].text, "ACC");
  assert_int_equal(res->names[1].prefix, 1);
  assert_int_equal(res->names[1].ordinal_from_suffix, 1);
  assert_int_equal(res->names[1].backend, tc_rules_backend_by_name(r, "acc"));
  assert_int_equal(res->n_one_of, 2);
  assert_int_equal(res->one_of_backend[0], tc_rules_backend_by_name(r, "host"));
  assert_int_equal(res->one_of_backend[1], TC_TAGF_UNKNOWN);
  tc_rules_free(r);
  free(t);
}

/* A lookup's result and a device chosen at run time load as described. */
static void test_member_and_one_of(void **state) {
  (void)state;
  char err[512];
  char *t = with_functions(
      "{\"look\": {\"params\": 2, \"result\": {\"member_of_arg\": 0}},"
      " \"first\": {\"params\": 1, \"result\": {\"first_member_of_arg\": 0}},"
      " \"best\": {\"params\": 0, \"result\": {\"one_of\": [{\"backend\": \"acc\", "
      "\"ordinal\": 1}, {}, {\"backend\": \"host\"}]}},"
      " \"alloc\": {\"params\": 2, \"effects\": [{\"bind_graph\": {\"graph_arg\": 1, "
      "\"device_of_arg\": 0}}]},"
      " \"sched\": {\"params\": 3, \"result\": {\"one_of_array\": {\"array_arg\": 0, "
      "\"count_arg\": 2}}}}");
  tc_rules *r = load_text(t, err, sizeof err);
  if (!r) fail_msg("%s", err);
  const tc_api_fn *look = tc_rules_find(r, "look"), *first = tc_rules_find(r, "first");
  assert_int_equal(look->result.what, TC_RES_MEMBER);
  assert_int_equal(look->result.arg, 0);
  assert_int_equal(first->result.what, TC_RES_FIRST_MEMBER);
  assert_int_equal(first->result.arg, 0);
  const tc_api_fn *best = tc_rules_find(r, "best");
  assert_int_equal(best->result.what, TC_RES_ONE_OF);
  assert_int_equal(best->result.n_one_of, 3);
  assert_int_equal(best->result.one_of_backend[0], tc_rules_backend_by_name(r, "acc"));
  assert_int_equal(best->result.one_of_ordinal[0], 1);
  assert_int_equal(best->result.one_of_backend[1], TC_TAGF_UNKNOWN);
  assert_int_equal(best->result.one_of_ordinal[2], TC_TAGF_UNKNOWN);
  const tc_api_fn *alloc = tc_rules_find(r, "alloc");
  assert_int_equal(alloc->n_effects, 1);
  assert_int_equal(alloc->effects[0].kind, TC_EFFECT_BIND_GRAPH);
  assert_int_equal(alloc->effects[0].arg, 1);
  assert_int_equal(alloc->effects[0].arg2, 0);
  const tc_api_fn *sched = tc_rules_find(r, "sched");
  assert_int_equal(sched->result.what, TC_RES_ONE_OF_ARRAY);
  assert_int_equal(sched->result.arg, 0);
  assert_int_equal(sched->result.arg2, 2);
  tc_rules_free(r);
  free(t);
}

static void test_rule_ids(void **state) {
  (void)state;
  char err[512];
  /* a rule id neither built in nor described */
  char *t = with_functions("{}");
  char *p = strstr(t, "\"device-mismatch\"");
  char *u = malloc(strlen(t) + 16);
  snprintf(u, strlen(t) + 16, "%.*s\"wrong-lane\"%s", (int)(p - t), t, p + strlen("\"device-mismatch\""));
  tc_rules *r = load_text(u, err, sizeof err);
  assert_null(r);
  assert_non_null(strstr(err, "wrong-lane"));
  /* described in "rules": accepted, and reported as metadata */
  char *v = malloc(strlen(u) + 256);
  snprintf(v, strlen(u) + 256,
           "{\"rules\": [{\"id\": \"wrong-lane\", \"name\": \"WrongLane\", \"short_description\": "
           "\"lanes differ\"}],%s",
           u + 1);
  r = load_text(v, err, sizeof err);
  if (!r) fail_msg("%s", err);
  tc_report rep;
  tc_report_init(&rep);
  tc_rules_describe(r, &rep);
  int found = 0;
  for (size_t i = 0; i < rep.n_rules; i++)
    if (strcmp(rep.rules[i].id, "wrong-lane") == 0) found = 1;
  assert_true(found);
  tc_report_free(&rep);
  tc_rules_free(r);
  free(t);
  free(u);
  free(v);
}

/* A placement with no memory cannot be host memory; one with no buffer needs no enum value. */
static void test_backend_memory(void **state) {
  (void)state;
  char err[512];
  char *t = with_functions("{}");
  const char *old = "{\"name\": \"acc\", \"value\": 2}";
  char *at = strstr(t, old);
  assert_non_null(at);
  const char *repl[] = {
      "{\"name\": \"acc\", \"value\": 2}, {\"name\": \"none\", \"allocated\": false}, "
      "{\"name\": \"ctx\", \"has_buffer\": false, \"host_memory\": true}",
      "{\"name\": \"acc\", \"value\": 2}, {\"name\": \"none\", \"allocated\": false, "
      "\"host_memory\": true}",
      "{\"name\": \"acc\", \"value\": 2}, {\"name\": \"gpu\", \"host_memory\": true}"};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(t) + strlen(repl[k]) + 1;
    char *u = malloc(n);
    snprintf(u, n, "%.*s%s%s", (int)(at - t), t, repl[k], at + strlen(old));
    tc_rules *r = load_text(u, err, sizeof err);
    if (k == 0) {
      if (!r) fail_msg("%s", err);
      int none = tc_rules_backend_by_name(r, "none"), ctx = tc_rules_backend_by_name(r, "ctx");
      assert_true(none >= 0 && ctx >= 0);
      assert_true(r->backends[none].no_memory && r->backends[none].no_buffer);
      assert_false(r->backends[none].host_memory);
      assert_true(r->backends[ctx].no_buffer && r->backends[ctx].host_memory);
      assert_false(r->backends[ctx].no_memory);
      assert_int_not_equal(r->backends[none].value, r->backends[ctx].value);
    } else {
      assert_null(r);
      assert_non_null(strstr(err, k == 1 ? "no memory" : "needs an integer \"value\""));
    }
    tc_rules_free(r);
    free(u);
  }
  free(t);
}

/* "noreturn": the functions that end a path, data of the rules — the C library's list comes
   with any API (rules/libc.json under dt.json and ggml.json); a file may add names; anything but
   an array of names is an error at its key. */
static void test_noreturn(void **state) {
  (void)state;
  char err[512];
  const char *api[] = {TC_TEST_SOURCE_DIR "/rules/dt.json", TC_TEST_SOURCE_DIR "/rules/ggml.json"};
  for (size_t i = 0; i < 2; i++) {
    tc_rules *r = tc_rules_load(&api[i], 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    assert_true(tc_rules_is_noreturn(r, "abort"));
    assert_true(tc_rules_is_noreturn(r, "__assert_rtn"));
    assert_false(tc_rules_is_noreturn(r, "malloc"));
    assert_false(tc_rules_is_noreturn(r, "dt_add"));
    tc_rules_free(r);
  }
  size_t n = strlen(k_min_head) + 128;
  char *text = malloc(n);
  snprintf(text, n, "%s  \"noreturn\": [\"fatal\"],\n  \"functions\": {}\n}\n", k_min_head);
  tc_rules *r = load_text(text, err, sizeof err);
  if (!r) fail_msg("%s", err);
  assert_true(tc_rules_is_noreturn(r, "fatal"));
  assert_false(tc_rules_is_noreturn(r, "abort")); /* this file includes no libc.json */
  tc_rules_free(r);
  snprintf(text, n, "%s  \"noreturn\": \"fatal\",\n  \"functions\": {}\n}\n", k_min_head);
  assert_null(load_text(text, err, sizeof err));
  assert_non_null(strstr(err, "\"noreturn\" must be an array of function names"));
  assert_int_equal(strncmp(err, "t.json:", 7), 0);
  free(text);
}

/* rules/ggml.json: the buffer vocabulary is what the file says it is. */
static void test_ggml_rules(void **state) {
  (void)state;
  char err[512];
  const char *p = TC_TEST_SOURCE_DIR "/rules/ggml.json";
  tc_rules *r = tc_rules_load(&p, 1, err, sizeof err);
  if (!r) fail_msg("%s", err);
  assert_string_equal(r->data_field, "data");
  assert_string_equal(r->buffer_field, "buffer");
  assert_string_equal(r->kind_field, "type");
  assert_string_equal(r->rule_ids[TC_RULE_HOST_ACCESS], "ggml-host-access");
  assert_string_equal(r->rule_ids[TC_RULE_BUFFER_NOT_SET], "ggml-buffer-not-set");
  const tc_api_fn *init = tc_rules_find(r, "ggml_init");
  assert_int_equal(init->result.what, TC_RES_NEW_OBJECT);
  assert_string_equal(init->result.placement_field, "no_alloc");
  assert_true(r->backends[init->result.placement_nonzero].no_memory);
  assert_true(r->backends[init->result.placement_zero].host_memory);
  const tc_api_fn *alloc = tc_rules_find(r, "ggml_backend_alloc_ctx_tensors");
  assert_int_equal(alloc->n_effects, 1);
  assert_int_equal(alloc->effects[0].kind, TC_EFFECT_BIND_CONTEXT);
  /* gguf_init_from_file(fname, params) stores a context through params.ctx */
  const tc_api_fn *gguf = tc_rules_find(r, "gguf_init_from_file");
  assert_int_equal(gguf->n_effects, 1);
  assert_int_equal(gguf->effects[0].kind, TC_EFFECT_NEW_CONTEXT);
  assert_int_equal(gguf->effects[0].arg, 1);
  assert_string_equal(gguf->effects[0].field, "ctx");
  assert_string_equal(gguf->effects[0].placement_field, "no_alloc");
  assert_true(r->backends[gguf->effects[0].placement_nonzero].no_memory);
  assert_true(r->backends[gguf->effects[0].placement_zero].host_memory);
  const tc_api_fn *set = tc_rules_find(r, "ggml_backend_tensor_set");
  assert_int_equal(set->n_checks, 2);
  assert_int_equal(set->checks[0].kind, TC_CHECK_BUFFER_SET);
  assert_int_equal(set->checks[1].kind, TC_CHECK_HOST_POINTER);
  assert_int_equal(set->checks[1].arg, 1);
  assert_int_equal(tc_rules_find(r, "ggml_backend_buffer_is_host")->result.what, TC_RES_IS_HOST);
  assert_int_equal(tc_rules_find(r, "ggml_get_data")->result.what, TC_RES_DATA_OF);
  const tc_api_fn *add = tc_rules_find(r, "ggml_add");
  assert_int_equal(add->result.context_arg, 0);
  assert_int_equal(add->result.n_device_like, 2);
  tc_rules_free(r);
}

/* rules/ggml.json: single-tensor placement, allocator structs, device-type handles, host
   accessors and the op family parse to what they say. */
static void test_ggml_placement_rules(void **state) {
  (void)state;
  char err[512];
  const char *p = TC_TEST_SOURCE_DIR "/rules/ggml.json";
  tc_rules *r = tc_rules_load(&p, 1, err, sizeof err);
  if (!r) fail_msg("%s", err);
  const tc_api_fn *talloc = tc_rules_find(r, "ggml_tallocr_alloc");
  assert_int_equal(talloc->n_effects, 1);
  assert_int_equal(talloc->effects[0].kind, TC_EFFECT_PLACE);
  assert_int_equal(talloc->effects[0].arg2, 1); /* the tensor */
  assert_int_equal(talloc->effects[0].arg, 0);  /* the allocator's handle */
  assert_int_equal(tc_rules_find(r, "ggml_backend_view_init")->effects[0].arg, -1);
  const tc_api_fn *tnew = tc_rules_find(r, "ggml_tallocr_new");
  assert_int_equal(tnew->result.what, TC_RES_RECORDS);
  assert_int_equal(tnew->result.arg, 0);
  const tc_api_fn *by_type = tc_rules_find(r, "ggml_backend_dev_by_type");
  assert_int_equal(by_type->result.what, TC_RES_TENSOR);
  assert_true(by_type->result.fixed_device);
  assert_int_equal(by_type->result.backend_arg, 0);
  assert_int_equal(tc_rules_find(r, "ggml_backend_cuda_init")->result.backend_arg, -1);
  const tc_api_fn *set = tc_rules_find(r, "ggml_set_f32");
  assert_int_equal(set->checks[0].kind, TC_CHECK_HOST_TENSOR);
  assert_int_equal(r->backends[tc_rules_backend_by_value(r, 3)].value, 3); /* ACCEL */
  assert_true(tc_rules_backend_by_value(r, 2) < 0);                          /* IGPU: unknown */
  assert_int_equal(r->n_families, 1);
  assert_int_equal(r->families[0].context_param, 0);
  assert_string_equal(r->families[0].context_type, "ggml_context");
  assert_string_equal(r->families[0].returns, "ggml_tensor");
  assert_null(tc_rules_find(r, "ggml_sqr")); /* a family member, not a named function */
  tc_rules_free(r);
}

/* A malformed family or place effect is an error naming what is wrong. */
static void test_family_errors(void **state) {
  (void)state;
  char err[512];
  static const char *const bad[][2] = {
      {"\"function_families\": {}", "must be an array"},
      {"\"function_families\": [{\"context_type\": \"ctx\"}]", "returns"},
      {"\"function_families\": [{\"context_type\": \"ctx\", \"returns\": \"t\", "
       "\"extra\": 1}]",
       "extra"},
      {"\"functions\": {\"f\": {\"params\": 1, \"effects\": [{\"place\": "
       "{\"device_of_arg\": 0}}]}}",
       "tensor_arg"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"tagcheck_rules\": 1, \"tensor_types\": [\"t\"], %s}", bad[k][0]);
    tc_rules *r = load_text(text, err, sizeof err);
    assert_null(r);
    if (!strstr(err, bad[k][1])) fail_msg("case %zu: %s", k, err);
  }
}

static void test_missing_file(void **state) {
  (void)state;
  char err[512];
  const char *p = "/nonexistent/rules.json";
  assert_null(tc_rules_load(&p, 1, err, sizeof err));
  assert_non_null(strstr(err, "/nonexistent/rules.json"));
}

static void test_merge_files(void **state) {
  (void)state;
  char err[512];
  char *base = with_functions("{\"f\": {\"result\": {\"tensor\": {\"like_arg\": 0}}}}");
  const char *extra =
      "{\"tagcheck_rules\": 1, \"backends\": [{\"name\": \"npu\", \"value\": 7}],\n"
      " \"functions\": {\"f\": {\"params\": 1}, \"g\": {\"result\": {\"device\": "
      "{\"backend\": \"npu\", \"ordinal\": 0}}}}}\n";
  char *p1 = eh_write_temp("base.json", base);
  char *p2 = eh_write_temp("extra.json", extra);
  const char *paths[2] = {p1, p2};
  tc_rules *r = tc_rules_load(paths, 2, err, sizeof err);
  if (!r) fail_msg("%s", err);
  assert_int_equal(r->n_backends, 3);
  assert_int_equal(tc_rules_find(r, "f")->result.what, TC_RES_NONE); /* overridden */
  assert_int_equal(tc_rules_find(r, "g")->result.backend, tc_rules_backend_by_name(r, "npu"));
  tc_rules_free(r);
  /* a conflicting backend value names the second file */
  const char *bad = "{\"tagcheck_rules\": 1, \"backends\": [{\"name\": \"acc\", \"value\": 9}]}";
  char *p3 = eh_write_temp("bad.json", bad);
  paths[1] = p3;
  assert_null(tc_rules_load(paths, 2, err, sizeof err));
  assert_non_null(strstr(err, "bad.json:1:"));
  eh_remove(p1);
  eh_remove(p2);
  eh_remove(p3);
  free(base);
}

/* A rules file layered on another ("include", relative to its folder, each file loaded once),
   a description that "extends" the one below it, and rule slots and device types required only
   where a check in use needs them. */
static void test_layers(void **state) {
  (void)state;
  char err[512];
  const char *layer =
      "{\"tagcheck_rules\": 1, \"library_functions\": {\"cp\": {\"params\": 3, \"effects\": "
      "[{\"copy\": {\"to_arg\": 0, \"from_arg\": 1}}], \"result\": {\"same_as_arg\": 0}}}}\n";
  char *pl = eh_write_temp("layer.json", layer); /* in a folder of its own: named absolute */
  char api[1024];
  snprintf(api, sizeof api,
           "{\"tagcheck_rules\": 1, \"include\": [\"%s\", \"%s\"],\n"
           " \"tensor_types\": [\"ten\"], \"tensor_fields\": {\"data\": \"data\"},\n"
           " \"backends\": [{\"name\": \"host\", \"value\": 1}], \"kinds\": [{\"name\": \"f\", "
           "\"value\": 1}],\n"
           " \"rule_ids\": {\"kind_mismatch\": \"kind-mismatch\", \"host_access\": "
           "\"backend-mismatch\"},\n"
           " \"functions\": {\"cp\": {\"extends\": true, \"checks\": [{\"check\": \"host_pointer\", "
           "\"arg\": 0}]},\n"
           "  \"k\": {\"params\": 1, \"checks\": [{\"check\": \"kinds\", \"args\": [0], \"accept\": "
           "[[\"f\"]]}]}}}\n",
           pl, pl);
  char *pa = eh_write_temp("api.json", api);
  const char *paths[2] = {pa, pl};
  tc_rules *r = tc_rules_load(paths, 2, err, sizeof err);
  if (!r) fail_msg("%s", err);
  assert_int_equal(r->n_files, 2); /* the layer once, though named three times */
  assert_int_equal(r->n_device_types, 0);
  const tc_api_fn *cp = tc_rules_find(r, "cp");
  assert_non_null(cp);
  assert_int_equal(cp->api, 1);
  assert_int_equal(cp->n_params, 3);
  assert_int_equal(cp->n_checks, 1);
  assert_int_equal(cp->checks[0].kind, TC_CHECK_HOST_POINTER);
  assert_int_equal(cp->n_effects, 1);
  assert_int_equal(cp->effects[0].kind, TC_EFFECT_COPY);
  assert_int_equal(cp->result.what, TC_RES_SAME_AS_ARG);
  assert_null(r->rule_ids[TC_RULE_AUTODIFF_NESTED]);
  tc_rules_free(r);
  /* extending what nothing below describes */
  char *alone = with_functions("{\"cp\": {\"extends\": true}}");
  assert_null(load_text(alone, err, sizeof err));
  assert_non_null(strstr(err, "\"extends\": no description of \"cp\""));
  /* a check that reads devices needs device types; one that can fail with autodiff-nested
     needs its rule id */
  const char *wraps =
      "{\"tagcheck_rules\": 1, \"tensor_types\": [\"ten\"],\n"
      " \"backends\": [{\"name\": \"host\", \"value\": 1}], \"kinds\": [{\"name\": \"f\", "
      "\"value\": 1}],\n"
      " \"functions\": {\"w\": {\"params\": 2, \"checks\": [{\"check\": \"wraps\", "
      "\"tensor_arg\": 0, \"device_arg\": 1}]}}}\n";
  assert_null(load_text(wraps, err, sizeof err));
  assert_non_null(strstr(err, "no device_types"));
  char *wraps_dev = with_functions(
      "{\"w\": {\"params\": 2, \"checks\": [{\"check\": \"wraps\", \"tensor_arg\": 0, "
      "\"device_arg\": 1}]}}");
  char *no_nested = strstr(wraps_dev, "\"autodiff_nested\": \"autodiff-nested\", ");
  assert_non_null(no_nested);
  memmove(no_nested, no_nested + strlen("\"autodiff_nested\": \"autodiff-nested\", "),
          strlen(no_nested + strlen("\"autodiff_nested\": \"autodiff-nested\", ")) + 1);
  assert_null(load_text(wraps_dev, err, sizeof err));
  assert_non_null(strstr(err, "lacks \"autodiff_nested\""));
  eh_remove(pa);
  eh_remove(pl);
  free(alone);
  free(wraps_dev);
}

/* The last ```json block of docs/rules.md is a complete rules file. */
static void test_docs_example(void **state) {
  (void)state;
  FILE *f = fopen(TC_TEST_SOURCE_DIR "/docs/rules.md", "r");
  assert_non_null(f);
  size_t cap = 1 << 16;
  char *doc = malloc(cap);
  assert_non_null(doc);
  size_t n = fread(doc, 1, cap - 1, f);
  fclose(f);
  doc[n] = '\0';
  char *start = NULL;
  for (char *p = strstr(doc, "```json\n"); p; p = strstr(p + 1, "```json\n")) start = p + 8;
  assert_non_null(start);
  char *end = strstr(start, "```");
  assert_non_null(end);
  *end = '\0';
  char err[512];
  tc_rules *r = tc_rules_load_string(start, "rules.md", err, sizeof err);
  if (!r) fail_msg("docs/rules.md example: %s", err);
  assert_non_null(tc_rules_find(r, "nt_dot"));
  assert_non_null(tc_rules_find(r, "nt_gpu"));
  tc_rules_free(r);
  free(doc);
}


/* "fixes" (docs/rules.md): parsed with their keys, and every mistake named with its position. */
static char *with_fixes_for(const char *fixes, const char *fns) {
  size_t n = strlen(k_min_head) + strlen(fixes) + strlen(fns) + 64;
  char *s = malloc(n);
  snprintf(s, n, "%s  \"fixes\": %s,\n  \"functions\": %s\n}\n", k_min_head, fixes, fns);
  return s;
}

static char *with_fixes(const char *fixes) { return with_fixes_for(fixes, "{}"); }

static void test_fixes(void **state) {
  (void)state;
  char err[512];
  char *text = with_fixes(
      "[{\"check\": \"agree\", \"failures\": [\"backend\", \"device\"], \"on_warnings\": true,\n"
      "   \"with\": \"move({got}, of({expected}))\"},\n"
      "  {\"check\": \"same_autodiff\", \"failures\": [\"autodiff_move\"], \"replace\": \"call\",\n"
      "   \"when_got\": \"plain\", \"with\": \"wrap({expected}, {got})\"}]");
  tc_rules *r = load_text(text, err, sizeof err);
  free(text);
  if (!r) fail_msg("%s", err);
  assert_int_equal(r->n_fixes, 2);
  assert_int_equal(r->fixes[0].check, TC_CHECK_AGREE);
  assert_int_equal(r->fixes[0].failures, (1u << TC_MSG_BACKEND) | (1u << TC_MSG_DEVICE));
  assert_true(r->fixes[0].on_warnings);
  assert_false(r->fixes[0].replace_call);
  assert_int_equal(r->fixes[0].when_got, -1);
  assert_int_equal(r->fixes[1].check, TC_CHECK_SAME_AUTODIFF);
  assert_true(r->fixes[1].replace_call);
  assert_int_equal(r->fixes[1].when_got, 0);
  assert_false(r->fixes[1].on_warnings);
  assert_string_equal(r->fixes[1].with, "wrap({expected}, {got})");
  tc_rules_free(r);

  struct {
    const char *fixes, *needle;
  } bad[] = {
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f({gto})\"}]",
       "unknown placeholder"},
      {"[{\"check\": \"agree\", \"failures\": [\"backnd\"], \"with\": \"f({got})\"}]",
       "unknown failure \"backnd\""},
      {"[{\"check\": \"agre\", \"failures\": [\"backend\"], \"with\": \"f({got})\"}]",
       "unknown check \"agre\""},
      {"[{\"check\": \"agree\", \"failures\": [], \"with\": \"f({got})\"}]", "non-empty array"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"]}]", "needs a string \"with\""},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", \"replace\": \"all\"}]",
       "\"replace\" must be"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", \"when_got\": \"yes\"}]",
       "\"plain\" or \"autodiff\""},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", \"fix\": 1}]",
       "unknown key \"fix\""},
      {"{\"check\": \"agree\"}", "must be an array"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *t = with_fixes(bad[i].fixes);
    tc_rules *x = load_text(t, err, sizeof err);
    free(t);
    if (x) fail_msg("case %zu loaded", i);
    if (!strstr(err, bad[i].needle) || strncmp(err, "t.json:", 7) != 0)
      fail_msg("case %zu: %s", i, err);
  }

  /* the bundled rules fix transfers */
  const char *p = TC_DEFAULT_RULES_BUILD;
  r = tc_rules_load(&p, 1, err, sizeof err);
  assert_non_null(r);
  int transfer = 0;
  for (size_t i = 0; i < r->n_fixes; i++)
    transfer |= r->fixes[i].check == TC_CHECK_AGREE &&
                (r->fixes[i].failures >> TC_MSG_BACKEND & 1u) && r->fixes[i].on_warnings;
  assert_true(transfer);
  tc_rules_free(r);
}

/* A fix limited to calls of some functions, one offending argument and calls whose value is
   unused, reading arguments by position and the handle of `t->data`; the placeholders are
   recognized exactly, and a fix naming a function no file describes (or one without a check of
   its kind) is an error naming the file. */
static void test_fix_targets(void **state) {
  (void)state;
  char err[512];
  const char *fns = "{\"add\": {\"params\": 3, \"checks\": [{\"check\": \"agree\", "
                    "\"args\": [0, 1]}]}, \"plain\": {\"params\": 1}}";
  char *text = with_fixes_for(
      "[{\"check\": \"agree\", \"failures\": [\"backend\"], \"functions\": [\"add\"],\n"
      "   \"arg\": 1, \"replace\": \"call\", \"result_unused\": true,\n"
      "   \"with\": \"set({got_handle}, {arg0}, {arg2}, {got}, {expected})\"}]",
      fns);
  tc_rules *r = load_text(text, err, sizeof err);
  free(text);
  if (!r) fail_msg("%s", err);
  assert_int_equal(r->n_fixes, 1);
  assert_int_equal(r->fixes[0].got_arg, 1);
  assert_true(r->fixes[0].result_unused);
  assert_int_equal(r->fixes[0].n_functions, 1);
  assert_true(tc_fix_applies_to(&r->fixes[0], "add"));
  assert_false(tc_fix_applies_to(&r->fixes[0], "plain"));
  assert_false(tc_fix_applies_to(&r->fixes[0], NULL));
  tc_rules_free(r);

  struct {
    const char *p;
    tc_fix_placeholder_kind kind;
    size_t len;
    int arg;
  } ph[] = {{"{got})", TC_FIX_GOT, 5, -1},          {"{expected}", TC_FIX_EXPECTED, 10, -1},
            {"{got_handle}", TC_FIX_GOT_HANDLE, 12, -1}, {"{arg0}", TC_FIX_ARG, 6, 0},
            {"{arg12}, x", TC_FIX_ARG, 7, 12},       {"{arg99}", TC_FIX_ARG, 7, 99},
            {"{arg1234}", TC_FIX_NOT_PLACEHOLDER, 0, -1}, {"{arg}", TC_FIX_NOT_PLACEHOLDER, 0, -1},
            {"{arg01}", TC_FIX_NOT_PLACEHOLDER, 0, -1}, {"{arg1", TC_FIX_NOT_PLACEHOLDER, 0, -1},
            {"{argx}", TC_FIX_NOT_PLACEHOLDER, 0, -1}, {"{got_handl}", TC_FIX_NOT_PLACEHOLDER, 0, -1}};
  for (size_t i = 0; i < sizeof ph / sizeof ph[0]; i++) {
    size_t len = 0;
    int arg = 99;
    tc_fix_placeholder_kind k = tc_fix_placeholder(ph[i].p, &len, &arg);
    if (k != ph[i].kind || (k && (len != ph[i].len || arg != ph[i].arg)))
      fail_msg("placeholder %s: kind %d len %zu arg %d", ph[i].p, (int)k, len, arg);
  }

  struct {
    const char *fixes, *needle;
  } bad[] = {
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f({arg})\"}]",
       "unknown placeholder"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", "
       "\"functions\": []}]",
       "non-empty array of function names"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", "
       "\"functions\": [\"add\", 3]}]",
       "non-empty array of function names"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", \"arg\": -1}]",
       "\"arg\" must be an integer"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", "
       "\"result_unused\": 1}]",
       "\"result_unused\" must be true or false"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", "
       "\"functions\": [\"nope\"]}]",
       "a fix names function \"nope\", which no loaded rules file describes"},
      {"[{\"check\": \"agree\", \"failures\": [\"backend\"], \"with\": \"f\", "
       "\"functions\": [\"plain\"]}]",
       "a fix names function \"plain\", which has no check of the fix's kind"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *t = with_fixes_for(bad[i].fixes, fns);
    tc_rules *x = load_text(t, err, sizeof err);
    free(t);
    if (x) fail_msg("case %zu loaded", i);
    if (!strstr(err, bad[i].needle) || strncmp(err, "t.json:", 7) != 0)
      fail_msg("case %zu: %s", i, err);
  }
}

/* load_arg: the argument index is read and range-checked like same_as_arg's; and the check
   rule slots the engine's run_checks reads name the rules each check fails with */
static void test_load_arg_result(void **state) {
  (void)state;
  char err[512];
  char *ok = with_functions("{\"exchange\": {\"params\": 2, \"result\": {\"load_arg\": 0}, "
                            "\"effects\": [{\"copy\": {\"to_arg\": 0, \"from_arg\": 1}}]}}");
  tc_rules *r = load_text(ok, err, sizeof err);
  if (!r) fail_msg("%s", err);
  const tc_api_fn *f = tc_rules_find(r, "exchange");
  assert_non_null(f);
  assert_int_equal(f->result.what, TC_RES_LOAD_ARG);
  assert_int_equal(f->result.arg, 0);
  tc_rules_free(r);
  free(ok);
  char *bad = with_functions("{\"exchange\": {\"params\": 2, \"result\": {\"load_arg\": 5}}}");
  assert_null(load_text(bad, err, sizeof err));
  free(bad);
  assert_int_equal(tc_check_rule_slots(TC_CHECK_KINDS), TC_RULE_BIT(KIND_MISMATCH));
  assert_int_equal(tc_check_rule_slots(TC_CHECK_HOST_POINTER), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_load_arg_result),
      cmocka_unit_test(test_bundled_rules),   cmocka_unit_test(test_syntax_error_position),
      cmocka_unit_test(test_unknown_key),     cmocka_unit_test(test_semantic_errors),
      cmocka_unit_test(test_member_and_one_of),
      cmocka_unit_test(test_device_by_name),
      cmocka_unit_test(test_rule_ids),        cmocka_unit_test(test_missing_file),
      cmocka_unit_test(test_merge_files),     cmocka_unit_test(test_docs_example),
      cmocka_unit_test(test_backend_memory),  cmocka_unit_test(test_ggml_rules),
      cmocka_unit_test(test_noreturn),
      cmocka_unit_test(test_fixes),           cmocka_unit_test(test_fix_targets),
      cmocka_unit_test(test_layers),
      cmocka_unit_test(test_ggml_placement_rules), cmocka_unit_test(test_family_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
