/* analyzer/src/tag.c — the tag lattice: joins, comparisons and spellings of device/tensor
 * tags (see tag.h). */
#include "tag.h"

#include <stdio.h>

tc_tag tc_tag_unknown(void) {
  tc_tag t = {TC_TAGF_UNKNOWN, TC_TAGF_UNKNOWN, TC_TAGF_UNKNOWN, TC_TAGF_UNKNOWN};
  return t;
}

static int32_t join_field(int32_t a, int32_t b) { return a == b ? a : TC_TAGF_UNKNOWN; }

tc_tag tc_tag_join(tc_tag a, tc_tag b) {
  tc_tag t;
  t.backend = join_field(a.backend, b.backend);
  t.ordinal = join_field(a.ordinal, b.ordinal);
  t.autodiff = join_field(a.autodiff, b.autodiff);
  t.kind = join_field(a.kind, b.kind);
  return t;
}

int tc_tag_same(tc_tag a, tc_tag b) {
  return a.backend == b.backend && a.ordinal == b.ordinal && a.autodiff == b.autodiff &&
         a.kind == b.kind;
}

tc_tri tc_tagf_equal(int32_t a, int32_t b) {
  if (TC_TAGF_KNOWN(a) && TC_TAGF_KNOWN(b)) return a == b ? TC_TRI_YES : TC_TRI_NO;
  if (TC_TAGF_IS_SYM(a) && a == b) return TC_TRI_YES;
  return TC_TRI_UNKNOWN;
}

int tc_tag_device_known(const tc_tag *t) {
  return TC_TAGF_KNOWN(t->backend) && TC_TAGF_KNOWN(t->ordinal) && TC_TAGF_KNOWN(t->autodiff);
}

static const char *backend_name(const tc_tag *t, const tc_tag_names *n) {
  if (TC_TAGF_KNOWN(t->backend) && n && (size_t)t->backend < n->n_backends)
    return n->backends[t->backend];
  return "?";
}

const char *tc_tag_format_inner(const tc_tag *t, const tc_tag_names *n, char *buf, size_t len) {
  const char *b = backend_name(t, n);
  int single = TC_TAGF_KNOWN(t->backend) && n && n->single_device &&
               (size_t)t->backend < n->n_backends && n->single_device[t->backend];
  if (single || (!TC_TAGF_KNOWN(t->backend) && !TC_TAGF_KNOWN(t->ordinal)))
    snprintf(buf, len, "%s", b);
  else if (TC_TAGF_KNOWN(t->ordinal))
    snprintf(buf, len, "%s:%d", b, (int)t->ordinal);
  else
    snprintf(buf, len, "%s:?", b);
  return buf;
}

const char *tc_tag_format_device(const tc_tag *t, const tc_tag_names *n, char *buf, size_t len) {
  char inner[96];
  tc_tag_format_inner(t, n, inner, sizeof inner);
  if (t->autodiff == 1)
    snprintf(buf, len, "autodiff<%s>", inner);
  else if (t->autodiff == 0)
    snprintf(buf, len, "%s", inner);
  else
    snprintf(buf, len, "%s (autodiff?)", inner);
  return buf;
}

const char *tc_tag_kind_name(const tc_tag *t, const tc_tag_names *n) {
  if (TC_TAGF_KNOWN(t->kind) && n && (size_t)t->kind < n->n_kinds) return n->kinds[t->kind];
  return "?";
}
