/* tests/engine/engine_run.c — a debugging aid for the engine's tests: analyzes the given C
 * files as one program (front end + rules + engine, no driver) and prints every finding with
 * its notes; with --check, compares them with the files' annotations (exit 1 on mismatch). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

int main(int argc, char **argv) {
  const char *unavail[8];
  eh_opts o;
  memset(&o, 0, sizeof o);
  o.unavailable = unavail;
  int timing = 0;
  const char *extra[64];
  size_t n_extra = 0;
  const char *annot[256];
  size_t na = 0;
  const char *files[256];
  size_t nf = 0;
  int check = 0, quiet = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--unavailable") && i + 1 < argc && o.n_unavailable < 8)
      unavail[o.n_unavailable++] = argv[++i];
    else if (!strcmp(argv[i], "--check"))
      check = 1;
    else if (!strncmp(argv[i], "-I", 2) || !strncmp(argv[i], "-D", 2)) {
      if (n_extra < 64) extra[n_extra++] = argv[i];
    } else if (!strcmp(argv[i], "--keep-going"))
      o.keep_going = 1;
    else if (!strcmp(argv[i], "--time"))
      timing = 1;
    else if (!strcmp(argv[i], "--dump-ir"))
      o.dump_ir = 1;
    else if (!strcmp(argv[i], "--annot") && i + 1 < argc && na < 256)
      annot[na++] = argv[++i];
    else if (!strcmp(argv[i], "-q"))
      quiet = 1;
    else if (!strcmp(argv[i], "--max-states") && i + 1 < argc)
      o.max_states = (unsigned)atoi(argv[++i]);
    else if (nf < 256)
      files[nf++] = argv[i];
  }
  o.extra_args = extra;
  o.n_extra_args = n_extra;
  tc_report r;
  tc_report_init(&r);
  char err[1024];
  if (eh_analyze_files(files, nf, &o, &r, err, sizeof err)) {
    fprintf(stderr, "engine_run: %s\n", err);
    tc_report_free(&r);
    return 2;
  }
  if (!quiet)
    for (size_t i = 0; i < r.n_diags; i++) {
      const tc_diag *d = &r.diags[i];
      printf("%s:%u:%u: %s: %s [%s]\n", d->loc.file, d->loc.line, d->loc.col,
             tc_level_name(d->level), d->message, d->rule_id);
      for (size_t k = 0; k < d->n_notes; k++)
        printf("    %s:%u:%u: note: %s\n", d->notes[k].loc.file, d->notes[k].loc.line,
               d->notes[k].loc.col, d->notes[k].message);
    }
  if (timing)
    fprintf(stderr, "parse+lower %.3f ms, analysis %.3f ms\n", o.parse_s * 1e3, o.analyze_s * 1e3);
  int rc = 0;
  if (check) {
    char msg[16384];
    for (size_t i = 0; i < nf && na < 256; i++) annot[na++] = files[i];
    int bad = eh_compare(annot, na, &r, msg, sizeof msg);
    if (bad) {
      printf("%s", msg);
      rc = 1;
    }
  }
  tc_report_free(&r);
  return rc;
}
