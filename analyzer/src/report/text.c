/* analyzer/src/report/text.c — the default, clang-style text report: one line per finding
 * ("file:line:col: error: message [rule-id]"), the source line with a caret under the column
 * and tildes under the rest of the call, then the notes that trace the tags the same way.
 * Writers only format into `out`: the summary on stderr is the driver's (unless -q). */
#include <stdio.h>
#include <string.h>

#include "report/source.h"
#include "report/writers.h"

/* Lines longer than this are not echoed (minified or generated code). */
#define TC_TEXT_MAX_SNIPPET 4096

/* Echoes the source line and a caret line under loc->col (tabs copied so that the caret lines
   up whatever the tab width; UTF-8 continuation bytes take no column on screen). */
static void write_snippet(FILE *out, tc_source_cache *sc, const tc_loc *loc) {
  const char *text;
  size_t len;
  if (loc->line == 0 || tc_source_line(sc, loc->file, loc->line, &text, &len) != 0) return;
  if (len > TC_TEXT_MAX_SNIPPET) return;
  size_t col = loc->col ? loc->col - 1 : 0; /* 0-based byte offset of the caret */
  if (col > len) col = len;
  size_t end = col + 1; /* one past the last underlined byte */
  if (loc->end_line == loc->line && loc->end_col > loc->col + 1)
    end = loc->end_col - 1;
  else if (loc->end_line > loc->line)
    end = len;
  if (end > len) end = len;
  if (end < col + 1) end = col + 1;

  fwrite(text, 1, len, out);
  fputc('\n', out);
  for (size_t i = 0; i < col; i++) {
    unsigned char c = (unsigned char)text[i];
    if ((c & 0xC0) == 0x80) continue;
    fputc(c == '\t' ? '\t' : ' ', out);
  }
  fputc('^', out);
  for (size_t i = col + 1; i < end; i++) {
    if (((unsigned char)text[i] & 0xC0) == 0x80) continue;
    fputc('~', out);
  }
  fputc('\n', out);
}

static void write_position(FILE *out, const tc_loc *loc) {
  fputs(loc->file && *loc->file ? loc->file : "<unknown>", out);
  if (loc->line) {
    fprintf(out, ":%u", loc->line);
    if (loc->col) fprintf(out, ":%u", loc->col);
  }
  fputs(": ", out);
}

static void write_diag(FILE *out, tc_source_cache *sc, const tc_diag *d) {
  write_position(out, &d->loc);
  fprintf(out, "%s: %s [%s]", tc_level_name(d->level), d->message, d->rule_id);
  if (d->suppressed) {
    fputs(" (suppressed", out);
    if (d->suppression_text && *d->suppression_text) fprintf(out, ": %s", d->suppression_text);
    fputc(')', out);
  }
  fputc('\n', out);
  write_snippet(out, sc, &d->loc);
  for (size_t i = 0; i < d->n_notes; i++) {
    write_position(out, &d->notes[i].loc);
    fprintf(out, "note: %s\n", d->notes[i].message);
    write_snippet(out, sc, &d->notes[i].loc);
  }
}

int tc_write_text(const tc_report *r, const tc_options *o, FILE *out) {
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    if (d->suppressed && !o->show_suppressed) continue;
    write_diag(out, &sc, d);
  }
  for (size_t i = 0; i < r->n_failures; i++)
    fprintf(out, "%s: error: could not analyze this translation unit: %s\n",
            r->failures[i].file, r->failures[i].reason);
  tc_source_cache_free(&sc);
  if (fflush(out) != 0 || ferror(out)) return -1;
  return 0;
}
