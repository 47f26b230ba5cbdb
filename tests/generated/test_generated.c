/* tests/generated/test_generated.c — generated C through the tagcheck binary: csmith programs
 * (Debian's csmith; TC_CSMITH_COUNT programs from seed TC_CSMITH_SEED, 4 from seed 1 by default)
 * analyzed as they are and with a dt probe appended that the analyzer must still find; and
 * mutated copies of every corpus program (lines deleted, duplicated and swapped, bytes cut,
 * tokens inserted, API names and kinds exchanged, files truncated), analyzed together through
 * one compile database. Whatever the input: no crash, no hang (a time limit per unit), exit 0, 1
 * or 3. A failing mutant is re-run alone and named, so it can be kept as a regression. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hx_util.h"

#define UNIT_LIMIT 60 /* seconds per unit */

static int env_int(const char *name, int fallback) {
  const char *s = getenv(name);
  return s && *s ? atoi(s) : fallback;
}

static int acceptable(const hx_result *r) {
  return !r->timed_out && (r->status == 0 || r->status == 1 || r->status == 3);
}

/* ---- csmith ---- */

static const char k_probe[] =
    "\n/* appended by tests/generated: a mismatch on one branch (a warning) */\n"
    "void tc_generated_probe(int c) {\n"
    "  dt_device d = c ? dt_cpu() : dt_sim(0);\n"
    "  dt_tensor *a = dt_ones(d, DT_FLOAT, 0, 0);\n"
    "  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
    "  dt_free(dt_add(a, b));\n"
    "}\n";

static void test_csmith(void **state) {
  (void)state;
  int count = env_int("TC_CSMITH_COUNT", 4), first = env_int("TC_CSMITH_SEED", 1);
  char dir[256];
  hx_mkdtemp(dir);
  char *inc_rt = hx_fmt("-I%s", hx_runtime_include());
  for (int seed = first; seed < first + count; seed++) {
    char *plain = hx_fmt("%s/csmith_%d.c", dir, seed), *seed_s = hx_fmt("%d", seed);
    const char *gen[] = {"/usr/bin/csmith", "--seed", seed_s, "--max-funcs", "6", "-o", plain, NULL};
    hx_result r;
    hx_run_limit(gen, dir, 0, UNIT_LIMIT, &r);
    if (r.status != 0) fail_msg("csmith --seed %d failed (is csmith installed?): %s", seed, r.err);
    hx_result_free(&r);

    /* As generated. */
    const char *args[] = {hx_tagcheck_path(), "--no-cache", plain, "--", "-I/usr/include/csmith", NULL};
    hx_run_limit(args, dir, 0, UNIT_LIMIT, &r);
    if (!acceptable(&r)) fail_msg("csmith seed %d: exit %d%s\n%s", seed, r.status,
                                  r.timed_out ? " (timed out)" : "", r.err);
    hx_result_free(&r);

    /* With dt included first and a probe appended: the probe's finding must be reported. */
    size_t len;
    char *text = hx_read(plain, &len);
    assert_non_null(text);
    char *mixed = hx_fmt("#include <dt/dt.h>\n%s%s", text, k_probe);
    char *name = hx_fmt("csmith_%d_dt.c", seed);
    char *path = hx_write_str(dir, name, mixed);
    const char *args2[] = {hx_tagcheck_path(), "--no-cache", path, "--", "-I/usr/include/csmith",
                           inc_rt, NULL};
    hx_run_limit(args2, dir, 0, UNIT_LIMIT, &r);
    if (r.timed_out || r.status != 1 || strstr(r.out, "[backend-mismatch]") == NULL)
      fail_msg("csmith seed %d with the dt probe: exit %d%s, expected the probe's warning\n%s%s",
               seed, r.status, r.timed_out ? " (timed out)" : "", r.out, r.err);
    hx_result_free(&r);
    printf("csmith seed %d: analyzed as generated and with the dt probe\n", seed);
    free(text);
    free(mixed);
    free(name);
    free(path);
    free(plain);
    free(seed_s);
  }
  free(inc_rt);
  hx_rmtree(dir);
}

