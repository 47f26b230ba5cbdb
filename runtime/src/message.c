/* runtime/src/message.c — formats a tag check's failure from the shared template table
 * (dt/messages.def, the one the analyzer's rules/dt.json must equal), filling the placeholders
 * the same way the analyzer does, and records it with dt__fail. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const k_templates[DT_MSG_COUNT] = {
#define DT_MESSAGE(name, status, key, template) [name] = template,
#include "dt/messages.def"
#undef DT_MESSAGE
};

static const dt_status k_statuses[DT_MSG_COUNT] = {
#define DT_MESSAGE(name, status, key, template) [name] = status,
#include "dt/messages.def"
#undef DT_MESSAGE
};

const char *dt__message_template(dt_message m) {
  return (unsigned)m < DT_MSG_COUNT ? k_templates[m] : "";
}

typedef struct text_buf {
  char *buf;
  size_t len, pos;
} text_buf;

static void put(text_buf *b, const char *s, size_t n) {
  if (b->pos + 1 >= b->len) return;
  size_t room = b->len - b->pos - 1;
  if (n > room) n = room;
  memcpy(b->buf + b->pos, s, n);
  b->pos += n;
  b->buf[b->pos] = '\0';
}

static void put_str(text_buf *b, const char *s) { put(b, s, strlen(s)); }

static void put_device(text_buf *b, dt_device d) {
  char name[64];
  dt_device_name(d, name, sizeof name);
  put_str(b, name);
}

/* "int", "float and int", "bool, float and int" */
static void put_kinds(text_buf *b, const dt_msg_args *a) {
  for (int i = 0; i < a->n_all; i++) {
    if (i) put_str(b, i == a->n_all - 1 ? " and " : ", ");
    put_str(b, dt__kind_name(a->all[i]->kind));
  }
}

static int key_is(const char *key, size_t n, const char *name) {
  return strlen(name) == n && strncmp(key, name, n) == 0;
}

void dt__message_format(dt_message m, const dt_msg_args *a, char *buf, size_t len) {
  text_buf b = {buf, len, 0};
  if (len == 0) return;
  buf[0] = '\0';
  for (const char *p = dt__message_template(m); *p;) {
    const char *end = *p == '{' ? strchr(p, '}') : NULL;
    if (end == NULL) {
      put(&b, p++, 1);
      continue;
    }
    const char *key = p + 1;
    size_t n = (size_t)(end - key);
    char num[16];
    if (key_is(key, n, "expected")) {
      put_device(&b, a->expected);
    } else if (key_is(key, n, "got")) {
      put_device(&b, a->got);
    } else if (key_is(key, n, "expected_inner")) {
      put_device(&b, dt_inner_device(a->expected));
    } else if (key_is(key, n, "got_inner")) {
      put_device(&b, dt_inner_device(a->got));
    } else if (key_is(key, n, "kind")) {
      put_str(&b, dt__kind_name(a->kind));
    } else if (key_is(key, n, "kinds")) {
      put_kinds(&b, a);
    } else if (key_is(key, n, "index")) {
      snprintf(num, sizeof num, "%d", a->index);
      put_str(&b, num);
    } else if (key_is(key, n, "backend")) {
      put_str(&b, a->backend ? a->backend : "?");
    } else if (key_is(key, n, "why")) {
      put_str(&b, a->why ? a->why : "");
    } else {
      put(&b, p, n + 2); /* not a placeholder: kept as written */
    }
    p = end + 1;
  }
}

dt_status dt__fail_message(const dt_site *site, dt_message m, const dt_msg_args *a) {
  char text[512];
  dt__message_format(m, a, text, sizeof text);
  return dt__fail(site, k_statuses[m], "%s", text);
}
