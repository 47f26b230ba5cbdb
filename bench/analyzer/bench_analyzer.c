/* bench/analyzer/bench_analyzer.c — tagcheck's speed and memory against libclang's own parse of
 * the same units, measured in one run (SPEC §6, issues 6, 12 and 26), on two code bases:
 *   real code  every C and C++ unit of the real ggml (library, tests, examples): its compile
 *              database is made here by configuring the source (cmake, CPU only, tests and
 *              examples on) — skipped, with a message, when the source is not there;
 *   generated  the synthetic project of gen_project.py (the dt API everywhere).
 * On each:
 *   floor      every unit parsed by clang_parseTranslationUnit2 with exactly the arguments
 *              tagcheck uses, nothing else, in a child process, serially and on 2 threads: wall,
 *              CPU and the process's peak RSS (what one parsing process needs);
 *   front end  tagcheck's parse and lowering of every unit in a child process (1 thread);
 *   tagcheck   `tagcheck -p DIR` with -j 1 and -j 2, each with an empty cache (cold) and then
 *              again on the unchanged tree (warm): wall, CPU, and the peak RSS of the main
 *              process, of the largest unit worker and of the largest child (TAGCHECK_STATS);
 * and prints the ratios against the targets (<= 1.3x the floor with -j 1 and -j 2, a worker's
 * peak RSS <= 2x the parse's, -j 2 >= 1.6x faster than -j 1, a cached re-run < 10% of a cold
 * one). Each figure is the best of --reps runs. Exit status 0 when every run worked (the
 * targets are reported, not enforced).
 *
 *   bench_analyzer [--tagcheck PATH] [-p DIR] [--reps N] [--name LABEL] [--units N]
 *                  [--ggml-src DIR | --no-ggml] [--quick]
 *
 * Without -p it measures ggml (from --ggml-src, default ../shared/ggml next to the source tree)
 * and then the generated project (--units, default 120). --quick (CI): ggml's 3 smallest units,
 * a 12-unit project, one repetition. Without --tagcheck it runs the tagcheck built next to it. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>

#include "driver/jobs.h"
#include "frontend/compdb.h"
#include "frontend/parse.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct floor_job {
  const tc_compdb *db;
  atomic_size_t next;
  atomic_int failures;
} floor_job;

static void *floor_worker(void *arg) {
  floor_job *j = arg;
  tc_parser *p = tc_parser_new();
  for (;;) {
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->db->n) break;
    if (tc_parse_only(p, &j->db->cmds[i]) != 0) atomic_fetch_add(&j->failures, 1);
  }
  tc_parser_free(p);
  return NULL;
}

/* Parses every unit on `threads` threads; 0 when every unit parsed. */
static int parse_floor(const tc_compdb *db, int threads) {
  floor_job j;
  j.db = db;
  atomic_init(&j.next, 0);
  atomic_init(&j.failures, 0);
  pthread_t t[16];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64u << 20);
  int started = 0;
  for (int i = 0; i < threads && i < 16; i++)
    if (pthread_create(&t[i], &attr, floor_worker, &j) == 0) started++;
  for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
  pthread_attr_destroy(&attr);
  if (atomic_load(&j.failures)) fprintf(stderr, "bench: %d units did not parse\n", atomic_load(&j.failures));
  return started ? 0 : -1;
}

/* tagcheck's front end: parse and lower every unit on `threads` threads (what a unit worker
   does, but keeping every unit's IR). 0 when it worked. */
static int front_end(const tc_compdb *db, int threads) {
  tc_job_unit *units = calloc(db->n ? db->n : 1, sizeof *units);
  if (!units) return -1;
  for (size_t i = 0; i < db->n; i++) units[i].cmd = &db->cmds[i];
  tc_jobs_opts jo = {.jobs = threads};
  int rc = tc_jobs_run(units, db->n, &jo);
  for (size_t i = 0; i < db->n; i++) {
    tc_program_free(units[i].prog);
    free(units[i].failure);
  }
  free(units);
  return rc;
}

