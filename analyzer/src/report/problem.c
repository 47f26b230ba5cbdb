/* analyzer/src/report/problem.c — one problem on stderr in the compilers' shape
 * (report/output.h tc_print_problem): the place first, then the level, then what is wrong. */
#include <stdio.h>
#include <string.h>

#include "report/output.h"

void tc_print_problem(const char *tool, const char *level, const char *msg) {
  const char *sep = strstr(msg, ": ");
  size_t place = sep ? (size_t)(sep - msg) : 0;
  if (place && !memchr(msg, ' ', place))
    fprintf(stderr, "%.*s: %s: %s\n", (int)place, msg, level, sep + 2);
  else
    fprintf(stderr, "%s: %s: %s\n", tool, level, msg);
}
