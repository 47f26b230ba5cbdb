/* analyzer/src/base/path.c — file paths made absolute and normalized lexically, their parts,
 * and paths below a root directory (base/path.h). */
#include "base/path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tc_path_normalize(char *p) {
  int abs = p[0] == '/';
  size_t base = abs ? 1 : 0, olen = base;
  const char *in = p;
  while (*in) {
    while (*in == '/') in++;
    if (!*in) break;
    const char *seg = in;
    while (*in && *in != '/') in++;
    size_t sl = (size_t)(in - seg);
    if (sl == 1 && seg[0] == '.') continue;
    if (sl == 2 && seg[0] == '.' && seg[1] == '.') {
      int prev_is_dotdot = olen >= base + 2 && p[olen - 1] == '.' && p[olen - 2] == '.' &&
                           (olen == base + 2 || p[olen - 3] == '/');
      if (olen > base && !prev_is_dotdot) {
        while (olen > base && p[olen - 1] != '/') olen--;
        if (olen > base) olen--;
        continue;
      }
      if (abs) continue;
    }
    if (olen > base) p[olen++] = '/';
    memmove(p + olen, seg, sl);
    olen += sl;
  }
  if (olen == 0) p[olen++] = '.';
  p[olen] = '\0';
}

char *tc_path_absolute(const char *path, const char *dir) {
  char cwd[PATH_MAX];
  const char *base = dir;
  if (!base || !*base) base = getcwd(cwd, sizeof cwd) ? cwd : "/";
  size_t lp = strlen(path), lb = strlen(base);
  char *buf = malloc(lp + lb + 3);
  if (!buf) return NULL;
  if (path[0] == '/') memcpy(buf, path, lp + 1);
  else if (base[0] == '/') snprintf(buf, lp + lb + 3, "%s/%s", base, path);
  else snprintf(buf, lp + lb + 3, "/%s/%s", base, path);
  tc_path_normalize(buf);
  return buf;
}

char *tc_normalize_path(const char *path) { return path ? tc_path_absolute(path, NULL) : NULL; }

const char *tc_path_base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

char *tc_path_dir_of(const char *path) {
  char *norm = tc_normalize_path(path);
  if (!norm) return NULL;
  char *slash = strrchr(norm, '/');
  if (slash == norm)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  return norm;
}

char *tc_path_root_dir(const char *root) {
  if (!root || !*root) root = ".";
  char *norm = NULL;
  char *real = realpath(root, NULL);
  norm = tc_normalize_path(real ? real : root);
  free(real);
  if (!norm) return NULL;
  size_t n = strlen(norm);
  if (n > 0 && norm[n - 1] == '/') return norm;
  char *with_slash = realloc(norm, n + 2);
  if (!with_slash) {
    free(norm);
    return NULL;
  }
  with_slash[n] = '/';
  with_slash[n + 1] = '\0';
  return with_slash;
}

static char *below(const char *root_dir, const char *path) {
  size_t n = strlen(root_dir);
  if (strncmp(path, root_dir, n) != 0 || path[n] == '\0') return NULL;
  return strdup(path + n);
}

char *tc_path_below_root(const char *root_dir, const char *path) {
  if (!root_dir || !path) return NULL;
  char *norm = tc_normalize_path(path);
  if (!norm) return NULL;
  char *rel = below(root_dir, norm);
  if (!rel) {
    char *real = realpath(norm, NULL);
    if (real) rel = below(root_dir, real);
    free(real);
  }
  free(norm);
  return rel;
}

