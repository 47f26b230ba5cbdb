/* tests/report/validator_errors.c — reads the SARIF log that `sarif-multitool validate -o`
 * writes and prints how many errors it reports (error-level results and notifications), for
 * validate.sh: the validator's own exit status is 0 even when it finds errors.
 * usage: validator_errors VALIDATOR_LOG.sarif   (exit 2 when the log cannot be read) */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/json_util.h"

static int is_error(const cJSON *item, const char *default_level) {
  const cJSON *level = cJSON_GetObjectItemCaseSensitive(item, "level");
  const char *l = cJSON_IsString(level) ? level->valuestring : default_level;
  return strcmp(l, "error") == 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s VALIDATOR_LOG.sarif\n", argv[0]);
    return 2;
  }
  char err[1024];
  cJSON *log = tc_json_read_file(argv[1], NULL, err, sizeof err);
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(log, "runs");
  if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0) {
    fprintf(stderr, "%s\n", log ? "the validator's log has no runs" : err);
    cJSON_Delete(log);
    return 2;
  }
  long errors = 0;
  const cJSON *run;
  cJSON_ArrayForEach(run, runs) {
    const cJSON *res;
    cJSON_ArrayForEach(res, cJSON_GetObjectItemCaseSensitive(run, "results")) {
      errors += is_error(res, "warning");
    }
    const cJSON *inv;
    cJSON_ArrayForEach(inv, cJSON_GetObjectItemCaseSensitive(run, "invocations")) {
      const char *lists[] = {"toolExecutionNotifications", "toolConfigurationNotifications"};
      for (size_t i = 0; i < 2; i++) {
        const cJSON *n;
        cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(inv, lists[i])) {
          errors += is_error(n, "warning");
        }
      }
    }
  }
  printf("%ld\n", errors);
  cJSON_Delete(log);
  return 0;
}
