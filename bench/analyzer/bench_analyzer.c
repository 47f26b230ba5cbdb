/* bench/analyzer/bench_analyzer.c — tagcheck's speed against libclang's own parse of the same
 * units, measured in one run (SPEC §6, issues 6 and 12):
 *   floor      every unit of DIR/compile_commands.json parsed by clang_parseTranslationUnit2
 *              with exactly the arguments tagcheck uses, nothing else, serially (and on 2
 *              threads);
 *   tagcheck   `tagcheck -p DIR` with -j 1 and -j 2, no cache; then cold (empty cache) and warm
 *              (unchanged tree) runs with the cache;
 * and prints the ratios against the targets (<= 1.3x the floor, -j 2 >= 1.6x faster than -j 1,
 * a cached re-run < 10% of a cold one) plus each run's peak RSS. Each figure is the best of
 * --reps runs. Exit status 0 when every run worked (the targets are reported, not enforced).
 *
 *   bench_analyzer [--tagcheck PATH] [-p DIR] [--reps N] [--name LABEL] [--units N] [--quick]
 *
 * Without -p it generates the synthetic project (gen_project.py, --units, default 120; 12 with
 * --quick) in a temporary directory first; without --tagcheck it runs the tagcheck built next
 * to it. So `make bench` can run it with no arguments. */
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

static double cpu_self_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
         1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

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

/* Parses every unit on `threads` threads; returns the wall time (and the CPU time in *cpu), or
   -1 if no thread started. */
static double parse_floor(const tc_compdb *db, int threads, double *cpu) {
  floor_job j;
  j.db = db;
  atomic_init(&j.next, 0);
  atomic_init(&j.failures, 0);
  pthread_t t[16];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64u << 20);
  double t0 = now_s(), c0 = cpu_self_s();
  int started = 0;
  for (int i = 0; i < threads && i < 16; i++)
    if (pthread_create(&t[i], &attr, floor_worker, &j) == 0) started++;
  for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
  double dt = now_s() - t0;
  *cpu = cpu_self_s() - c0;
  pthread_attr_destroy(&attr);
  if (atomic_load(&j.failures)) fprintf(stderr, "bench: %d units did not parse\n", atomic_load(&j.failures));
  return started ? dt : -1;
}

/* tagcheck's front end in this process: parse and lower every unit on `threads` workers
   (what tagcheck does before its analysis). Returns the wall time, the CPU time in *cpu. */
static double front_end(const tc_compdb *db, int threads, double *cpu) {
  tc_job_unit *units = calloc(db->n ? db->n : 1, sizeof *units);
  if (!units) return -1;
  for (size_t i = 0; i < db->n; i++) units[i].cmd = &db->cmds[i];
  double t0 = now_s(), c0 = cpu_self_s();
  tc_jobs_opts jo = {.jobs = threads};
  int rc = tc_jobs_run(units, db->n, &jo);
  double dt = now_s() - t0;
  *cpu = cpu_self_s() - c0;
  for (size_t i = 0; i < db->n; i++) {
    tc_program_free(units[i].prog);
    free(units[i].failure);
  }
  free(units);
  return rc == 0 ? dt : -1;
}

typedef struct run_stats {
  double wall;
  double cpu;
  long maxrss_kb;
  int status;
} run_stats;

/* Runs tagcheck with args (NULL-terminated), stdout to /dev/null; wall time and peak RSS. */
static run_stats run_tagcheck(const char *tagcheck, char *const *args) {
  run_stats rs = {0, 0, 0, -1};
  fflush(stdout);
  fflush(stderr);
  double t0 = now_s();
  pid_t pid = fork();
  if (pid < 0) return rs;
  if (pid == 0) {
    FILE *devnull = freopen("/dev/null", "w", stdout);
    (void)devnull;
    execv(tagcheck, args);
    _exit(127);
  }
  int st = 0;
  struct rusage ru;
  if (wait4(pid, &st, 0, &ru) < 0) return rs;
  rs.wall = now_s() - t0;
  rs.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  rs.maxrss_kb = ru.ru_maxrss;
  rs.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return rs;
}

