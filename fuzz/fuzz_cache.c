/* fuzz/fuzz_cache.c — libFuzzer harness for the analysis cache's entry formats: the first byte
 * picks a unit entry (.tcc) or a results entry (.tcr); the rest, with a valid checksum appended
 * (so the fuzzer reaches the decoder behind it), is written where the cache looks and read
 * back, then once more as they are (no checksum fixed up). Any bytes either miss or give a
 * program / findings with a digest, never a crash, a leak or a hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/cache.h"
#include "base/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The cache folder and the compile command of every input (one process, made once). */
typedef struct fuzz_env {
  char dir[64];
  tc_compile_cmd cmd;
  char *entry; /* the unit entry's path for cmd */
} fuzz_env;

static void write_bytes(const char *path, const uint8_t *p, size_t n, int fix_checksum) {
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (n) fwrite(p, 1, n, f);
  if (fix_checksum) {
    uint64_t sum = tc_fnv64(TC_FNV_INIT, p, n);
    unsigned char s[8];
    for (int i = 0; i < 8; i++) s[i] = (unsigned char)(sum >> (8 * i));
    fwrite(s, 1, 8, f);
  }
  fclose(f);
}

static char fuzz_dir[64]; /* the harness's scratch folder, removed at exit */

static void remove_dir(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", fuzz_dir);
  if (system(cmd) != 0) fprintf(stderr, "fuzz_cache: could not remove %s\n", fuzz_dir);
}

static fuzz_env *env_get(void) {
  static fuzz_env *env; /* the harness's own, made on the first input */
  if (env) return env;
  env = calloc(1, sizeof *env);
  if (!env) abort();
  snprintf(env->dir, sizeof env->dir, "/tmp/tagcheck-fuzz-cache-%ld", (long)getpid());
  memcpy(fuzz_dir, env->dir, sizeof fuzz_dir);
  atexit(remove_dir);
  const char *args[] = {"-DFUZZ=1"};
  if (tc_compile_cmd_from_args("/nonexistent-fuzz/u.c", args, 1, "/nonexistent-fuzz",
                               &env->cmd) != 0)
    abort();
  /* learn the entry's name by storing an empty program for cmd */
  tc_cache *c = tc_cache_open(env->dir);
  tc_program *p = tc_program_new();
  tc_unit_inputs in = {NULL, 0, NULL, 0};
  tc_cache_store(c, &env->cmd, p, NULL, &in);
  tc_program_free(p);
  tc_cache_close(c);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "ls %s/*.tcc", env->dir);
  FILE *ls = popen(cmd, "r");
  char line[512];
  if (!ls || !fgets(line, sizeof line, ls)) abort();
  pclose(ls);
  line[strcspn(line, "\n")] = '\0';
  env->entry = strdup(line);
  return env;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  fuzz_env *env = env_get();
  int results = data[0] & 1;
  const uint8_t *p = data + 1;
  size_t n = size - 1;
  char path[256];
  if (results) snprintf(path, sizeof path, "%s/results-%016llx.tcr", env->dir, 7ull);
  else snprintf(path, sizeof path, "%s", env->entry);
  for (int fix = 1; fix >= 0; fix--) {
    write_bytes(path, p, n, fix);
    tc_cache *c = tc_cache_open(env->dir);
    int hit;
    if (results) {
      tc_report r;
      tc_report_init(&r);
      hit = tc_cache_load_results(c, 7, &r) == 0;
      tc_report_free(&r);
    } else {
      char *failure = NULL;
      uint64_t digest = 0;
      char **deps = NULL;
      size_t n_deps = 0;
      tc_program *prog = tc_cache_lookup(c, &env->cmd, &failure, &digest, &deps, &n_deps);
      hit = prog != NULL;
      for (size_t i = 0; i < n_deps; i++) free(deps[i]);
      free(deps);
      if (hit && digest == 0) abort();
      tc_program_free(prog);
      free(failure);
    }
    tc_cache_close(c);
    (void)hit;
  }
  return 0;
}
