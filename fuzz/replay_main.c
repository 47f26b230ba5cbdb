/* fuzz/replay_main.c — main() for the fuzz harnesses outside libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named (a directory: on each file in it, in name
 * order), so an ordinary build (gcc; plain or with -DTC_SANITIZE=ON) replays the seed corpora
 * and every crasher kept under fuzz/regressions/ as ctest tests. Fails when it found no input
 * at all, so a test cannot pass by replaying nothing. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  size_t len = 0, cap = 4096;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *bigger = realloc(buf, cap * 2);
      if (bigger == NULL) free(buf);
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", path);
    return -1;
  }
  printf("replaying %s (%zu bytes)\n", path, len);
  fflush(stdout);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays path (a file, or every regular file of a directory); returns the count, -1 on error. */
static long replay_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    perror(path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) return replay_file(path) == 0 ? 1 : -1;
  DIR *d = opendir(path);
  if (d == NULL) {
    perror(path);
    return -1;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ".", "..", hidden files (.gitkeep) */
    char **grown = realloc(names, (n + 1) * sizeof *names);
    if (grown == NULL) break;
    names = grown;
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[n] = malloc(len);
    if (names[n] == NULL) break;
    snprintf(names[n], len, "%s/%s", path, e->d_name);
    n++;
  }
  closedir(d);
  if (n > 0) qsort(names, n, sizeof *names, by_name); /* names is NULL when n is 0 */
  long count = 0;
  for (size_t i = 0; i < n; i++) {
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      if (replay_file(names[i]) != 0) count = -1;
      else if (count >= 0) count++;
    }
    free(names[i]);
  }
  free(names);
  return count;
}

int main(int argc, char **argv) {
  long total = 0;
  for (int i = 1; i < argc; i++) {
    long n = replay_path(argv[i]);
    if (n < 0) return 1;
    total += n;
  }
  if (total == 0) {
    fprintf(stderr, "no input to replay\n");
    return 1;
  }
  printf("%ld passed, 0 failed\n", total);
  return 0;
}
