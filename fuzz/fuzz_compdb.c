/* fuzz/fuzz_compdb.c — libFuzzer harness for the compile database reader (tc_compdb_parse, and
 * through it the shell splitter and the argument filter): any bytes either give entries with
 * absolute paths that can be looked up and copied, or fail with a message naming the file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compdb.h"

#define FUZZ_DB_DIR "/nonexistent-tagcheck-fuzz"
#define FUZZ_DB_PATH FUZZ_DB_DIR "/compile_commands.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[1024];
  err[0] = '\0';
  tc_compdb db;
  memset(&db, 0, sizeof db);
  if (tc_compdb_parse((const char *)data, size, FUZZ_DB_PATH, FUZZ_DB_DIR, &db, err,
                      sizeof err) != 0) {
    if (strncmp(err, FUZZ_DB_PATH, strlen(FUZZ_DB_PATH)) != 0) abort();
    tc_compdb_free(&db);
    return 0;
  }
  for (size_t i = 0; i < db.n; i++) {
    const tc_compile_cmd *c = &db.cmds[i];
    if (c->file == NULL || c->file[0] != '/' || c->directory == NULL || c->directory[0] != '/')
      abort();
    for (size_t k = 0; k < c->argc; k++)
      if (c->argv[k] == NULL) abort();
    size_t count = 0;
    if (tc_compdb_find(&db, c->file, &count) == NULL || count == 0) abort();
    tc_compile_cmd copy;
    if (tc_compile_cmd_copy(c, &copy) == 0) tc_compile_cmd_free(&copy);
  }
  tc_compdb_free(&db);

  /* The shell splitter on its own, over the same bytes as one command line. */
  char *line = malloc(size + 1);
  if (line == NULL) return 0;
  memcpy(line, data, size);
  line[size] = '\0';
  char **argv = NULL;
  size_t argc = 0;
  if (tc_shell_split(line, &argv, &argc) == 0) {
    if (argv == NULL || argv[argc] != NULL) abort();
    tc_argv_free(argv, argc);
  }
  free(line);
  return 0;
}
