/* runtime/src/error.c — the error model of SPEC §3: thread-local status and message, the
 * process-wide error mode (DT_ON_ERROR / dt_set_error_mode, abort by default), rule ids from
 * dt/rules.def, and dt__fail, which formats "file:line: op: message [rule-id]", records it for
 * the SARIF report, and prints and aborts in abort mode. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "internal.h"

#define DT_MESSAGE_MAX 1536 /* the whole line */
#define DT_TEXT_MAX 768     /* the message text inside it */

static _Thread_local dt_status tl_status = DT_OK;
static _Thread_local char tl_message[DT_MESSAGE_MAX];

/* -1 until decided: the first use reads DT_ON_ERROR unless dt_set_error_mode came first. */
static atomic_int g_error_mode = -1;

static dt_error_mode mode_from_env(void) {
  const char *v = getenv("DT_ON_ERROR");
  if (v != NULL && strcasecmp(v, "return") == 0) return DT_ERRORS_RETURN;
  return DT_ERRORS_ABORT;
}

dt_error_mode dt_get_error_mode(void) {
  int m = atomic_load_explicit(&g_error_mode, memory_order_relaxed);
  if (m < 0) {
    int expected = -1;
    int fresh = (int)mode_from_env();
    /* A concurrent dt_set_error_mode wins over the environment. */
    atomic_compare_exchange_strong(&g_error_mode, &expected, fresh);
    m = atomic_load(&g_error_mode);
  }
  return m == DT_ERRORS_RETURN ? DT_ERRORS_RETURN : DT_ERRORS_ABORT;
}

void dt_set_error_mode(dt_error_mode m) {
  atomic_store(&g_error_mode, m == DT_ERRORS_RETURN ? (int)DT_ERRORS_RETURN : (int)DT_ERRORS_ABORT);
}

dt_status dt_last_status(void) { return tl_status; }

const char *dt_last_error(void) { return tl_message; }

const char *dt_status_rule_id(dt_status s) {
  switch (s) {
    case DT_OK:
      return "ok";
#define DT_RULE(status, id, name, short_description, help) \
  case status:                                             \
    return id;
#include "dt/rules.def"
#undef DT_RULE
  }
  return "unknown";
}

void dt__ok(void) {
  tl_status = DT_OK;
  tl_message[0] = '\0';
}

dt_status dt__fail(const dt_site *site, dt_status status, const char *fmt, ...) {
  char text[DT_TEXT_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);

  const char *op = (site != NULL && site->op != NULL) ? site->op : "dt";
  const char *rule = dt_status_rule_id(status);
  if (site != NULL && site->file != NULL)
    snprintf(tl_message, sizeof tl_message, "%s:%d: %s: %s [%s]", site->file, site->line, op, text,
             rule);
  else
    snprintf(tl_message, sizeof tl_message, "%s: %s [%s]", op, text, rule);
  tl_status = status;

  dt__report_record(site, status, text);

  if (dt_get_error_mode() == DT_ERRORS_ABORT) {
    fprintf(stderr, "%s\n", tl_message);
    fflush(stderr);
    abort();
  }
  return status;
}

const char *dt__kind_name(dt_kind k) {
  switch (k) {
    case DT_FLOAT:
      return "float";
    case DT_INT:
      return "int";
    case DT_BOOL:
      return "bool";
  }
  return "invalid-kind";
}

void dt__tag_string(const dt_tensor *t, char *buf, size_t n) {
  if (n == 0) return;
  if (t == NULL) {
    snprintf(buf, n, "NULL");
    return;
  }
  char dev[64];
  dt_device_name(t->device, dev, sizeof dev);
  snprintf(buf, n, "%s %s", dt__kind_name(t->kind), dev);
}
