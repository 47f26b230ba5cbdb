/* tests/hostile/hx_util.h — helpers for the hostile-input tests: scratch directories and files
 * (big inputs are generated at test time, never committed), running the real tagcheck binary
 * with a time limit and capturing its exit status, standard output and standard error, and
 * checks on what it printed. */
#ifndef HX_UTIL_H
#define HX_UTIL_H

#include <stddef.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

/* Seconds one tagcheck run may take before it counts as a hang. */
#define HX_TIME_LIMIT 120

typedef struct hx_result {
  int status;    /* exit status; 128 + signal when killed by one */
  int timed_out; /* killed after the time limit */
  char *out;     /* standard output (heap, NUL-terminated) */
  size_t out_len;
  char *err;     /* standard error */
} hx_result;

/* A fresh scratch directory under $TMPDIR (or /tmp); path is written to buf (>= 256 bytes). It
   and everything in it is removed by hx_rmtree. */
void hx_mkdtemp(char *buf);
void hx_rmtree(const char *dir);
/* dir/name (name may contain '/': missing directories are made); returns the path (heap). */
char *hx_write(const char *dir, const char *name, const char *data, size_t len);
char *hx_write_str(const char *dir, const char *name, const char *text);
/* A heap string, printf-style. */
char *hx_fmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The whole file (heap, NUL-terminated), or NULL. */
char *hx_read(const char *path, size_t *len);

/* Runs argv (argv[0] a path) in cwd (NULL: here) with the time limit; as_nobody drops root
   privileges first (to read permissions as an ordinary user would). */
void hx_run(const char *const *argv, const char *cwd, int as_nobody, hx_result *r);
/* The same with a time limit of its own (seconds). */
void hx_run_limit(const char *const *argv, const char *cwd, int as_nobody, int seconds,
                  hx_result *r);
void hx_result_free(hx_result *r);

/* Runs the tagcheck binary with the arguments (NULL-terminated) in cwd. */
void hx_tagcheck(hx_result *r, const char *cwd, ...);
/* The same with an argument vector. */
void hx_tagcheck_v(hx_result *r, const char *cwd, const char *const *args, size_t n);

/* Asserts: exit status (not a crash, not a hang), and text present in stderr / stdout. */
void hx_assert_status(const hx_result *r, int status);
void hx_assert_err_has(const hx_result *r, const char *text);
void hx_assert_out_has(const hx_result *r, const char *text);

/* The fixture of the tests that write sources into a fresh folder (cmocka setup and teardown):
   the folder, and -I<runtime/include> for the compile arguments. */
typedef struct hx_fixture {
  char dir[256];
  char *inc;
} hx_fixture;
int hx_fixture_setup(void **state);
int hx_fixture_teardown(void **state);

/* Paths compiled in by tests/hostile/CMakeLists.txt. */
const char *hx_tagcheck_path(void);
const char *hx_runtime_include(void);
const char *hx_rules_path(void);
const char *hx_corpus_dir(void);

#endif /* HX_UTIL_H */