typedef struct run_stats {
  double wall;
  double cpu;
  long maxrss_kb;      /* the process and its children, whichever was largest */
  long main_kb;        /* tagcheck's: its main process, */
  long worker_kb;      /* its largest unit worker, */
  long child_kb;       /* its largest child (a unit worker or an analysis) */
  int status;
} run_stats;

static run_stats wait_child(pid_t pid, double t0) {
  run_stats rs = {0, 0, 0, 0, 0, 0, -1};
  int st = 0;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) return rs;
  rs.wall = now_s() - t0;
  rs.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  rs.maxrss_kb = ru.ru_maxrss;
  rs.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return rs;
}

/* Runs the floor (what = 0) or the front end (1) on `threads` threads in a child process, so
   that its peak RSS is its own. */
static run_stats in_child(const tc_compdb *db, int what, int threads) {
  fflush(stdout);
  fflush(stderr);
  double t0 = now_s();
  pid_t pid = fork();
  if (pid == 0) _exit((what ? front_end(db, threads) : parse_floor(db, threads)) == 0 ? 0 : 1);
  return wait_child(pid, t0);
}

/* Runs tagcheck with args (NULL-terminated) and TAGCHECK_STATS=1, stdout to /dev/null, stderr
   to err_path; wall and CPU time, peak RSS, and the per-process peaks tagcheck printed. */
static run_stats run_tagcheck(const char *tagcheck, char *const *args, const char *err_path) {
  fflush(stdout);
  fflush(stderr);
  double t0 = now_s();
  pid_t pid = fork();
  if (pid == 0) {
    FILE *out = freopen("/dev/null", "w", stdout), *err = freopen(err_path, "w", stderr);
    (void)out;
    (void)err;
    setenv("TAGCHECK_STATS", "1", 1);
    execv(tagcheck, args);
    _exit(127);
  }
  run_stats rs = wait_child(pid, t0);
  FILE *f = fopen(err_path, "r");
  char line[1024];
  while (f && fgets(line, sizeof line, f)) {
    const char *at = strstr(line, "peak RSS: main process ");
    if (at && sscanf(at, "peak RSS: main process %ld KiB, largest unit worker %ld KiB, "
                         "largest child %ld KiB", &rs.main_kb, &rs.worker_kb, &rs.child_kb) == 3)
      continue;
    if (!strstr(line, "tagcheck: stats:")) fputs(line, stderr); /* what else tagcheck said */
  }
  if (f) fclose(f);
  return rs;
}

static int failed(const run_stats *rs) { return rs->status < 0 || (rs->status > 1 && rs->status != 3); }

/* The best of reps runs (the least wall and the least CPU; the largest memory). A run is
   tagcheck with args when args is set, else the floor or front end (what, threads). clear_dir:
   removed before each run (an empty cache). */
static run_stats best_of(const char *tagcheck, char *const *args, const tc_compdb *db, int what,
                         int threads, int reps, const char *clear_dir, const char *err_path) {
  run_stats best = {1e30, 1e30, 0, 0, 0, 0, -1};
  for (int r = 0; r < reps; r++) {
    if (clear_dir) {
      char cmd[4096];
      snprintf(cmd, sizeof cmd, "rm -rf '%s'", clear_dir);
      if (system(cmd) != 0) fprintf(stderr, "bench: could not clear %s\n", clear_dir);
    }
    run_stats rs = args ? run_tagcheck(tagcheck, args, err_path) : in_child(db, what, threads);
    if (rs.status == 3) fprintf(stderr, "bench: note: a unit could not be analyzed (status 3)\n");
    if (failed(&rs)) {
      fprintf(stderr, "bench: %s exited with status %d\n", args ? "tagcheck" : "the floor",
              rs.status);
      return rs;
    }
    if (rs.wall < best.wall) best.wall = rs.wall;
    if (rs.cpu < best.cpu) best.cpu = rs.cpu;
    if (rs.maxrss_kb > best.maxrss_kb) best.maxrss_kb = rs.maxrss_kb;
    if (rs.main_kb > best.main_kb) best.main_kb = rs.main_kb;
    if (rs.worker_kb > best.worker_kb) best.worker_kb = rs.worker_kb;
    if (rs.child_kb > best.child_kb) best.child_kb = rs.child_kb;
    best.status = rs.status;
  }
  return best;
}

