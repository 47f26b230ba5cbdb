/* tests/driver/test_jobs.c — lowering many units on worker threads and the analysis cache:
 * the merged program is the same whatever the number of jobs; a second run takes every unit
 * from the cache and gives the same program; editing a header re-parses exactly the units that
 * include it; other arguments miss; a unit's failure is remembered with its IR; a damage of
 * any single byte of an entry is a miss, never a different result; a path whose appearance would
 * change an include is recorded once however many headers name it, and its appearance is a
 * miss; pruning keeps the newest entries under the bound and removes a killed run's temporary
 * files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <glob.h>
#include <time.h>

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
  tc_jobs_opts jo = {.jobs = jobs, .cache = cache};
  assert_int_equal(tc_jobs_run(units, N_UNITS, &jo), 0);
  tc_program *all = tc_program_new();
  for (int i = 0; i < N_UNITS; i++) {
    out->from_cache[i] = units[i].from_cache;
    out->failed[i] = units[i].failure != NULL;
    assert_non_null(units[i].prog);
    assert_int_equal(tc_program_merge(all, units[i].prog), 0);
    units[i].prog = NULL; /* merged (consumed) */
    tc_job_unit_clear(&units[i]);
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

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*len);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, *len, f), *len);
  fclose(f);
  return b;
}

static void spill(const char *path, const unsigned char *b, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, len, f), len);
  fclose(f);
}

static void test_cache_every_byte_damaged(void **state) {
  (void)state;
  project pr;
  make_project(&pr);
  char cache_dir[1024];
  snprintf(cache_dir, sizeof cache_dir, "%s/.tagcheck-cache", pr.dir);
  tc_cache *c = tc_cache_open(cache_dir);
  run_result cold;
  run(&pr, 1, c, &cold);
  tc_cache_close(c);
  free(cold.dump);
  /* one unit's entry: find whose it is */
  char pattern[1100];
  snprintf(pattern, sizeof pattern, "%s/*.tcc", cache_dir);
  glob_t g;
  assert_int_equal(glob(pattern, 0, NULL, &g), 0);
  assert_true(g.gl_pathc == N_UNITS);
  for (size_t i = 1; i < g.gl_pathc; i++) remove(g.gl_pathv[i]);
  int owner = -1;
  c = tc_cache_open(cache_dir);
  for (int i = 0; i < N_UNITS; i++) {
    char *failure;
    uint64_t digest;
    tc_program *p = tc_cache_lookup(c, &pr.cmds[i], &failure, &digest, NULL, NULL);
    if (p) owner = i;
    tc_program_free(p);
    free(failure);
  }
  tc_cache_close(c);
  assert_true(owner >= 0);
  size_t len;
  unsigned char *pristine = slurp(g.gl_pathv[0], &len);
  unsigned char *damaged = malloc(len);
  assert_non_null(damaged);
  size_t misses = 0;
  for (size_t i = 0; i < len; i++) {
    memcpy(damaged, pristine, len);
    damaged[i] ^= (unsigned char)(1u << (i % 8)) | (unsigned char)(i * 37);
    if (damaged[i] == pristine[i]) damaged[i] ^= 0x80;
    spill(g.gl_pathv[0], damaged, len);
    c = tc_cache_open(cache_dir);
    char *failure;
    uint64_t digest;
    tc_program *p = tc_cache_lookup(c, &pr.cmds[owner], &failure, &digest, NULL, NULL);
    tc_cache_close(c);
    misses += p == NULL;
    tc_program_free(p);
    free(failure);
  }
  assert_int_equal(misses, len); /* every single-byte damage detected */
  spill(g.gl_pathv[0], pristine, len - 1); /* truncated */
  c = tc_cache_open(cache_dir);
  char *failure;
  uint64_t digest;
  assert_null(tc_cache_lookup(c, &pr.cmds[owner], &failure, &digest, NULL, NULL));
  spill(g.gl_pathv[0], pristine, len); /* and intact again: a hit */
  tc_program *p = tc_cache_lookup(c, &pr.cmds[owner], &failure, &digest, NULL, NULL);
  assert_non_null(p);
  tc_program_free(p);
  free(failure);
  /* a results entry likewise */
  tc_report r;
  tc_report_init(&r);
  tc_loc loc = {(char *)"/x/a.c", 3, 4, 3, 9};
  tc_diag *d = tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "f", "m");
  tc_diag_add_note(d, &loc, "note");
  tc_cache_store_results(c, 42, &r);
  tc_report_free(&r);
  char rpath[1100];
  snprintf(rpath, sizeof rpath, "%s/results-%016llx.tcr", cache_dir, 42ull);
  size_t rlen;
  unsigned char *rpristine = slurp(rpath, &rlen);
  for (size_t i = 0; i < rlen; i++) {
    unsigned char *b = malloc(rlen);
    memcpy(b, rpristine, rlen);
    b[i] ^= 0x5a;
    spill(rpath, b, rlen);
    free(b);
    tc_report out;
    tc_report_init(&out);
    assert_int_equal(tc_cache_load_results(c, 42, &out), -1);
    assert_int_equal(out.n_diags, 0);
    tc_report_free(&out);
  }
  spill(rpath, rpristine, rlen);
  tc_report out;
  tc_report_init(&out);
  assert_int_equal(tc_cache_load_results(c, 42, &out), 0);
  assert_int_equal(out.n_diags, 1);
  assert_int_equal(out.diags[0].n_notes, 1);
  tc_report_free(&out);
  tc_cache_close(c);
  free(rpristine);
  free(pristine);
  free(damaged);
  globfree(&g);
  free_project(&pr);
}

