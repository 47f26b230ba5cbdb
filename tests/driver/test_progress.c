/* tests/driver/test_progress.c — the run's terminal conventions in the driver: the progress
 * line (nothing in a run's first second, then "\rtagcheck: WHAT DONE/TOTAL" redrawn in place,
 * erased at the end; nothing at all without a terminal), and -j's default, the CPUs the process
 * may use (its affinity mask, as taskset and cgroup cpusets set it, not the machine's count). */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/jobs.h"
#include "driver/progress.h"

static char *contents(FILE *f) {
  fflush(f);
  long n = ftell(f);
  char *s = calloc((size_t)n + 1, 1);
  rewind(f);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  fseek(f, 0, SEEK_END);
  return s;
}

static void test_progress_line(void **state) {
  (void)state;
  FILE *f = tmpfile();
  assert_non_null(f);
  tc_progress p;
  tc_progress_init(&p, f);
  tc_progress_update(&p, "lowering", 1, 10); /* a short run shows nothing */
  char *s = contents(f);
  assert_string_equal(s, "");
  free(s);
  struct timespec pause = {1, 100000000};
  nanosleep(&pause, NULL);
  tc_progress_update(&p, "lowering", 3, 10);
  s = contents(f);
  assert_string_equal(s, "\rtagcheck: lowering 3/10\033[K");
  free(s);
  tc_progress_update(&p, "lowering", 10, 10); /* the last step is always drawn */
  tc_progress_end(&p);
  s = contents(f);
  assert_non_null(strstr(s, "\rtagcheck: lowering 10/10\033[K"));
  size_t n = strlen(s);
  assert_true(n >= 4 && strcmp(s + n - 4, "\r\033[K") == 0); /* erased: logs keep nothing */
  free(s);
  tc_progress_free(&p);
  fclose(f);

  tc_progress off; /* no terminal: nothing, ever */
  tc_progress_init(&off, NULL);
  tc_progress_update(&off, "lowering", 1, 2);
  tc_progress_end(&off);
  tc_progress_free(&off);
}

static void test_jobs_default_is_the_affinity(void **state) {
  (void)state;
  cpu_set_t all, one;
  assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
  assert_int_equal(tc_jobs_cores(), CPU_COUNT(&all));
  int first = 0;
  while (!CPU_ISSET(first, &all)) first++;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0); /* as `taskset -c N` does */
  assert_int_equal(tc_jobs_cores(), 1);
  assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_progress_line),
      cmocka_unit_test(test_jobs_default_is_the_affinity),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
