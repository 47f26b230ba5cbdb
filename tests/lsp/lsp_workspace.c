/* tests/lsp/lsp_workspace.c — temporary fixture projects and fixture annotations for the editor
 * tests (see lsp_workspace.h). TC_LSP_FIXTURES and TC_RUNTIME_INCLUDE come from CMake. */
#include "lsp_workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "annotations.h"
#include "lsp_client.h"

static int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(text, 1, len, f) == len;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

int lsp_workspace_create(lsp_workspace *ws, const char *const *fixtures, const char *compdb_dir) {
  return lsp_workspace_create_from(ws, TC_LSP_FIXTURES, fixtures, compdb_dir);
}

int lsp_workspace_create_from(lsp_workspace *ws, const char *src_dir, const char *const *fixtures,
                              const char *compdb_dir) {
  return lsp_workspace_create_with(ws, src_dir, fixtures, compdb_dir, TC_RUNTIME_INCLUDE);
}

int lsp_workspace_create_with(lsp_workspace *ws, const char *src_dir, const char *const *fixtures,
                              const char *compdb_dir, const char *include_dir) {
  memset(ws, 0, sizeof *ws);
  snprintf(ws->dir, sizeof ws->dir, "/tmp/tc-lsp-ws-XXXXXX");
  if (!mkdtemp(ws->dir)) return -1;
  cJSON *db = cJSON_CreateArray();
  for (size_t i = 0; fixtures[i] && ws->n_files < 14; i++) {
    char src[512], dst[512];
    snprintf(src, sizeof src, "%s/%s", src_dir, fixtures[i]);
    snprintf(dst, sizeof dst, "%s/%s", ws->dir, fixtures[i]);
    size_t len;
    char *text = lsp_read_file(src, &len);
    if (!text || write_file(dst, text, len) != 0) {
      free(text);
      cJSON_Delete(db);
      return -1;
    }
    free(text);
    ws->files[ws->n_files++] = strdup(dst);
    size_t n = strlen(fixtures[i]);
    if (n > 2 && strcmp(fixtures[i] + n - 2, ".c") == 0) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "directory", ws->dir);
      cJSON_AddStringToObject(e, "file", fixtures[i]);
      const char *args[] = {"cc", "-std=c11", "-I", include_dir, "-c", fixtures[i]};
      cJSON_AddItemToObject(e, "arguments", cJSON_CreateStringArray(args, 6));
      cJSON_AddItemToArray(db, e);
    }
  }
  if (compdb_dir) {
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/%s", ws->dir, compdb_dir);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    char *text = cJSON_Print(db);
    int rc = text ? write_file(path, text, strlen(text)) : -1;
    free(text);
    if (rc != 0) {
      cJSON_Delete(db);
      return -1;
    }
    ws->files[ws->n_files++] = strdup(path);
  }
  cJSON_Delete(db);
  return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st;
  (void)type;
  (void)ftw;
  return remove(path) == 0 ? 0 : -1;
}

void lsp_workspace_remove(lsp_workspace *ws) {
  for (size_t i = 0; i < ws->n_files; i++) free(ws->files[i]);
  ws->n_files = 0;
  /* Everything below the folder, whatever the tests and clients (editor logs) left there. */
  if (ws->dir[0]) nftw(ws->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  ws->dir[0] = '\0';
}

const char *lsp_workspace_path(lsp_workspace *ws, const char *name, char *buf, size_t n) {
  snprintf(buf, n, "%s/%s", ws->dir, name);
  return buf;
}

int lsp_workspace_one(lsp_workspace *ws, const char *name, char *path, size_t n) {
  return lsp_workspace_one_with(ws, name, TC_RUNTIME_INCLUDE, path, n);
}

int lsp_workspace_one_with(lsp_workspace *ws, const char *name, const char *include_dir,
                           char *path, size_t n) {
  const char *files[] = {name, NULL};
  if (lsp_workspace_create_with(ws, TC_LSP_FIXTURES, files, ".", include_dir) != 0) return -1;
  lsp_workspace_path(ws, name, path, n);
  return 0;
}

/* UTF-16 code units in the first n bytes of s, counted the simple way: every byte that does not
   continue a sequence starts a character, and 4-byte ones are surrogate pairs. */
static unsigned utf16_column(const char *s, size_t n) {
  unsigned units = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xC0) == 0x80) continue;
    units += (c & 0xF8) == 0xF0 ? 2 : 1;
  }
  return units;
}

int lsp_fixture_expect(const char *path, const char *rule, unsigned *line, unsigned *byte_col,
                       unsigned *utf16_col) {
  tc_annotation *as = NULL;
  size_t na = 0;
  char *text = lsp_read_file(path, NULL);
  int found = -1;
  if (text && tc_annotations_read(path, &as, &na) == 0) {
    for (size_t i = 0; i < na && found; i++) {
      if (!as[i].is_error || strcmp(as[i].rule, rule) != 0) continue;
      /* the text of the line it points at, and the last dt_ call there before the comment */
      char *l = text;
      for (unsigned k = 1; l && k < as[i].line; k++)
        if ((l = strchr(l, '\n')) != NULL) l++;
      if (!l) continue;
      char *eol = strchr(l, '\n');
      size_t len = eol ? (size_t)(eol - l) : strlen(l);
      size_t stop = as[i].line == as[i].src_line && as[i].col < len ? as[i].col : len;
      char *call = NULL;
      for (char *p = strstr(l, "dt_"); p && p < l + stop; p = strstr(p + 1, "dt_")) {
        char *q = p + 3;
        while ((*q >= 'a' && *q <= 'z') || *q == '_') q++;
        if (*q == '(') call = p;
      }
      if (!call) continue;
      *line = as[i].line;
      *byte_col = (unsigned)(call - l);
      *utf16_col = utf16_column(l, (size_t)(call - l));
      found = 0;
    }
  }
  free(as);
  free(text);
  return found;
}
