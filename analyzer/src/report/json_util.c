/* analyzer/src/report/json_util.c — the cJSON helpers of json_util.h. */
#include "report/json_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/utf8.h"

cJSON *tc_json_text(const char *s) {
  if (!s) s = "";
  char *clean = tc_utf8_sanitize(s, strlen(s));
  if (!clean) return NULL;
  cJSON *item = cJSON_CreateString(clean);
  free(clean);
  return item;
}

cJSON *tc_json_add_text(cJSON *obj, const char *key, const char *s) {
  cJSON *item = tc_json_text(s);
  if (!item) return NULL;
  if (!cJSON_AddItemToObject(obj, key, item)) {
    cJSON_Delete(item);
    return NULL;
  }
  return item;
}

cJSON *tc_json_add_message(cJSON *obj, const char *key, const char *s) {
  cJSON *m = cJSON_AddObjectToObject(obj, key);
  if (m) tc_json_add_text(m, "text", s);
  return m;
}

int tc_json_write(const cJSON *item, FILE *out) {
  char *s = cJSON_Print(item);
  if (!s) return -1;
  int rc = fputs(s, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
  cJSON_free(s);
  if (fflush(out) != 0 || ferror(out)) rc = -1;
  return rc;
}



