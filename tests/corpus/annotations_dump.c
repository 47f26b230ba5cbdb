/* tests/corpus/annotations_dump.c — prints the annotations of each file named, as the C reader
 * (annotations.h) reads them: one "FILE<TAB>LINE<TAB>RULE<TAB>LEVEL" line per expected finding.
 * corpus.py's `readers-agree` compares them with its own reading of the same files. */
#include <stdio.h>
#include <stdlib.h>

#include "annotations.h"

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    tc_annotation *as = NULL;
    size_t n = 0;
    if (tc_annotations_read(argv[i], &as, &n) != 0) {
      fprintf(stderr, "annotations_dump: cannot read %s\n", argv[i]);
      status = 2;
    }
    for (size_t k = 0; k < n; k++)
      printf("%s\t%u\t%s\t%s\n", argv[i], as[k].line, as[k].rule,
             as[k].is_error ? "error" : "warning");
    free(as);
  }
  return status;
}
