/* analyzer/src/report/text.c — the default, clang-style text report: one line per finding
 * ("file:line:col: error: message [rule-id]"), the source line with a caret under the column
 * and tildes under the rest of the call, then the notes that trace the tags the same way.
 * Everything from sources, paths and rules files is escaped for the terminal (terminal.h).
 * With --color (auto: on a terminal, unless NO_COLOR is set or TERM is dumb) positions, levels
 * and carets are colored as clang colors them.
 * Writers only format into `out`: the summary on stderr is the driver's (unless -q). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/fixit.h"
#include "report/given_paths.h"
#include "report/source.h"
#include "report/terminal.h"
#include "report/writers.h"

/* Lines longer than this are not echoed (minified or generated code). */
#define TC_TEXT_MAX_SNIPPET 4096

/* clang's colors: bold positions and messages, red errors, magenta warnings, black (grey)
   notes, green carets. */
typedef struct palette {
  const char *bold, *error, *warning, *note, *caret, *reset;
} palette;

static const palette colors = {"\033[1m", "\033[1;31m", "\033[1;35m", "\033[1;30m",
                               "\033[1;32m", "\033[0m"};
static const palette plain = {"", "", "", "", "", ""};

static int use_color(const tc_options *o, FILE *out) {
  if (o->color == TC_COLOR_ALWAYS) return 1;
  if (o->color == TC_COLOR_NEVER) return 0;
  const char *term = getenv("TERM"), *no = getenv("NO_COLOR");
  return isatty(fileno(out)) && !(no && no[0]) && !(term && strcmp(term, "dumb") == 0);
}

static const char *level_color(const palette *p, tc_level l) {
  return l == TC_LEVEL_ERROR ? p->error : l == TC_LEVEL_WARNING ? p->warning : p->note;
}

/* Echoes the source line (escaped: terminal.h) and a caret line under loc->col (tabs copied
   so that the caret lines up whatever the tab width; a UTF-8 character takes one column, an
   escaped one the width of its escape). */
static void write_snippet(FILE *out, tc_source_cache *sc, const tc_loc *loc, const palette *p) {
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

  tc_term_write(out, text, len);
  fputc('\n', out);
  size_t i = 0;
  int colored = 0;
  int caret = 0;
  while (i < len && i < end) {
    char esc[TC_TERM_ESC_MAX];
    size_t n = tc_term_char(text + i, len - i, esc);
    size_t width = esc[0] ? strlen(esc) : 1;
    for (size_t w = 0; w < width; w++) {
      if (i < col) {
        fputc(text[i] == '\t' ? '\t' : ' ', out);
        continue;
      }
      if (!colored++) fputs(p->caret, out);
      fputc(caret++ ? '~' : '^', out);
    }
    i += n;
  }
  if (!caret) fprintf(out, "%s^", p->caret); /* the caret at the end of the line */
  fprintf(out, "%s\n", p->reset);
}

/* clang's fix-it hint: the replacement text under the caret line, at the column it replaces
   (the first edit on the finding's line), then one
   `fix-it:"FILE":{L:C-L:C}:"TEXT"` line per edit as -fdiagnostics-parseable-fixits writes. */