static void set_mtime(const char *path, time_t t) {
  struct timeval tv[2] = {{t, 0}, {t, 0}};
  assert_int_equal(utimes(path, tv), 0);
}

/* Occurrences of needle in the first len bytes of hay. */
static int count_in(const unsigned char *hay, size_t len, const char *needle) {
  size_t n = strlen(needle);
  int count = 0;
  for (size_t i = 0; i + n <= len; i++) count += memcmp(hay + i, needle, n) == 0;
  return count;
}

/* inc1/a.h and inc2/a.h both read, -Iinc1 -Iinc2: DIR/a.h (the main file's folder comes
   first) would shadow both; the entry records it once, and its appearance is a miss. */
static void test_cache_absent_once(void **state) {
  (void)state;
  char dir[512], path[1024], main_path[1024], cache_dir[1024];
  fe_tmpdir(dir, sizeof dir);
  fe_write(dir, "inc1/a.h", "int one;\n", path, sizeof path);
  fe_write(dir, "inc2/a.h", "int two;\n", path, sizeof path);
  fe_write(dir, "main.c", "#include \"inc1/a.h\"\n#include \"inc2/a.h\"\nint f(void) { return one + two; }\n",
           main_path, sizeof main_path);
  snprintf(cache_dir, sizeof cache_dir, "%s/.tagcheck-cache", dir);
  tc_compile_cmd cmd;
  const char *args[] = {"-Iinc1", "-Iinc2"};
  assert_int_equal(tc_compile_cmd_from_args(main_path, args, 2, dir, &cmd), 0);
  for (int pass = 0; pass < 3; pass++) {
    if (pass == 2) fe_write(dir, "a.h", "int three;\n", path, sizeof path);
    tc_job_unit u;
    memset(&u, 0, sizeof u);
    u.cmd = &cmd;
    tc_cache *c = tc_cache_open(cache_dir);
    tc_jobs_opts jo = {.jobs = 1, .cache = c};
    assert_int_equal(tc_jobs_run(&u, 1, &jo), 0);
    tc_cache_close(c);
    assert_non_null(u.prog);
    assert_int_equal(u.from_cache, pass == 1); /* stored, then used, then a.h appeared */
    tc_job_unit_clear(&u);
    if (pass == 0) {
      glob_t g;
      char pattern[1100];
      snprintf(pattern, sizeof pattern, "%s/*.tcc", cache_dir);
      assert_int_equal(glob(pattern, 0, NULL, &g), 0);
      assert_int_equal(g.gl_pathc, 1);
      size_t len;
      unsigned char *entry = slurp(g.gl_pathv[0], &len);
      char shadow[1100];
      snprintf(shadow, sizeof shadow, "%s/a.h", dir);
      assert_int_equal(count_in(entry, len, shadow), 1);
      free(entry);
      globfree(&g);
    }
  }
  tc_compile_cmd_free(&cmd);
  fe_rmdir(dir);
}

static void test_cache_prune(void **state) {
  (void)state;
  char dir[512];
  fe_tmpdir(dir, sizeof dir);
  char path[1024];
  static unsigned char block[100 * 1024];
  time_t now = time(NULL);
  for (int i = 0; i < 10; i++) {
    snprintf(path, sizeof path, "%s/%016d.tcc", dir, i);
    spill(path, block, sizeof block);
    set_mtime(path, now - 1000 + i * 10); /* entry 9 is the most recently used */
  }
  snprintf(path, sizeof path, "%s/.00.tcc.tagcheck-1-0.tmp", dir);
  spill(path, block, 10);
  set_mtime(path, now - 7200); /* a killed run's, two hours ago */
  snprintf(path, sizeof path, "%s/.01.tcc.tagcheck-2-0.tmp", dir);
  spill(path, block, 10); /* a live run's */
  tc_cache *c = tc_cache_open(dir);
  tc_cache_prune(c, 500 * 1024);
  tc_cache_close(c);
  struct stat st;
  int kept = 0;
  for (int i = 0; i < 10; i++) {
    snprintf(path, sizeof path, "%s/%016d.tcc", dir, i);
    int there = stat(path, &st) == 0;
    kept += there;
    if (i >= 6) assert_true(there); /* the newest survive */
  }
  assert_true(kept * 100 <= 500 && kept >= 4);
  snprintf(path, sizeof path, "%s/.00.tcc.tagcheck-1-0.tmp", dir);
  assert_int_not_equal(stat(path, &st), 0);
  snprintf(path, sizeof path, "%s/.01.tcc.tagcheck-2-0.tmp", dir);
  assert_int_equal(stat(path, &st), 0);
  fe_rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_jobs_deterministic),
    cmocka_unit_test(test_cache),
    cmocka_unit_test(test_cache_every_byte_damaged),
    cmocka_unit_test(test_cache_absent_once),
    cmocka_unit_test(test_cache_prune),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