static const char *verdict(int ok) { return ok ? "meets target" : "MISSES target"; }

static void print_load(void) {
  double l[3];
  if (getloadavg(l, 3) == 3) printf("  load average now: %.2f %.2f %.2f\n", l[0], l[1], l[2]);
}

static int measure(const char *tagcheck, const char *dir, const char *name, int reps);
static int measure_ggml(const char *tagcheck, const char *src, const char *work, int quick,
                        int reps);

int main(int argc, char **argv) {
  const char *tagcheck = NULL, *dir = NULL, *name = "project", *ggml_src = TC_BENCH_GGML_SRC;
  int reps = 3, units = 120, quick = 0, reps_given = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tagcheck") && i + 1 < argc) tagcheck = argv[++i];
    else if (!strcmp(argv[i], "-p") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]), reps_given = 1;
    else if (!strcmp(argv[i], "--units") && i + 1 < argc) units = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
    else if (!strcmp(argv[i], "--ggml-src") && i + 1 < argc) ggml_src = argv[++i];
    else if (!strcmp(argv[i], "--no-ggml")) ggml_src = NULL;
    else if (!strcmp(argv[i], "--quick")) {
      units = 12;
      reps = 1;
      quick = 1;
    } else {
      fprintf(stderr, "usage: bench_analyzer [--tagcheck PATH] [-p DIR] [--reps N] [--units N] "
                      "[--name LABEL] [--ggml-src DIR | --no-ggml] [--quick]\n");
      return 2;
    }
  }
  if (reps < 1 || units < 1) {
    fprintf(stderr, "bench: --reps and --units must be positive\n");
    return 2;
  }
  char self_dir[PATH_MAX], tc_path[PATH_MAX + 16], tmp_base[PATH_MAX], gen_dir[PATH_MAX + 16];
  if (!tagcheck) { /* the tagcheck built next to this program */
    ssize_t n = readlink("/proc/self/exe", self_dir, sizeof self_dir - 1);
    if (n <= 0) {
      fprintf(stderr, "bench: give --tagcheck PATH\n");
      return 2;
    }
    self_dir[n] = '\0';
    char *slash = strrchr(self_dir, '/');
    if (slash) *slash = '\0';
    snprintf(tc_path, sizeof tc_path, "%s/tagcheck", self_dir);
    tagcheck = tc_path;
  }
  if (dir) return measure(tagcheck, dir, name, reps);
  const char *tmp = getenv("TMPDIR");
  snprintf(tmp_base, sizeof tmp_base, "%s/tc_bench_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(tmp_base)) {
    fprintf(stderr, "bench: cannot create a temporary directory\n");
    return 2;
  }
  int rc = 0;
  if (ggml_src) /* the real code base first; one repetition unless told (it is large) */
    rc = measure_ggml(tagcheck, ggml_src, tmp_base, quick, reps_given ? reps : 1);
  char cmd[3 * PATH_MAX];
  snprintf(gen_dir, sizeof gen_dir, "%s/project", tmp_base);
  snprintf(cmd, sizeof cmd, "python3 '%s' '%s' --units %d --include '%s' >&2",
           TC_BENCH_GENERATOR, gen_dir, units, TC_BENCH_DT_INCLUDE);
  if (system(cmd) != 0) {
    fprintf(stderr, "bench: the project generator failed\n");
    rc = 2;
  } else {
    int grc = measure(tagcheck, gen_dir, "generated project", reps);
    if (grc) rc = grc;
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_base); /* the generated project, ggml's build */
  if (system(cmd) != 0) fprintf(stderr, "bench: could not remove %s\n", tmp_base);
  return rc;
}

/* Configures ggml's source (cmake: CPU only, tests and examples on) in work/ggml-build for its
   compile database, and measures every unit of it (--quick: its 3 smallest main files). */
