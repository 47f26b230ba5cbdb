/* tests/lsp/test_lsp_nvim.c — the language server proven in a real client: Neovim headless, set
 * up with editors/nvim/lua/tagcheck.lua, opens a fixture next to its compile_commands.json,
 * receives tagcheck's diagnostic (rule id, line, byte column after Neovim's own UTF-16
 * conversion, severity, source, documentation link), sees it vanish when the buffer is fixed
 * without saving, and stops the server cleanly (exit code 0). The Lua side writes facts to a
 * file; this test asserts on them against the fixture's `// expect-error:` annotation. Exits 77
 * (ctest: skipped, not passed) when nvim is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lsp_client.h"
#include "lsp_workspace.h"

#define NVIM_TIMEOUT_S 120

/* Runs nvim with the test's Lua config; returns its exit status, or -1 (timeout, signal). */
static int run_nvim(const char *ws_dir) {
  char config[512];
  snprintf(config, sizeof config, "%s/tests/lsp/nvim/run_tagcheck.lua", TC_SOURCE_DIR);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", 0);
    dup2(devnull, 0);
    if (chdir(ws_dir) != 0) _exit(126);
    execlp("nvim", "nvim", "--headless", "-n", "-i", "NONE", "-u", config, (char *)NULL);
    _exit(127);
  }
  double deadline = lsp_client_now_ms() + NVIM_TIMEOUT_S * 1000.0;
  int status;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (lsp_client_now_ms() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    nanosleep(&(struct timespec){0, 20 * 1000000}, NULL);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_neovim_receives_diagnostics(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"label_backend_bug.c", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, "."), 0);
  char path[512], out[512], xdg[512];
  lsp_workspace_path(&ws, "label_backend_bug.c", path, sizeof path);
  lsp_workspace_path(&ws, "facts.txt", out, sizeof out);
  lsp_workspace_path(&ws, "xdg", xdg, sizeof xdg);
  setenv("TAGCHECK_BIN", TC_TAGCHECK_BIN, 1);
  setenv("TAGCHECK_REPO", TC_SOURCE_DIR, 1);
  setenv("TAGCHECK_FILE", path, 1);
  setenv("TAGCHECK_OUT", out, 1);
  setenv("TAGCHECK_TIMEOUT_MS", "30000", 1);
  /* Neovim's logs and state stay inside the workspace. */
  setenv("XDG_CACHE_HOME", xdg, 1);
  setenv("XDG_STATE_HOME", xdg, 1);
  setenv("XDG_DATA_HOME", xdg, 1);
  setenv("XDG_CONFIG_HOME", xdg, 1);

  assert_int_equal(run_nvim(ws.dir), 0);
  char *facts = lsp_read_file(out, NULL);
  assert_non_null(facts);
  fprintf(stderr, "%s", facts);
  assert_null(strstr(facts, "lua-error"));
  assert_non_null(strstr(facts, "opened true\n"));

  unsigned line, byte_col, utf16_col;
  assert_int_equal(lsp_fixture_expect(path, "backend-mismatch", &line, &byte_col, &utf16_col), 0);
  assert_true(utf16_col < byte_col); /* the fixture has multi-byte text before the call */
  char want[256];
  /* code, 1-based line, byte column (Neovim converted our UTF-16 position), severity ERROR. */
  snprintf(want, sizeof want, "diag\tbackend-mismatch\t%u\t%u\t1\ttagcheck\thttp", line, byte_col);
  assert_non_null(strstr(facts, want));
  const char *first = strstr(facts, "diag\t");
  assert_null(strstr(first + 1, "diag\t")); /* exactly one finding */
  assert_non_null(strstr(facts, "#backend-mismatch\n"));
  assert_non_null(strstr(facts, "fixed-unsaved true modified true\n"));
  assert_non_null(strstr(facts, "server-exit 0\n"));
  free(facts);
  lsp_workspace_remove(&ws);
}

int main(void) {
  if (system("command -v nvim >/dev/null 2>&1") != 0) {
    fprintf(stderr, "nvim is not installed (scripts/install-deps.sh installs it): skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_neovim_receives_diagnostics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