static void write_fixit(FILE *out, tc_source_cache *sc, const tc_diag *d, const palette *p,
                        const tc_given_paths *g) {
  tc_fix_repl *reps;
  size_t n;
  if (tc_fix_render(sc, d, &reps, &n) != 0) return;
  const char *text;
  size_t len;
  if (tc_source_line(sc, d->loc.file, d->loc.line, &text, &len) == 0 &&
      len <= TC_TEXT_MAX_SNIPPET) {
    size_t col = 0; /* bytes of the line written so far (as blanks) */
    int any = 0;
    for (size_t k = 0; k < n; k++) {
      const tc_loc *l = reps[k].range;
      if (strcmp(l->file, d->loc.file) != 0 || l->line != d->loc.line || !l->col ||
          l->col - 1 < col || l->col - 1 > len || strchr(reps[k].text, '\n'))
        continue;
      if (!any++) fputs(p->caret, out);
      for (; col < l->col - 1; col++) {
        char esc[TC_TERM_ESC_MAX];
        size_t w = tc_term_char(text + col, len - col, esc);
        size_t width = esc[0] ? strlen(esc) : 1;
        for (size_t x = 0; x < width; x++) fputc(text[col] == '\t' ? '\t' : ' ', out);
        col += w - 1;
      }
      tc_term_puts(out, reps[k].text);
      break; /* past the first hint the columns of the line no longer line up */
    }
    if (any) fprintf(out, "%s\n", p->reset);
  }
  for (size_t k = 0; k < n; k++) {
    const tc_loc *l = reps[k].range;
    fputs("fix-it:\"", out);
    tc_term_puts(out, tc_given_path(g, l->file));
    fprintf(out, "\":{%u:%u-%u:%u}:\"", l->line, l->col, l->end_line, l->end_col);
    for (const char *c = reps[k].text; *c;) {
      size_t run = strcspn(c, "\"\\\n");
      tc_term_write(out, c, run);
      c += run;
      if (!*c) break;
      fputs(*c == '\n' ? "\\n" : *c == '"' ? "\\\"" : "\\\\", out);
      c++;
    }
    fputs("\"\n", out);
  }
  tc_fix_repls_free(reps, n);
}

static void write_position(FILE *out, const tc_loc *loc, const palette *p,
                           const tc_given_paths *g) {
  fputs(p->bold, out);
  tc_term_puts(out, loc->file && *loc->file ? tc_given_path(g, loc->file) : "<unknown>");
  if (loc->line) {
    fprintf(out, ":%u", loc->line);
    if (loc->col) fprintf(out, ":%u", loc->col);
  }
  fprintf(out, ":%s ", p->reset);
}

static void write_diag(FILE *out, tc_source_cache *sc, const tc_diag *d, const palette *p,
                       const tc_given_paths *g) {
  write_position(out, &d->loc, p, g);
  fprintf(out, "%s%s:%s %s", level_color(p, d->level), tc_level_name(d->level), p->reset,
          p->bold);
  tc_term_puts(out, d->message);
  fputs(" [", out);
  tc_term_puts(out, d->rule_id);
  fprintf(out, "]%s", p->reset);
  if (d->suppressed) {
    fputs(" (suppressed", out);
    if (d->suppression_text && *d->suppression_text) {
      fputs(": ", out);
      tc_term_puts(out, d->suppression_text);
    }
    fputc(')', out);
  }
  fputc('\n', out);
  write_snippet(out, sc, &d->loc, p);
  write_fixit(out, sc, d, p, g);
  for (size_t i = 0; i < d->n_notes; i++) {
    write_position(out, &d->notes[i].loc, p, g);
    fprintf(out, "%snote:%s ", p->note, p->reset);
    tc_term_puts(out, d->notes[i].message);
    fputc('\n', out);
    write_snippet(out, sc, &d->notes[i].loc, p);
  }
}

int tc_write_text(const tc_report *r, const tc_options *o, FILE *out) {
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  const palette *p = use_color(o, out) ? &colors : &plain;
  tc_given_paths g;
  (void)tc_given_paths_init(&g, o); /* out of memory: absolute paths, still correct */
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    if (d->suppressed && !o->show_suppressed) continue;
    write_diag(out, &sc, d, p, &g);
  }
  for (size_t i = 0; i < r->n_failures; i++) {
    fputs(p->bold, out);
    tc_term_puts(out, tc_given_path(&g, r->failures[i].file));
    fprintf(out, ":%s %serror:%s could not analyze this translation unit: ", p->reset, p->error,
            p->reset);
    char *reason = tc_given_reason(&g, r->failures[i].file, r->failures[i].reason);
    tc_term_puts(out, reason ? reason : r->failures[i].reason);
    free(reason);
    fputc('\n', out);
  }
  tc_given_paths_free(&g);
  tc_source_cache_free(&sc);
  if (fflush(out) != 0 || ferror(out)) return -1;
  return 0;
}