/* ---- mutated corpus programs ---- */

typedef struct rng {
  uint64_t s;
} rng;

static uint32_t next(rng *r) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(r->s >> 33);
}

static size_t below(rng *r, size_t n) { return n ? next(r) % n : 0; }

/* A growable byte string. */
typedef struct buf {
  char *p;
  size_t n;
} buf;

static void splice(buf *b, size_t at, size_t del, const char *ins, size_t ins_n) {
  char *p = malloc(b->n - del + ins_n + 1);
  assert_non_null(p);
  memcpy(p, b->p, at);
  memcpy(p + at, ins, ins_n);
  memcpy(p + at + ins_n, b->p + at + del, b->n - at - del);
  b->n = b->n - del + ins_n;
  p[b->n] = '\0';
  free(b->p);
  b->p = p;
}

/* Start of the line containing offset at, and its length with the newline. */
static void line_at(const buf *b, size_t at, size_t *start, size_t *len) {
  size_t s = at;
  while (s > 0 && b->p[s - 1] != '\n') s--;
  size_t e = at;
  while (e < b->n && b->p[e] != '\n') e++;
  if (e < b->n) e++;
  *start = s;
  *len = e - s;
}

static const char *const k_tokens[] = {"{", "}", "(", ")", ";", ",", "*", "&", "dt_sim(1)",
                                       "dt_autodiff(", "NULL", "goto L;", "L: ", "return ",
                                       "0x7fffffff", "\"", "'", "/*", "#if 1\n", "\n#endif\n",
                                       "dt_free(", "[-1]", "->x", "static ", "..."};
static const char *const k_swaps[][2] = {{"dt_cpu()", "dt_sim(1)"}, {"dt_sim(0)", "dt_cpu()"},
                                         {"dt_add", "dt_matmul"}, {"DT_FLOAT", "DT_BOOL"},
                                         {"DT_INT", "DT_FLOAT"}, {"dt_autodiff(", "("},
                                         {"dt_free", "dt_detach"}, {"if (", "while ("}};

static void mutate_once(buf *b, rng *r) {
  if (b->n == 0) return;
  size_t at = below(r, b->n), s, l;
  switch (below(r, 8)) {
    case 0: /* delete a line */
      line_at(b, at, &s, &l);
      splice(b, s, l, "", 0);
      break;
    case 1: { /* duplicate a line */
      line_at(b, at, &s, &l);
      char *copy = strndup(b->p + s, l);
      splice(b, s, 0, copy, l);
      free(copy);
      break;
    }
    case 2: { /* move a line elsewhere */
      line_at(b, at, &s, &l);
      char *copy = strndup(b->p + s, l);
      splice(b, s, l, "", 0);
      size_t to, tl;
      line_at(b, below(r, b->n), &to, &tl);
      splice(b, to, 0, copy, l);
      free(copy);
      break;
    }
    case 3: { /* cut a few bytes */
      size_t cut = 1 + below(r, 20);
      splice(b, at, cut > b->n - at ? b->n - at : cut, "", 0);
      break;
    }
    case 4: { /* insert a token */
      const char *t = k_tokens[below(r, sizeof k_tokens / sizeof k_tokens[0])];
      splice(b, at, 0, t, strlen(t));
      break;
    }
    case 5:
    case 6: { /* exchange an API name or kind (still C, different tags) */
      const char *const *sw = k_swaps[below(r, sizeof k_swaps / sizeof k_swaps[0])];
      int dir = (int)below(r, 2);
      const char *from = sw[dir], *to = sw[!dir];
      char *hit = strstr(b->p + at, from);
      if (hit == NULL) hit = strstr(b->p, from);
      if (hit != NULL) splice(b, (size_t)(hit - b->p), strlen(from), to, strlen(to));
      break;
    }
    default: /* truncate */
      b->n = at;
      b->p[at] = '\0';
      break;
  }
}