static int measure_ggml(const char *tagcheck, const char *src, const char *work, int quick,
                        int reps) {
  char lists[PATH_MAX + 32];
  snprintf(lists, sizeof lists, "%.*s/CMakeLists.txt", PATH_MAX, src);
  if (access(lists, R_OK) != 0) {
    printf("== ggml (real code): skipped: no ggml source at %s (give --ggml-src DIR)\n", src);
    return 0;
  }
  char build[PATH_MAX + 32], cmd[4 * PATH_MAX];
  snprintf(build, sizeof build, "%.*s/ggml-build", PATH_MAX, work);
  snprintf(cmd, sizeof cmd,
           "cmake -S '%s' -B '%s' -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "
           "-DGGML_BUILD_TESTS=ON -DGGML_BUILD_EXAMPLES=ON -DGGML_CUDA=OFF -DGGML_METAL=OFF "
           "-DGGML_VULKAN=OFF -DGGML_OPENCL=OFF -DGGML_SYCL=OFF -DGGML_HIP=OFF >'%s/cmake.log' 2>&1",
           src, build, work);
  if (system(cmd) != 0) {
    fprintf(stderr, "bench: configuring ggml failed (see %s/cmake.log)\n", work);
    return 1;
  }
  if (!quick) return measure(tagcheck, build, "ggml (real code: library, tests, examples)", reps);
  char sub[PATH_MAX + 32]; /* a database of the 3 entries with the smallest main files */
  snprintf(sub, sizeof sub, "%.*s/ggml-quick", PATH_MAX, work);
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s' && python3 -c 'import json,os,sys; d=json.load(open(sys.argv[1])); "
           "d.sort(key=lambda e: os.path.getsize(os.path.join(e[\"directory\"], e[\"file\"]))); "
           "json.dump(d[:3], open(sys.argv[2], \"w\"))' '%s/compile_commands.json' "
           "'%s/compile_commands.json'",
           sub, build, sub);
  if (system(cmd) != 0) {
    fprintf(stderr, "bench: could not write ggml's quick database\n");
    return 1;
  }
  return measure(tagcheck, sub, "ggml (real code, quick: its 3 smallest units)", reps);
}

