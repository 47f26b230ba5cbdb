/* tests/hostile/hx_util.c — scratch files, running tagcheck with a time limit, output checks
 * (hx_util.h). */
#include "hx_util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *hx_tagcheck_path(void) { return HX_TAGCHECK; }
const char *hx_runtime_include(void) { return HX_RUNTIME_INCLUDE; }
const char *hx_rules_path(void) { return HX_RULES; }
const char *hx_corpus_dir(void) { return HX_CORPUS; }

char *hx_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  assert_true(n >= 0);
  return s;
}

void hx_mkdtemp(char *buf) {
  const char *tmp = getenv("TMPDIR");
  snprintf(buf, 256, "%s/tagcheck-hostile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  assert_non_null(mkdtemp(buf));
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_DP) return rmdir(path);
  chmod(path, 0600);
  return unlink(path);
}

void hx_rmtree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static void mkdirs_for(const char *path) {
  char *copy = strdup(path);
  assert_non_null(copy);
  for (char *p = copy + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(copy, 0755) != 0 && errno != EEXIST) fail_msg("mkdir %s: %s", copy, strerror(errno));
    *p = '/';
  }
  free(copy);
}

char *hx_write(const char *dir, const char *name, const char *data, size_t len) {
  char *path = hx_fmt("%s/%s", dir, name);
  mkdirs_for(path);
  FILE *f = fopen(path, "wb");
  if (f == NULL) fail_msg("cannot write %s: %s", path, strerror(errno));
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
  return path;
}

char *hx_write_str(const char *dir, const char *name, const char *text) {
  return hx_write(dir, name, text, strlen(text));
}

char *hx_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap + 1);
  assert_non_null(buf);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
      assert_non_null(buf);
    }
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

void hx_run(const char *const *argv, const char *cwd, int as_nobody, hx_result *r) {
  hx_run_limit(argv, cwd, as_nobody, HX_TIME_LIMIT, r);
}

void hx_run_limit(const char *const *argv, const char *cwd, int as_nobody, int seconds,
                  hx_result *r) {
  memset(r, 0, sizeof *r);
  char dir[256];
  hx_mkdtemp(dir);
  if (as_nobody) chmod(dir, 0777);
  char *out_path = hx_fmt("%s/stdout", dir), *err_path = hx_fmt("%s/stderr", dir);
  /* an ordinary user may not enter the folder of the binary (a checkout under /root): run a
     copy of it from the scratch folder */
  char *exe = NULL;
  if (as_nobody) {
    size_t len;
    char *bin = hx_read(argv[0], &len);
    assert_non_null(bin);
    exe = hx_write(dir, "exe", bin, len);
    free(bin);
    assert_int_equal(chmod(exe, 0755), 0);
  }
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0) _exit(125);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (cwd != NULL && chdir(cwd) != 0) _exit(125);
    if (as_nobody && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(125);
    execv(exe ? exe : argv[0], (char *const *)argv);
    _exit(126);
  }
  int wstatus = 0;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    assert_int_equal(w, 0);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      r->timed_out = 1;
      break;
    }
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  r->out = hx_read(out_path, &r->out_len);
  r->err = hx_read(err_path, NULL);
  assert_non_null(r->out);
  assert_non_null(r->err);
  free(out_path);
  free(exe);
  free(err_path);
  hx_rmtree(dir);
}

void hx_result_free(hx_result *r) {
  free(r->out);
  free(r->err);
  memset(r, 0, sizeof *r);
}

void hx_tagcheck_v(hx_result *r, const char *cwd, const char *const *args, size_t n) {
  const char **argv = calloc(n + 2, sizeof *argv);
  assert_non_null(argv);
  argv[0] = hx_tagcheck_path();
  for (size_t i = 0; i < n; i++) argv[i + 1] = args[i];
  hx_run(argv, cwd, 0, r);
  free(argv);
}

void hx_tagcheck(hx_result *r, const char *cwd, ...) {
  const char *args[64];
  size_t n = 0;
  va_list ap;
  va_start(ap, cwd);
  const char *a;
  while ((a = va_arg(ap, const char *)) != NULL) {
    assert_true(n < 64);
    args[n++] = a;
  }
  va_end(ap);
  hx_tagcheck_v(r, cwd, args, n);
}

static void show(const hx_result *r) {
  fprintf(stderr, "--- exit status %d%s\n--- stderr:\n%.4000s\n--- stdout:\n%.4000s\n", r->status,
          r->timed_out ? " (timed out)" : "", r->err, r->out);
}

void hx_assert_status(const hx_result *r, int status) {
  if (r->timed_out || r->status != status) {
    show(r);
    fail_msg("expected exit status %d", status);
  }
}

void hx_assert_err_has(const hx_result *r, const char *text) {
  if (strstr(r->err, text) == NULL) {
    show(r);
    fail_msg("stderr lacks \"%s\"", text);
  }
}

void hx_assert_out_has(const hx_result *r, const char *text) {
  if (strstr(r->out, text) == NULL) {
    show(r);
    fail_msg("stdout lacks \"%s\"", text);
  }
}

int hx_fixture_setup(void **state) {
  hx_fixture *fx = calloc(1, sizeof *fx);
  if (!fx) return -1;
  hx_mkdtemp(fx->dir);
  fx->inc = hx_fmt("-I%s", hx_runtime_include());
  *state = fx;
  return 0;
}

int hx_fixture_teardown(void **state) {
  hx_fixture *fx = *state;
  hx_rmtree(fx->dir);
  free(fx->inc);
  free(fx);
  return 0;
}
