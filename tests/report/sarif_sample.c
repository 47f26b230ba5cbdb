/* tests/report/sarif_sample.c — writes SARIF logs for the validator test (validate.sh): the
 * sample report of fixtures.c (notes, suppression, failed unit, odd and outside paths), an
 * empty report, two overlapping shard logs and their `tagcheck merge`. Until tagcheck itself
 * links, this is the pipeline the validator checks; validate.sh adds tagcheck's own output
 * when the binary exists.
 * usage: sarif_sample OUTDIR */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "report/output.h"

static int write_sarif(const tc_report *r, const char *root, const char *path) {
  tc_options o;
  fx_options(&o, root);
  o.format = TC_FORMAT_SARIF;
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return 1;
  }
  int rc = tc_write_report(r, &o, f);
  fclose(f);
  fx_options_free(&o);
  if (rc != 0) fprintf(stderr, "%s: write failed\n", path);
  return rc != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const char *out = argv[1];
  mkdir(out, 0755);
  char *tree = NULL, *outside = NULL, *path = NULL;
  if (asprintf(&tree, "%s/tree with space", out) < 0 || asprintf(&outside, "%s/outside", out) < 0)
    return 2;
  mkdir(tree, 0755);
  mkdir(outside, 0755);

  int fails = 0;
  tc_report r;
  fx_sample_report(&r, tree, outside);
  tc_apply_suppressions(&r);
  if (asprintf(&path, "%s/sample.sarif", out) < 0) return 2;
  fails += write_sarif(&r, tree, path);
  free(path);

  /* Two shards: the first three findings and the last three (one overlaps), the failure in
     the second only. */
  tc_report s1, s2;
  tc_report_init(&s1);
  tc_report_init(&s2);
  tc_report_add_builtin_rules(&s1);
  tc_report_add_builtin_rules(&s2);
  for (size_t i = 0; i < r.n_diags; i++) {
    const tc_diag *d = &r.diags[i];
    tc_report *dst[2] = {i < 3 ? &s1 : NULL, i + 3 >= r.n_diags ? &s2 : NULL};
    for (int k = 0; k < 2; k++) {
      if (!dst[k]) continue;
      tc_diag *c = tc_report_add(dst[k], d->rule_id, d->level, &d->loc, d->operation,
                                 d->function, d->message);
      for (size_t n = 0; n < d->n_notes; n++)
        tc_diag_add_note(c, &d->notes[n].loc, d->notes[n].message);
    }
  }
  for (size_t i = 0; i < r.n_failures; i++)
    tc_report_add_failure(&s2, r.failures[i].file, r.failures[i].reason);
  tc_apply_suppressions(&s1);
  tc_apply_suppressions(&s2);
  char *p1 = NULL, *p2 = NULL, *pm = NULL, *pe = NULL;
  if (asprintf(&p1, "%s/shard1.sarif", out) < 0 || asprintf(&p2, "%s/shard2.sarif", out) < 0 ||
      asprintf(&pm, "%s/merged.sarif", out) < 0 || asprintf(&pe, "%s/empty.sarif", out) < 0)
    return 2;
  fails += write_sarif(&s1, tree, p1);
  fails += write_sarif(&s2, tree, p2);
  char *margv[] = {"merge", "-o", pm, p1, p2, NULL};
  fails += tc_merge_main(5, margv) != 0;

  /* A log GitHub would reject (a result without locations, a message without text): the
     validator test checks that the validator notices. */
  char *pb = NULL;
  if (asprintf(&pb, "%s/broken.sarif", out) < 0) return 2;
  FILE *bf = fopen(pb, "w");
  if (!bf) return 2;
  fputs("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"tagcheck\", "
        "\"rules\": [{\"id\": \"backend-mismatch\"}]}}, \"results\": [{\"ruleId\": "
        "\"backend-mismatch\", \"ruleIndex\": 3, \"message\": {\"id\": \"m\"}}]}]}\n", bf);
  fclose(bf);
  free(pb);

  tc_report empty;
  tc_report_init(&empty);
  fails += write_sarif(&empty, tree, pe);

  tc_report_free(&empty);
  tc_report_free(&s1);
  tc_report_free(&s2);
  tc_report_free(&r);
  free(p1), free(p2), free(pm), free(pe);
  free(tree);
  free(outside);
  return fails ? 1 : 0;
}
