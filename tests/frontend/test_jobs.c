/* tests/frontend/test_jobs.c — lowering many units on worker threads and the analysis cache:
 * the merged program is the same whatever the number of jobs; a second run takes every unit
 * from the cache and gives the same program; editing a header re-parses exactly the units that
 * include it; other arguments miss; a unit's failure is remembered with its IR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/cache.h"
#include "driver/jobs.h"
#include "fe_util.h"

enum { N_UNITS = 7 };

typedef struct project {
  char dir[512];
  tc_compile_cmd cmds[N_UNITS];
} project;

static void make_project(project *pr) {
  fe_tmpdir(pr->dir, sizeof pr->dir);
  char path[1024], src[2048];
  fe_write(pr->dir, "inc/model.h",
           "#include <dt/dt.h>\n"
           "typedef struct Model { dt_tensor *w; dt_device dev; } Model;\n"
           "static inline dt_tensor *fwd(Model *m, dt_tensor *x) { return dt_matmul(x, m->w); }\n",
           path, sizeof path);
  fe_write(pr->dir, "inc/other.h", "#define OTHER 1\n", path, sizeof path);
  for (int i = 0; i < N_UNITS; i++) {
    char name[32];
    snprintf(name, sizeof name, "src/u%d.c", i);
    snprintf(src, sizeof src,
             "#include \"%s\"\n"
             "dt_tensor *step%d(Model *m, dt_tensor *x) {\n"
             "  for (int k = 0; k < %d; k++) x = dt_relu(fwd(m, x));\n"
             "  return x;\n"
             "}\n%s",
             i % 2 ? "model.h" : "other.h\"\n#include \"model.h", i, i + 1,
             i == 3 ? "int broken(void) { return nope; }\n" : "");
    fe_write(pr->dir, name, src, path, sizeof path);
    const char *args[] = {"-Iinc", "-I" TC_TEST_RUNTIME_INCLUDE};
    assert_int_equal(tc_compile_cmd_from_args(path, args, 2, pr->dir, &pr->cmds[i]), 0);
  }
}

static void free_project(project *pr) {
  for (int i = 0; i < N_UNITS; i++) tc_compile_cmd_free(&pr->cmds[i]);
  fe_rmdir(pr->dir);
}

typedef struct run_result {
  char *dump;
  int from_cache[N_UNITS];
  int failed[N_UNITS];
} run_result;

static void run(project *pr, int jobs, tc_cache *cache, run_result *out) {
  tc_job_unit units[N_UNITS];
  memset(units, 0, sizeof units);
  for (int i = 0; i < N_UNITS; i++) units[i].cmd = &pr->cmds[i];
  assert_int_equal(tc_jobs_run(units, N_UNITS, jobs, cache), 0);
  tc_program *all = tc_program_new();
  for (int i = 0; i < N_UNITS; i++) {
    out->from_cache[i] = units[i].from_cache;
    out->failed[i] = units[i].failure != NULL;
    free(units[i].failure);
    assert_non_null(units[i].prog);
    assert_int_equal(tc_program_merge(all, units[i].prog), 0);
  }
  size_t len = 0;
  FILE *f = open_memstream(&out->dump, &len);
  tc_ir_dump(all, f);
  fclose(f);
  tc_program_free(all);
}

static void test_jobs_deterministic(void **state) {
  (void)state;
  project pr;
  make_project(&pr);
  run_result r1, r3, r8;
  run(&pr, 1, NULL, &r1);
  run(&pr, 3, NULL, &r3);
  run(&pr, 8, NULL, &r8);
  assert_string_equal(r1.dump, r3.dump);
  assert_string_equal(r1.dump, r8.dump);
  assert_non_null(strstr(r1.dump, "step6"));
  for (int i = 0; i < N_UNITS; i++) assert_int_equal(r1.failed[i], i == 3);
  free(r1.dump);
  free(r3.dump);
  free(r8.dump);
  free_project(&pr);
}

static void test_cache(void **state) {
  (void)state;
  project pr;
  make_project(&pr);
  char cache_dir[1024];
  snprintf(cache_dir, sizeof cache_dir, "%s/.tagcheck-cache", pr.dir);
  run_result cold, warm, fresh, edited, args;
  run(&pr, 2, NULL, &fresh);
  tc_cache *c = tc_cache_open(cache_dir);
  run(&pr, 2, c, &cold);
  tc_cache_close(c);
  for (int i = 0; i < N_UNITS; i++) assert_false(cold.from_cache[i]);
  c = tc_cache_open(cache_dir);
  run(&pr, 2, c, &warm);
  tc_cache_close(c);
  for (int i = 0; i < N_UNITS; i++) {
    assert_true(warm.from_cache[i]);
    assert_int_equal(warm.failed[i], i == 3); /* the failure comes back with the IR */
  }
  assert_string_equal(fresh.dump, cold.dump);
  assert_string_equal(fresh.dump, warm.dump);
  /* edit a header only the even units include */
  char path[1024];
  fe_write(pr.dir, "inc/other.h", "#define OTHER 2\n", path, sizeof path);
  c = tc_cache_open(cache_dir);
  run(&pr, 2, c, &edited);
  tc_cache_close(c);
  for (int i = 0; i < N_UNITS; i++) assert_int_equal(edited.from_cache[i], i % 2 == 1);
  /* other arguments: another entry */
  char **argv = realloc(pr.cmds[1].argv, (pr.cmds[1].argc + 2) * sizeof *argv);
  pr.cmds[1].argv = argv;
  argv[pr.cmds[1].argc++] = strdup("-DEXTRA=1");
  argv[pr.cmds[1].argc] = NULL;
  c = tc_cache_open(cache_dir);
  run(&pr, 1, c, &args);
  tc_cache_close(c);
  assert_false(args.from_cache[1]);
  assert_true(args.from_cache[0]);
  /* a damaged entry is a miss, never a crash */
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "for f in %s/*.tcc; do printf 'garbage' | dd of=$f bs=1 seek=40 conv=notrunc 2>/dev/null; done", cache_dir);
  assert_int_equal(system(cmd), 0);
  run_result damaged;
  c = tc_cache_open(cache_dir);
  run(&pr, 2, c, &damaged);
  tc_cache_close(c);
  for (int i = 0; i < N_UNITS; i++) assert_false(damaged.from_cache[i]);
  free(cold.dump);
  free(warm.dump);
  free(fresh.dump);
  free(edited.dump);
  free(args.dump);
  free(damaged.dump);
  free_project(&pr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_jobs_deterministic),
    cmocka_unit_test(test_cache),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