/* Collects corpus/ *.c paths (sorted, recursive). */
static void collect(const char *dir, char ***v, size_t *n) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char *p = hx_fmt("%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect(p, v, n);
      free(p);
    } else if (strlen(e->d_name) > 2 && strcmp(e->d_name + strlen(e->d_name) - 2, ".c") == 0) {
      *v = realloc(*v, (*n + 1) * sizeof **v);
      (*v)[(*n)++] = p;
    } else {
      free(p);
    }
  }
  closedir(d);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_mutated_corpus(void **state) {
  (void)state;
  int per_file = env_int("TC_MUTANTS_PER_FILE", 2);
  char **files = NULL;
  size_t n_files = 0;
  collect(hx_corpus_dir(), &files, &n_files);
  qsort(files, n_files, sizeof *files, by_name);
  assert_true(n_files >= 10);
  char dir[256];
  hx_mkdtemp(dir);
  char *db = hx_fmt("[\n");
  size_t units = 0;
  for (size_t i = 0; i < n_files; i++) {
    size_t len;
    char *text = hx_read(files[i], &len);
    assert_non_null(text);
    char *src_dir = strdup(files[i]);
    *strrchr(src_dir, '/') = '\0';
    for (int k = 0; k < per_file; k++) {
      rng r = {0x9e3779b97f4a7c15ull ^ (i * 131 + (size_t)k)};
      buf b = {strdup(text), len};
      int rounds = 1 + (int)below(&r, 3);
      for (int m = 0; m < rounds; m++) mutate_once(&b, &r);
      char *name = hx_fmt("mutant_%03zu_%d.c", i, k);
      free(hx_write(dir, name, b.p, b.n));
      char *entry = hx_fmt("%s{\"directory\": \"%s\", \"arguments\": [\"cc\", \"-I%s\", \"-I%s\", "
                           "\"-c\", \"%s\"], \"file\": \"%s\"}\n",
                           units ? "," : "", dir, hx_runtime_include(), src_dir, name, name);
      char *grown = hx_fmt("%s%s", db, entry);
      free(db);
      free(entry);
      db = grown;
      units++;
      free(name);
      free(b.p);
    }
    free(src_dir);
    free(text);
  }
  char *tail = hx_fmt("%s]\n", db);
  free(db);
  free(hx_write_str(dir, "compile_commands.json", tail));
  free(tail);

  const char *args[] = {hx_tagcheck_path(), "--no-cache", "-q", "-j", "2", "-p", dir, NULL};
  hx_result r;
  hx_run_limit(args, dir, 0, (int)(UNIT_LIMIT + units), &r);
  printf("%zu mutants of %zu corpus programs: exit %d\n", units, n_files, r.status);
  if (!acceptable(&r)) {
    /* Name the culprit: each mutant alone, with the per-unit limit. */
    for (size_t u = 0; u < units; u++) {
      char *name = hx_fmt("%s/mutant_%03zu_%d.c", dir, u / (size_t)per_file, (int)(u % (size_t)per_file));
      const char *one[] = {hx_tagcheck_path(), "--no-cache", "-q", "-p", dir, name, NULL};
      hx_result r1;
      hx_run_limit(one, dir, 0, UNIT_LIMIT, &r1);
      if (!acceptable(&r1))
        printf("FAILING MUTANT (keep it under tests/generated/regressions/): %s: exit %d%s\n%s\n",
               name, r1.status, r1.timed_out ? " (timed out)" : "", r1.err);
      hx_result_free(&r1);
      free(name);
    }
    fail_msg("mutated corpus: exit %d%s\n%.3000s", r.status, r.timed_out ? " (timed out)" : "",
             r.err);
  }
  hx_result_free(&r);
  hx_rmtree(dir);
  for (size_t i = 0; i < n_files; i++) free(files[i]);
  free(files);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_csmith),
      cmocka_unit_test(test_mutated_corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