static run_stats best_of(const char *tagcheck, char *const *args, int reps, const char *clear_dir) {
  run_stats best = {1e30, 1e30, 0, -1};
  for (int r = 0; r < reps; r++) {
    if (clear_dir) {
      char cmd[4096];
      snprintf(cmd, sizeof cmd, "rm -rf '%s'", clear_dir);
      if (system(cmd) != 0) fprintf(stderr, "bench: could not clear %s\n", clear_dir);
    }
    run_stats rs = run_tagcheck(tagcheck, args);
    if (rs.status == 3) fprintf(stderr, "bench: note: a unit could not be analyzed (status 3)\n");
    if (rs.status < 0 || (rs.status > 1 && rs.status != 3)) {
      fprintf(stderr, "bench: tagcheck exited with status %d\n", rs.status);
      return rs;
    }
    if (rs.wall < best.wall) {
      double cpu = best.cpu < rs.cpu ? best.cpu : rs.cpu;
      best = rs;
      best.cpu = cpu;
    } else if (rs.cpu < best.cpu) {
      best.cpu = rs.cpu;
    }
  }
  return best;
}

static const char *verdict(int ok) { return ok ? "meets target" : "MISSES target"; }

static int measure(const char *tagcheck, const char *dir, const char *name, int reps);

int main(int argc, char **argv) {
  const char *tagcheck = NULL, *dir = NULL, *name = "project";
  int reps = 3, units = 120;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tagcheck") && i + 1 < argc) tagcheck = argv[++i];
    else if (!strcmp(argv[i], "-p") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--units") && i + 1 < argc) units = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
    else if (!strcmp(argv[i], "--quick")) {
      units = 12;
      reps = 1;
    } else {
      fprintf(stderr, "usage: bench_analyzer [--tagcheck PATH] [-p DIR] [--reps N] [--units N] "
                      "[--name LABEL] [--quick]\n");
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
  tmp_base[0] = '\0';
  if (!dir) { /* generate the synthetic project */
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_base, sizeof tmp_base, "%s/tc_bench_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmp_base)) {
      fprintf(stderr, "bench: cannot create a temporary directory\n");
      return 2;
    }
    char cmd[3 * PATH_MAX];
    snprintf(gen_dir, sizeof gen_dir, "%s/project", tmp_base);
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' --units %d --include '%s' >&2",
             TC_BENCH_GENERATOR, gen_dir, units, TC_BENCH_DT_INCLUDE);
    if (system(cmd) != 0) {
      fprintf(stderr, "bench: the project generator failed\n");
      return 2;
    }
    dir = gen_dir;
    name = "generated project";
  }
  int rc = measure(tagcheck, dir, name, reps);
  if (tmp_base[0]) { /* remove the generated project */
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_base);
    if (system(cmd) != 0) fprintf(stderr, "bench: could not remove %s\n", tmp_base);
  }
  return rc;
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

  double floor1 = 1e30, floor2 = 1e30, floor_cpu = 1e30;
  for (int r = 0; r < reps; r++) {
    double c1, c2;
    double a = parse_floor(&db, 1, &c1), b = parse_floor(&db, 2, &c2);
    if (a < 0 || b < 0) return 1;
    if (a < floor1) floor1 = a;
    if (b < floor2) floor2 = b;
    if (c1 < floor_cpu) floor_cpu = c1;
    if (c2 < floor_cpu) floor_cpu = c2;
  }
  double fe1 = 1e30, fe2 = 1e30, fe_cpu = 1e30;
  for (int r = 0; r < reps; r++) {
    double c1, c2;
    double a = front_end(&db, 1, &c1), b = front_end(&db, 2, &c2);
    if (a < 0 || b < 0) return 1;
    if (a < fe1) fe1 = a;
    if (b < fe2) fe2 = b;
    if (c1 < fe_cpu) fe_cpu = c1;
  }
  char cache[PATH_MAX + 64];
  snprintf(cache, sizeof cache, "%.*s/.tagcheck-bench-cache", PATH_MAX, dir);
  char *j1[] = {(char *)tagcheck, "-p", (char *)dir, "--no-cache", "-j", "1", "-q", NULL};
  char *j2[] = {(char *)tagcheck, "-p", (char *)dir, "--no-cache", "-j", "2", "-q", NULL};
  char *cached[] = {(char *)tagcheck, "-p", (char *)dir, "--cache-dir", cache, "-j", "2", "-q",
                    NULL};
  /* memory of the front end alone (no analysis): what one more worker costs */
  char *fe_j1[] = {(char *)tagcheck, "-p", (char *)dir, "--no-cache", "--dump-ir", "-o",
                   "/dev/null", "-j", "1", "-q", NULL};
  char *fe_j2[] = {(char *)tagcheck, "-p", (char *)dir, "--no-cache", "--dump-ir", "-o",
                   "/dev/null", "-j", "2", "-q", NULL};
  run_stats m1 = best_of(tagcheck, fe_j1, 1, NULL);
  run_stats m2 = best_of(tagcheck, fe_j2, 1, NULL);
  run_stats s1 = best_of(tagcheck, j1, reps, NULL);
  run_stats s2 = best_of(tagcheck, j2, reps, NULL);
  run_stats cold = best_of(tagcheck, cached, reps, cache);
  run_stats warm = best_of(tagcheck, cached, reps, NULL);
  char cmd[PATH_MAX + 128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  if (system(cmd) != 0) fprintf(stderr, "bench: could not remove %s\n", cache);
  tc_compdb_free(&db);
  run_stats all[4] = {s1, s2, cold, warm};
  for (int i = 0; i < 4; i++)
    if (all[i].status < 0 || (all[i].status > 1 && all[i].status != 3)) return 1;

  printf("                                      wall        CPU\n");
  printf("  libclang parse only, 1 thread     %8.3f s  %8.3f s\n", floor1, floor_cpu);
  printf("  libclang parse only, 2 threads    %8.3f s\n", floor2);
  printf("  front end (parse+lower), 1 thread %8.3f s  %8.3f s\n", fe1, fe_cpu);
  printf("  front end (parse+lower), 2 threads%8.3f s\n", fe2);
  printf("  tagcheck -j 1 (no cache)          %8.3f s  %8.3f s   peak RSS %6ld MiB\n", s1.wall,
         s1.cpu, s1.maxrss_kb / 1024);
  printf("  tagcheck -j 2 (no cache)          %8.3f s  %8.3f s   peak RSS %6ld MiB\n", s2.wall,
         s2.cpu, s2.maxrss_kb / 1024);
  printf("  tagcheck -j 2, cold cache         %8.3f s  %8.3f s   peak RSS %6ld MiB\n",
         cold.wall, cold.cpu, cold.maxrss_kb / 1024);
  printf("  tagcheck -j 2, warm cache         %8.3f s  %8.3f s   peak RSS %6ld MiB\n",
         warm.wall, warm.cpu, warm.maxrss_kb / 1024);
  double r1 = s1.wall / floor1, r2 = s2.wall / floor2, speedup = s1.wall / s2.wall;
  double cached_ratio = warm.wall / cold.wall;
  printf("  front end / parse floor (CPU)            %5.2fx  (lowering's own cost)\n",
         fe_cpu / floor_cpu);
  printf("  front end speed-up on 2 threads          %5.2fx\n", fe1 / fe2);
  printf("  ratio tagcheck -j 1 / parse floor        %5.2fx  (target <= 1.30x: %s)\n", r1,
         verdict(r1 <= 1.3));
  printf("  ratio tagcheck -j 2 / 2-thread floor     %5.2fx  (target <= 1.30x: %s)\n", r2,
         verdict(r2 <= 1.3));
  printf("  speed-up -j 2 over -j 1                  %5.2fx  (target >= 1.60x: %s)\n", speedup,
         verdict(speedup >= 1.6));
  printf("  warm cache / cold run                    %5.1f%%  (target < 10%%: %s)\n",
         100 * cached_ratio, verdict(cached_ratio < 0.10));
  printf("  CPU time tagcheck -j 1 / parse floor     %5.2fx  (the same ratio, immune to a busy machine)\n",
         s1.cpu / floor_cpu);
  printf("  front end only: peak RSS -j 1 %ld MiB, -j 2 %ld MiB: a worker costs about %ld MiB\n",
         m1.maxrss_kb / 1024, m2.maxrss_kb / 1024,
         (m2.maxrss_kb > m1.maxrss_kb ? m2.maxrss_kb - m1.maxrss_kb : 0) / 1024);
  return 0;
}
