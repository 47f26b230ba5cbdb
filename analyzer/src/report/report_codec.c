/* analyzer/src/report/report_codec.c — findings and failures to bytes and back
 * (report/report_codec.h). */
#include "report/report_codec.h"

#include <stdlib.h>
#include <string.h>

static void put_loc(tc_bbuf *b, const tc_loc *l) {
  tc_bb_str(b, l->file);
  tc_bb_u64(b, l->line);
  tc_bb_u64(b, l->col);
  tc_bb_u64(b, l->end_line);
  tc_bb_u64(b, l->end_col);
}

void tc_report_encode(tc_bbuf *b, const tc_report *r, int failures) {
  tc_bb_u64(b, r->n_diags);
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    tc_bb_str(b, d->rule_id);
    tc_bb_u64(b, (uint64_t)d->level);
    put_loc(b, &d->loc);
    tc_bb_str(b, d->operation);
    tc_bb_str(b, d->function);
    tc_bb_str(b, d->message);
    tc_bb_u64(b, d->n_notes);
    for (size_t k = 0; k < d->n_notes; k++) {
      put_loc(b, &d->notes[k].loc);
      tc_bb_str(b, d->notes[k].message);
    }
    tc_bb_u64(b, d->n_fix);
    for (size_t k = 0; k < d->n_fix; k++) {
      put_loc(b, &d->fix[k].range);
      tc_bb_str(b, d->fix[k].with);
      tc_bb_u64(b, d->fix[k].n_sources);
      for (size_t j = 0; j < d->fix[k].n_sources; j++) put_loc(b, &d->fix[k].sources[j]);
    }
  }
  if (!failures) return;
  tc_bb_u64(b, r->n_failures);
  for (size_t i = 0; i < r->n_failures; i++) {
    tc_bb_str(b, r->failures[i].file);
    tc_bb_str(b, r->failures[i].reason);
  }
}

static unsigned get_uint(tc_rd *rd) {
  uint64_t v = tc_rd_u64(rd);
  if (v > 0xffffffffu) rd->bad = 1;
  return (unsigned)v;
}

static int get_loc(tc_rd *rd, tc_loc *l) {
  l->file = tc_rd_strdup(rd);
  l->line = get_uint(rd);
  l->col = get_uint(rd);
  l->end_line = get_uint(rd);
  l->end_col = get_uint(rd);
  return rd->bad ? -1 : 0;
}

/* One pass over the encoding; appends to out only when out is not NULL. */
static void decode_pass(tc_rd *rd, tc_report *out, int failures) {
  uint64_t n = tc_rd_u64(rd);
  for (uint64_t i = 0; i < n && !rd->bad; i++) {
    char *rule = tc_rd_strdup(rd);
    uint64_t level = tc_rd_u64(rd);
    tc_loc loc = {0};
    get_loc(rd, &loc);
    char *op = tc_rd_strdup(rd), *fn = tc_rd_strdup(rd), *msg = tc_rd_strdup(rd);
    if (level > TC_LEVEL_ERROR) rd->bad = 1;
    tc_diag *d = NULL;
    if (out && !rd->bad) d = tc_report_add(out, rule, (tc_level)level, &loc, op, fn, msg);
    free(rule);
    free(loc.file);
    free(op);
    free(fn);
    free(msg);
    uint64_t nn = tc_rd_u64(rd);
    for (uint64_t k = 0; k < nn && !rd->bad; k++) {
      tc_loc nl = {0};
      get_loc(rd, &nl);
      char *nm = tc_rd_strdup(rd);
      if (d && !rd->bad) tc_diag_add_note(d, &nl, nm);
      free(nl.file);
      free(nm);
    }
    uint64_t nx = tc_rd_u64(rd);
    for (uint64_t k = 0; k < nx && !rd->bad; k++) {
      tc_loc range = {0}, sources[TC_FIX_MAX_SOURCES] = {{0}};
      get_loc(rd, &range);
      char *with = tc_rd_strdup(rd);
      uint64_t ns = tc_rd_u64(rd);
      if (ns > TC_FIX_MAX_SOURCES) rd->bad = 1;
      for (uint64_t j = 0; j < ns && !rd->bad; j++) get_loc(rd, &sources[j]);
      if (d && !rd->bad) tc_diag_add_fix(d, &range, with, sources, (size_t)ns);
      free(range.file);
      free(with);
      for (size_t j = 0; j < TC_FIX_MAX_SOURCES; j++) free(sources[j].file);
    }
  }
  if (!failures) return;
  uint64_t nf = tc_rd_u64(rd);
  for (uint64_t i = 0; i < nf && !rd->bad; i++) {
    char *file = tc_rd_strdup(rd), *reason = tc_rd_strdup(rd);
    if (out && !rd->bad) tc_report_add_failure(out, file, reason);
    free(file);
    free(reason);
  }
}

int tc_report_decode(tc_rd *rd, tc_report *out, int failures) {
  tc_rd probe = *rd;
  decode_pass(&probe, NULL, failures);
  if (probe.bad) return -1;
  decode_pass(rd, out, failures);
  return rd->bad ? -1 : 0;
}