static int measure(const char *tagcheck, const char *dir, const char *name, int reps) {
  tc_compdb db;
  char err[4096];
  if (tc_compdb_load(dir, &db, err, sizeof err) != 0) {
    fprintf(stderr, "bench: %s\n", err);
    return 2;
  }
  size_t lines = 0;
  for (size_t i = 0; i < db.n; i++) {
    FILE *f = fopen(db.cmds[i].file, "r");
    int c;
    while (f && (c = fgetc(f)) != EOF) lines += c == '\n';
    if (f) fclose(f);
  }
  printf("== %s: %zu units, %zu lines (main files), best of %d\n", name, db.n, lines, reps);
  print_load();
  fflush(stdout);
  char cache[PATH_MAX + 64], err_path[PATH_MAX + 64];
  snprintf(cache, sizeof cache, "%.*s/.tagcheck-bench-cache", PATH_MAX, dir);
  snprintf(err_path, sizeof err_path, "%.*s/.tagcheck-bench-stderr", PATH_MAX, dir);
  char *j1[] = {(char *)tagcheck, "-p", (char *)dir, "--cache-dir", cache, "-j", "1", "-q", NULL};
  char *j2[] = {(char *)tagcheck, "-p", (char *)dir, "--cache-dir", cache, "-j", "2", "-q", NULL};
  run_stats f1 = best_of(NULL, NULL, &db, 0, 1, reps, NULL, NULL);
  run_stats f2 = best_of(NULL, NULL, &db, 0, 2, reps, NULL, NULL);
  run_stats fe = best_of(NULL, NULL, &db, 1, 1, reps, NULL, NULL);
  run_stats cold1 = best_of(tagcheck, j1, NULL, 0, 0, reps, cache, err_path);
  run_stats warm1 = best_of(tagcheck, j1, NULL, 0, 0, reps, NULL, err_path);
  run_stats cold2 = best_of(tagcheck, j2, NULL, 0, 0, reps, cache, err_path);
  run_stats warm2 = best_of(tagcheck, j2, NULL, 0, 0, reps, NULL, err_path);
  char cmd[3 * PATH_MAX];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", cache, err_path);
  if (system(cmd) != 0) fprintf(stderr, "bench: could not remove %s\n", cache);
  tc_compdb_free(&db);
  run_stats all[7] = {f1, f2, fe, cold1, warm1, cold2, warm2};
  for (int i = 0; i < 7; i++)
    if (failed(&all[i])) return 1;

  printf("                                      wall        CPU        peak RSS\n");
  printf("  libclang parse only, 1 thread     %8.3f s  %8.3f s  %6ld MiB (the floor)\n",
         f1.wall, f1.cpu, f1.maxrss_kb / 1024);
  printf("  libclang parse only, 2 threads    %8.3f s  %8.3f s  %6ld MiB (one process)\n",
         f2.wall, f2.cpu, f2.maxrss_kb / 1024);
  printf("  front end (parse+lower), 1 thread %8.3f s  %8.3f s  %6ld MiB (every unit's IR kept)\n",
         fe.wall, fe.cpu, fe.maxrss_kb / 1024);
  const run_stats *tc[4] = {&cold1, &warm1, &cold2, &warm2};
  const char *label[4] = {"-j 1, cold cache", "-j 1, warm cache", "-j 2, cold cache",
                          "-j 2, warm cache"};
  for (int i = 0; i < 4; i++)
    printf("  tagcheck %-24s %8.3f s  %8.3f s  main %ld MiB, unit worker %ld MiB, largest child "
           "%ld MiB\n",
           label[i], tc[i]->wall, tc[i]->cpu, tc[i]->main_kb / 1024, tc[i]->worker_kb / 1024,
           tc[i]->child_kb / 1024);
  double r1 = cold1.wall / f1.wall, r2 = cold2.wall / f2.wall, speedup = cold1.wall / cold2.wall;
  double cached1 = warm1.wall / cold1.wall, cached2 = warm2.wall / cold2.wall;
  long worker = cold1.worker_kb > cold2.worker_kb ? cold1.worker_kb : cold2.worker_kb;
  long child = cold1.child_kb > cold2.child_kb ? cold1.child_kb : cold2.child_kb;
  double mem = (double)worker / (double)(f1.maxrss_kb ? f1.maxrss_kb : 1);
  double mem_child = (double)child / (double)(f1.maxrss_kb ? f1.maxrss_kb : 1);
  printf("  front end / parse floor (CPU)            %5.2fx  (lowering's own cost)\n",
         fe.cpu / f1.cpu);
  printf("  ratio tagcheck -j 1 / parse floor        %5.2fx  (target <= 1.30x: %s)\n", r1,
         verdict(r1 <= 1.3));
  printf("  ratio tagcheck -j 2 / 2-thread floor     %5.2fx  (target <= 1.30x: %s)\n", r2,
         verdict(r2 <= 1.3));
  printf("  CPU time tagcheck -j 1 / parse floor     %5.2fx  (the same ratio, immune to a busy machine)\n",
         cold1.cpu / f1.cpu);
  printf("  speed-up -j 2 over -j 1                  %5.2fx  (target >= 1.60x: %s)\n", speedup,
         verdict(speedup >= 1.6));
  printf("  warm cache / cold run, -j 1; -j 2        %5.1f%%; %.1f%%  (target < 10%%: %s)\n",
         100 * cached1, 100 * cached2, verdict(cached1 < 0.10 && cached2 < 0.10));
  printf("  peak RSS unit worker / parse floor       %5.2fx  (target <= 2x: %s)\n", mem,
         verdict(mem <= 2.0));
  printf("  peak RSS largest child / parse floor     %5.2fx  (the analysis's process)\n",
         mem_child);
  print_load();
  return 0;
}
