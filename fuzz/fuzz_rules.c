/* fuzz/fuzz_rules.c — libFuzzer harness for the rules loader (tc_rules_load_string): any bytes
 * either load into rules that can be queried and described, or fail with a message that names
 * the file. Never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "report/diag.h"
#include "rules/rules.h"

#define FUZZ_RULES_FILE "fuzz-rules.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  char err[1024];
  err[0] = '\0';
  tc_rules *rules = tc_rules_load_string(text, FUZZ_RULES_FILE, err, sizeof err);
  if (rules == NULL) {
    /* A configuration error must name the file (SPEC §5: exit 2, message naming the file). */
    if (strncmp(err, FUZZ_RULES_FILE, strlen(FUZZ_RULES_FILE)) != 0) abort();
  } else {
    for (size_t i = 0; i < rules->n_fns; i++)
      if (tc_rules_find(rules, rules->fns[i].name) == NULL) abort();
    (void)tc_rules_find(rules, "dt_add");
    (void)tc_rules_backend_by_name(rules, "cpu");
    (void)tc_rules_backend_by_value(rules, 1);
    (void)tc_rules_kind_by_value(rules, 1);
    (void)tc_rules_tag_names(rules);
    tc_report report;
    tc_report_init(&report);
    tc_rules_describe(rules, &report);
    tc_report_free(&report);
    tc_rules_free(rules);
  }
  free(text);
  return 0;
}
