/* analyzer/src/frontend/compdb.c — compile_commands.json → one argument vector per unit, ready
 * for libclang: shell splitting of `command`, @response files, relative directories and files,
 * filtering of compiler flags clang does not need or does not know (outputs, dependency files,
 * linker flags, warnings, gcc-only -f/-m options), absolute include paths, and the additions
 * every unit needs (libclang's resource directory, -D__TAGCHECK__=1). */
#include "frontend/compdb.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/path.h"

#ifndef TC_CLANG_RESOURCE_DIR
#define TC_CLANG_RESOURCE_DIR ""
#endif
#ifndef TC_DT_INCLUDE_INSTALLED
#define TC_DT_INCLUDE_INSTALLED ""
#endif
#ifndef TC_DT_INCLUDE_BUILD
#define TC_DT_INCLUDE_BUILD ""
#endif

/* ---- string vectors ---- */

typedef struct strvec {
  char **v;
  size_t n, cap;
  int oom;
} strvec;

static void sv_push_n(strvec *sv, const char *s, size_t len) {
  if (sv->oom) return;
  if (sv->n + 2 > sv->cap) {
    size_t cap = sv->cap ? sv->cap * 2 : 16;
    char **v = realloc(sv->v, cap * sizeof *v);
    if (!v) {
      sv->oom = 1;
      return;
    }
    sv->v = v;
    sv->cap = cap;
  }
  char *copy = malloc(len + 1);
  if (!copy) {
    sv->oom = 1;
    return;
  }
  memcpy(copy, s, len);
  copy[len] = '\0';
  sv->v[sv->n++] = copy;
  sv->v[sv->n] = NULL;
}

static void sv_push(strvec *sv, const char *s) { sv_push_n(sv, s, strlen(s)); }

static void sv_push2(strvec *sv, const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *tmp = malloc(la + lb + 1);
  if (!tmp) {
    sv->oom = 1;
    return;
  }
  memcpy(tmp, a, la);
  memcpy(tmp + la, b, lb + 1);
  sv_push_n(sv, tmp, la + lb);
  free(tmp);
}

void tc_argv_free(char **argv, size_t argc) {
  if (!argv) return;
  for (size_t i = 0; i < argc; i++) free(argv[i]);
  free(argv);
}

static void sv_free(strvec *sv) {
  tc_argv_free(sv->v, sv->n);
  memset(sv, 0, sizeof *sv);
}

/* ---- shell splitting ---- */

int tc_shell_split(const char *cmd, char ***argv_out, size_t *argc_out) {
  strvec sv = {0};
  size_t len = strlen(cmd);
  char *word = malloc(len + 1);
  if (!word) return -1;
  size_t wn = 0;
  int in_word = 0, rc = 0;
  for (size_t i = 0; i < len; i++) {
    char c = cmd[i];
    if (c == '\\') {
      if (i + 1 < len) {
        if (cmd[i + 1] != '\n') word[wn++] = cmd[i + 1];
        in_word = in_word || cmd[i + 1] != '\n';
        i++;
      }
    } else if (c == '\'') {
      in_word = 1;
      for (i++; i < len && cmd[i] != '\''; i++) word[wn++] = cmd[i];
      if (i >= len) rc = -1;
    } else if (c == '"') {
      in_word = 1;
      for (i++; i < len && cmd[i] != '"'; i++) {
        if (cmd[i] == '\\' && i + 1 < len &&
            (cmd[i + 1] == '$' || cmd[i + 1] == '`' || cmd[i + 1] == '"' || cmd[i + 1] == '\\' ||
             cmd[i + 1] == '\n')) {
          i++;
          if (cmd[i] == '\n') continue;
        }
        word[wn++] = cmd[i];
      }
      if (i >= len) rc = -1;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) sv_push_n(&sv, word, wn);
      wn = 0;
      in_word = 0;
    } else {
      word[wn++] = c;
      in_word = 1;
    }
  }
  if (in_word) sv_push_n(&sv, word, wn);
  free(word);
  if (rc != 0 || sv.oom) {
    sv_free(&sv);
    return -1;
  }
  if (!sv.v) {
    sv.v = calloc(1, sizeof *sv.v);
    if (!sv.v) return -1;
  }
  *argv_out = sv.v;
  *argc_out = sv.n;
  return 0;
}

/* ---- filtering ---- */
/* (the dt headers' directory is added last: see tc_filter_args) */

static int in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return 1;
  return 0;
}

static int has_prefix_in(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strncmp(s, list[i], strlen(list[i])) == 0) return 1;
  return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Options followed by a separate value that we keep; those whose value is a path. */
static const char *const sep_keep_path[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include",
                                            "-imacros", "-isysroot", "--sysroot", "-iframework",
                                            "-iwithsysroot", "-cxx-isystem"};
static const char *const sep_keep[] = {"-D", "-U", "-x", "-target", "-arch", "-iprefix",
                                       "-iwithprefix", "-iwithprefixbefore", "-imultilib",
                                       "-mllvm"};
/* Options followed by a separate value that we drop. */
static const char *const sep_drop[] = {
  "-o", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "--param",
  "-aux-info", "-T", "-u", "-z", "-l", "-L", "-B", "-e", "-dumpbase", "-dumpdir", "-include-pch",
  "-Xcuda-ptxas", "-Xcuda-fatbinary", "-Xarch_host", "-Xarch_device", "-Xopenmp-target",
  "-ccc-install-dir", "-serialize-diagnostics", "-MJ", "-fmodules-cache-path", "-wrapper",
  /* nvcc's */
  "-ccbin", "--compiler-bindir", "-Xcompiler", "--compiler-options", "-Xcudafe", "-Xptxas",
  "-Xnvlink", "-gencode", "--generate-code", "--options-file", "-maxrregcount", "-t",
  "--threads", "--default-stream",
  /* linkers' */
  "-framework", "-install_name", "-rpath", "-soname", "-Xanalyzer"};
/* Flags that only shape the compiler's output (objects, dependency files, diagnostics' looks,
   linking) or that would make a warning an error: dropped. Every other flag is kept, since it
   may change what the preprocessor defines (-O2 defines __OPTIMIZE__) or the parser sees; a
   flag libclang rejects is dropped at parse time (frontend/parse.c). */
static const char *const drop_exact[] = {
  "-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG", "-pipe", "-shared", "-static",
  "-rdynamic", "-s", "-pie", "-no-pie", "-nostdlib", "-nostartfiles", "-nodefaultlibs",
  "-pedantic-errors", "-Werror", "-Wfatal-errors", "-fsyntax-only", "-save-temps", "-v", "-###",
  "-H", "--verbose", "-fcolor-diagnostics", "-fno-color-diagnostics", "-fdiagnostics-color",
  "-fno-diagnostics-color", "-fsave-optimization-record", "-ftime-report", "-fstack-usage",
  "-frecord-gcc-switches", "-fcallgraph-info", "-Q", "-time"};
static const char *const drop_prefix[] = {
  "-Werror=", "-Wl,", "-Wa,", "-l", "-L", "-o", "-MF", "-MT", "-MQ", "-MJ", "-B", "-fplugin",
  "-specs=", "-save-temps=", "-fdiagnostics-", "-fmax-errors", "-fprofile-use",
  "-fprofile-instr-use", "-fprofile-sample-use", "-fcrash-diagnostics-dir", "-fdump-",
  "-fopt-info", "-fmodules-cache-path", "--serialize-diagnostics", "-ftime-trace",
  "-fsave-optimization-record=", "-fcallgraph-info=", "-Xlinker"};
/* Joined forms we keep (prefix followed by the value); those whose value is a path. */
static const char *const joined_keep_path[] = {"-isystem", "-iquote", "-idirafter", "-I",
                                               "--sysroot=", "-isysroot", "-iframework"};
static const char *const joined_keep[] = {"-D", "-U", "-std=", "--std=", "--target=", "-x"};
/* Flags that change what the preprocessor or the parser sees and that clang knows. */
static const char *const keep_exact[] = {
  "-ansi", "-nostdinc", "-nostdlibinc", "-undef", "-trigraphs", "-pthread", "-fno-builtin",
  "-fbuiltin", "-ffreestanding", "-fhosted", "-fms-extensions", "-fno-ms-extensions",
  "-fms-compatibility", "-fshort-enums", "-fno-short-enums", "-fshort-wchar", "-fno-short-wchar",
  "-fsigned-char", "-funsigned-char", "-fno-signed-char", "-fno-unsigned-char", "-fblocks",
  "-fgnu89-inline", "-fno-gnu89-inline", "-fopenmp", "-fopenmp-simd", "-fpack-struct",
  "-fdollars-in-identifiers", "-fno-dollars-in-identifiers", "-fgnu-keywords",
  "-fno-gnu-keywords", "-fasm", "-fno-asm", "-fdeclspec", "-fno-declspec", "-fwrapv", "-fpic",
  "-fPIC", "-fpie", "-fPIE", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE", "-ffast-math",
  "-fno-fast-math", "-ffinite-math-only", "-fno-finite-math-only", "-fno-inline",
  "-fchar8_t", "-fno-char8_t", "-m16", "-m32", "-m64", "-mx32", "-mthumb", "-marm",
  "-mlittle-endian", "-mbig-endian", "-msoft-float", "-mhard-float", "-mfma", "-mno-fma",
  "-mf16c", "-mno-f16c", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-maes", "-mpclmul", "-msha",
  "-mmmx", "-mno-mmx", "-mcx16", "-mrdrnd", "-mrdseed", "-mmovbe", "-mxsave", "-mfp16"};
static const char *const keep_prefix[] = {"-fno-builtin-", "-fpack-struct=", "-march=", "-mcpu=",
                                          "-mfpu=", "-mfloat-abi=", "-mabi=", "-msse", "-mno-sse",
                                          "-mavx", "-mno-avx", "-fmax-type-align="};

typedef struct filter_ctx {
  strvec *out;
  const char *dir;
  int depth; /* @file nesting */
} filter_ctx;

static void push_path(filter_ctx *fc, const char *opt, const char *path, int joined) {
  char *abs = path[0] ? tc_path_absolute(path, fc->dir) : NULL;
  const char *p = abs ? abs : path;
  if (joined) {
    sv_push2(fc->out, opt, p);
  } else {
    sv_push(fc->out, opt);
    sv_push(fc->out, p);
  }
  free(abs);
}

static void filter(filter_ctx *fc, const char *const *in, size_t n);

static void expand_response_file(filter_ctx *fc, const char *name) {
  if (fc->depth >= 8) return;
  char *path = tc_path_absolute(name, fc->dir);
  if (!path) return;
  size_t len = 0;
  char *text = tc_file_read(path, 0, &len);
  int read_errno = errno;
  free(path);
  if (!text) { /* like gcc, an unreadable @file is ignored (here: dropped) */
    if (read_errno == ENOMEM) fc->out->oom = 1;
    return;
  }
  char **argv = NULL;
  size_t argc = 0;
  if (tc_shell_split(text, &argv, &argc) == 0) {
    fc->depth++;
    filter(fc, (const char *const *)argv, argc);
    fc->depth--;
    tc_argv_free(argv, argc);
  }
  free(text);
}

/* -Wp,-DX,-MD,file: keeps the preprocessor definitions and include paths. */
static void filter_wp(filter_ctx *fc, const char *arg) {
  const char *p = arg + 4;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n > 2 && (strncmp(p, "-D", 2) == 0 || strncmp(p, "-U", 2) == 0)) {
      sv_push_n(fc->out, p, n);
    } else if (n > 2 && strncmp(p, "-I", 2) == 0) {
      char *val = malloc(n - 1);
      if (val) {
        memcpy(val, p + 2, n - 2);
        val[n - 2] = '\0';
        push_path(fc, "-I", val, 1);
        free(val);
      }
    }
    if (!e) break;
    p = e + 1;
  }
}

static void filter(filter_ctx *fc, const char *const *in, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const char *a = in[i];
    if (a[0] == '@' && a[1]) {
      expand_response_file(fc, a + 1);
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') continue; /* inputs (the source file), "-" (stdin) */
    if (in_list(a, sep_keep_path, COUNT(sep_keep_path))) {
      if (i + 1 < n) push_path(fc, a, in[++i], 0);
      continue;
    }
    if (in_list(a, sep_keep, COUNT(sep_keep))) {
      if (i + 1 < n) {
        sv_push(fc->out, a);
        sv_push(fc->out, in[++i]);
      }
      continue;
    }
    if (in_list(a, sep_drop, COUNT(sep_drop))) {
      i++;
      continue;
    }
    if (strncmp(a, "-Wp,", 4) == 0) {
      filter_wp(fc, a);
      continue;
    }
    if (in_list(a, keep_exact, COUNT(keep_exact)) ||
        has_prefix_in(a, keep_prefix, COUNT(keep_prefix))) {
      sv_push(fc->out, a);
      continue;
    }
    int done = 0;
    for (size_t k = 0; k < COUNT(joined_keep_path) && !done; k++) {
      size_t pl = strlen(joined_keep_path[k]);
      if (strncmp(a, joined_keep_path[k], pl) == 0 && a[pl]) {
        push_path(fc, joined_keep_path[k], a + pl, 1);
        done = 1;
      }
    }
    for (size_t k = 0; k < COUNT(joined_keep) && !done; k++) {
      size_t pl = strlen(joined_keep[k]);
      if (strncmp(a, joined_keep[k], pl) == 0 && a[pl]) {
        sv_push(fc->out, a);
        done = 1;
      }
    }
    if (!done && !in_list(a, drop_exact, COUNT(drop_exact)) &&
        !has_prefix_in(a, drop_prefix, COUNT(drop_prefix)))
      sv_push(fc->out, a); /* -O2, -g, -Wall, -fno-exceptions, -m…: kept */
  }
}

int tc_filter_args(const char *const *in, size_t n, int has_compiler, const char *directory,
                   char ***out, size_t *out_n) {
  strvec sv = {0};
  filter_ctx fc = {&sv, directory, 0};
  if (has_compiler && n > 0) {
    in++;
    n--;
  }
  filter(&fc, in, n);
  if (TC_CLANG_RESOURCE_DIR[0]) {
    sv_push(&sv, "-resource-dir");
    sv_push(&sv, TC_CLANG_RESOURCE_DIR);
  }
  sv_push(&sv, "-D__TAGCHECK__=1");
  sv_push(&sv, "-w"); /* warnings are not reported: errors still are */
  /* <dt/dt.h> is found even when the unit's flags do not say where: searched after every
     directory the unit names, so a project's own copy wins */
  const char *dt_dirs[] = {TC_DT_INCLUDE_INSTALLED, TC_DT_INCLUDE_BUILD};
  for (size_t k = 0; k < 2; k++) {
    if (!dt_dirs[k][0]) continue;
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/dt/dt.h", dt_dirs[k]);
    if (access(probe, R_OK) != 0) continue;
    sv_push(&sv, "-idirafter");
    sv_push(&sv, dt_dirs[k]);
    break;
  }
  /* headers a compiler brings with it that libclang's resource directory may lack (omp.h for
     -fopenmp): declarations only, found when nothing else provides them */
  const char *fb_dirs[] = {TC_FALLBACK_INCLUDE_INSTALLED, TC_FALLBACK_INCLUDE_BUILD};
  for (size_t k = 0; k < 2; k++) {
    if (!fb_dirs[k][0]) continue;
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/omp.h", fb_dirs[k]);
    if (access(probe, R_OK) != 0) continue;
    sv_push(&sv, "-idirafter");
    sv_push(&sv, fb_dirs[k]);
    break;
  }
  if (sv.oom) {
    sv_free(&sv);
    return -1;
  }
  *out = sv.v;
  *out_n = sv.n;
  return 0;
}

/* ---- commands ---- */

void tc_compile_cmd_free(tc_compile_cmd *c) {
  if (!c) return;
  free(c->file);
  free(c->directory);
  tc_argv_free(c->argv, c->argc);
  memset(c, 0, sizeof *c);
}

int tc_compile_cmd_copy(const tc_compile_cmd *src, tc_compile_cmd *dst) {
  memset(dst, 0, sizeof *dst);
  strvec sv = {0};
  for (size_t i = 0; i < src->argc; i++) sv_push(&sv, src->argv[i]);
  dst->file = strdup(src->file);
  dst->directory = strdup(src->directory);
  dst->argv = sv.v;
  dst->argc = sv.n;
  if (sv.oom || !dst->file || !dst->directory || (src->argc && !dst->argv)) {
    tc_compile_cmd_free(dst);
    return -1;
  }
  if (!dst->argv) dst->argv = calloc(1, sizeof *dst->argv);
  return dst->argv ? 0 : -1;
}

/* ---- CUDA ---- */

static int is_cuda_file(const char *file) {
  const char *dot = strrchr(file, '.');
  return dot && strcmp(dot, ".cu") == 0 && !strchr(dot, '/');
}

/* A `.cu` unit is parsed as CUDA host code without a toolkit: the language and the GPU
   architecture the build names (nvcc's `-x cu`, `-arch sm_80`) give way to clang's CUDA mode
   with no CUDA installation, and analyzer/cuda/ (keywords, index variables, the launch hook,
   the runtime API) stands in for the toolkit's headers. */
static int cuda_adjust(tc_compile_cmd *cmd) {
  strvec sv = {0};
  for (size_t i = 0; i < cmd->argc; i++) {
    const char *a = cmd->argv[i];
    if ((strcmp(a, "-x") == 0 || strcmp(a, "-arch") == 0) && i + 1 < cmd->argc) {
      i++;
      continue;
    }
    if (strncmp(a, "-x", 2) == 0 && a[2]) continue;
    sv_push(&sv, a);
  }
  const char *stubs = NULL;
  const char *dirs[] = {TC_CUDA_STUBS_INSTALLED, TC_CUDA_STUBS_BUILD};
  char probe[4096];
  for (size_t k = 0; k < 2 && !stubs; k++) {
    if (!dirs[k][0]) continue;
    snprintf(probe, sizeof probe, "%s/tagcheck_cuda.h", dirs[k]);
    if (access(probe, R_OK) == 0) stubs = dirs[k];
  }
  const char *const mode[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib"};
  for (size_t k = 0; k < COUNT(mode); k++) sv_push(&sv, mode[k]);
  if (stubs) {
    sv_push(&sv, "-isystem");
    sv_push(&sv, stubs);
    sv_push(&sv, "-include"); /* found through -isystem: a system header, never analyzed */
    sv_push(&sv, "tagcheck_cuda.h");
  }
  if (sv.oom) {
    sv_free(&sv);
    return -1;
  }
  tc_argv_free(cmd->argv, cmd->argc);
  cmd->argv = sv.v;
  cmd->argc = sv.n;
  return 0;
}

int tc_compile_cmd_from_args(const char *file, const char *const *args, size_t n_args,
                             const char *cwd, tc_compile_cmd *out) {
  memset(out, 0, sizeof *out);
  char buf[PATH_MAX];
  const char *dir = cwd ? cwd : getcwd(buf, sizeof buf);
  out->directory = tc_path_absolute(dir ? dir : "/", NULL);
  out->file = tc_path_absolute(file, out->directory);
  /* a whole compiler command (how CMake runs a clang-tidy stand-in: FILE -- cc -c FILE …) */
  int has_compiler = n_args > 0 && args[0][0] != '-' && !tc_compdb_is_c_family(args[0]);
  if (!out->directory || !out->file ||
      tc_filter_args(args, n_args, has_compiler, out->directory, &out->argv, &out->argc) != 0 ||
      (is_cuda_file(out->file) && cuda_adjust(out) != 0)) {
    tc_compile_cmd_free(out);
    return -1;
  }
  return 0;
}

/* ---- the database ---- */

int tc_compdb_is_c_family(const char *file) {
  static const char *const exts[] = {"c",  "h",  "i",   "cc", "cp", "cpp", "cxx", "c++", "C",
                                     "CC", "CPP", "ii", "hh", "hpp", "hxx", "m", "mm", "cu"};
  const char *slash = strrchr(file, '/');
  const char *dot = strrchr(slash ? slash : file, '.');
  if (!dot || !dot[1]) return 0;
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
    if (strcmp(dot + 1, exts[i]) == 0) return 1;
  return 0;
}

void tc_compdb_free(tc_compdb *db) {
  if (!db) return;
  for (size_t i = 0; i < db->n; i++) tc_compile_cmd_free(&db->cmds[i]);
  free(db->cmds);
  free(db->path);
  free(db->first_skipped);
  memset(db, 0, sizeof *db);
}

static void line_col(const char *text, size_t len, size_t off, unsigned *line, unsigned *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off && i < len; i++) {
    if (text[i] == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

static int same_cmd(const tc_compile_cmd *a, const tc_compile_cmd *b) {
  if (strcmp(a->file, b->file) != 0 || a->argc != b->argc) return 0;
  for (size_t i = 0; i < a->argc; i++)
    if (strcmp(a->argv[i], b->argv[i]) != 0) return 0;
  return 1;
}

static uint64_t cmd_hash(const tc_compile_cmd *c) {
  uint64_t h = 1469598103934665603ull;
  const char *s = c->file;
  for (size_t i = 0;; i++) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
    if (i >= c->argc) break;
    s = c->argv[i];
  }
  return h;
}

/* Parses one entry into cmd; returns NULL or what is wrong with it. */
static const char *parse_entry(const cJSON *e, const char *db_dir, tc_compile_cmd *cmd) {
  memset(cmd, 0, sizeof *cmd);
  if (!cJSON_IsObject(e)) return "not a JSON object";
  const cJSON *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
  const cJSON *command = cJSON_GetObjectItemCaseSensitive(e, "command");
  if (!cJSON_IsString(dir)) return "\"directory\" is missing or not a string";
  if (!cJSON_IsString(file) || !file->valuestring[0]) return "\"file\" is missing or not a string";
  char **argv = NULL;
  size_t argc = 0;
  if (args) {
    if (!cJSON_IsArray(args)) return "\"arguments\" is not an array of strings";
    int n = cJSON_GetArraySize(args);
    argv = calloc((size_t)n + 1, sizeof *argv);
    if (!argv) return "out of memory";
    const cJSON *a;
    cJSON_ArrayForEach(a, args) {
      if (!cJSON_IsString(a)) {
        tc_argv_free(argv, argc);
        return "\"arguments\" is not an array of strings";
      }
      argv[argc] = strdup(a->valuestring);
      if (!argv[argc]) {
        tc_argv_free(argv, argc);
        return "out of memory";
      }
      argc++;
    }
  } else if (command) {
    if (!cJSON_IsString(command)) return "\"command\" is not a string";
    if (tc_shell_split(command->valuestring, &argv, &argc) != 0)
      return "\"command\" has an unterminated quote";
  } else {
    return "neither \"arguments\" nor \"command\" is given";
  }
  cmd->directory = tc_path_absolute(dir->valuestring, db_dir);
  cmd->file = cmd->directory ? tc_path_absolute(file->valuestring, cmd->directory) : NULL;
  int rc = cmd->file ? tc_filter_args((const char *const *)argv, argc, 1, cmd->directory,
                                      &cmd->argv, &cmd->argc)
                     : -1;
  tc_argv_free(argv, argc);
  if (rc == 0 && is_cuda_file(cmd->file)) rc = cuda_adjust(cmd);
  if (rc != 0) {
    tc_compile_cmd_free(cmd);
    return "out of memory";
  }
  return NULL;
}

int tc_compdb_parse(const char *text, size_t len, const char *db_path, const char *db_dir,
                    tc_compdb *out, char *err, size_t err_len) {
  memset(out, 0, sizeof *out);
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!root) {
    unsigned line, col;
    size_t off = end && end >= text ? (size_t)(end - text) : 0;
    line_col(text, len, off, &line, &col);
    snprintf(err, err_len, "%s:%u:%u: malformed JSON in the compilation database", db_path, line,
             col);
    return -1;
  }
  int rc = -1;
  uint64_t *hashes = NULL;
  size_t *slots = NULL;
  /* cJSON stops after the first value (and the blanks after it): anything left is garbage, a
     second document or a concatenation gone wrong, never silently ignored. */
  size_t used = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
  while (used < len && (text[used] == ' ' || text[used] == '\t' || text[used] == '\r' ||
                        text[used] == '\n'))
    used++;
  if (used < len) {
    unsigned line, col;
    line_col(text, len, used, &line, &col);
    snprintf(err, err_len,
             "%s:%u:%u: unexpected text after the JSON array of the compilation database",
             db_path, line, col);
    goto done;
  }
  if (!cJSON_IsArray(root)) {
    snprintf(err, err_len, "%s: the compilation database must be a JSON array of entries",
             db_path);
    goto done;
  }
  size_t n = (size_t)cJSON_GetArraySize(root);
  out->cmds = calloc(n ? n : 1, sizeof *out->cmds);
  hashes = calloc(n ? n : 1, sizeof *hashes);
  /* the entries kept so far, by hash (index + 1, 0 empty; at most half full): finding a
     repeated entry among 100,000 compared every pair */
  size_t n_slots = 16;
  while (n_slots < 2 * n + 2) n_slots *= 2;
  slots = calloc(n_slots, sizeof *slots);
  out->path = strdup(db_path);
  if (!out->cmds || !hashes || !slots || !out->path) {
    snprintf(err, err_len, "%s: out of memory", db_path);
    goto done;
  }
  size_t idx = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, root) {
    idx++;
    tc_compile_cmd cmd;
    const char *why = parse_entry(e, db_dir, &cmd);
    if (why) {
      snprintf(err, err_len, "%s: entry %zu of %zu: %s", db_path, idx, n, why);
      goto done;
    }
    if (!tc_compdb_is_c_family(cmd.file)) {
      if (!out->first_skipped) out->first_skipped = strdup(cmd.file);
      out->n_skipped++;
      tc_compile_cmd_free(&cmd);
      continue;
    }
    uint64_t h = cmd_hash(&cmd);
    size_t at = (size_t)h & (n_slots - 1);
    while (slots[at] &&
           !(hashes[slots[at] - 1] == h && same_cmd(&out->cmds[slots[at] - 1], &cmd)))
      at = (at + 1) & (n_slots - 1);
    if (slots[at]) { /* the same command for the same file again */
      tc_compile_cmd_free(&cmd);
      continue;
    }
    slots[at] = out->n + 1;
    hashes[out->n] = h;
    out->cmds[out->n++] = cmd;
  }
  rc = 0;
done:
  free(hashes);
  free(slots);
  cJSON_Delete(root);
  if (rc != 0) tc_compdb_free(out);
  return rc;
}

int tc_compdb_load(const char *dir, tc_compdb *out, char *err, size_t err_len) {
  memset(out, 0, sizeof *out);
  char *abs_dir = tc_path_absolute(dir, NULL);
  if (!abs_dir) {
    snprintf(err, err_len, "%s: out of memory", dir);
    return -1;
  }
  size_t pl = strlen(abs_dir) + sizeof "/compile_commands.json";
  char *path = malloc(pl);
  if (!path) {
    free(abs_dir);
    snprintf(err, err_len, "%s: out of memory", dir);
    return -1;
  }
  snprintf(path, pl, "%s/compile_commands.json", abs_dir);
  struct stat st;
  if (stat(abs_dir, &st) == 0 && S_ISREG(st.st_mode)) { /* -p names the database itself */
    snprintf(path, pl, "%s", abs_dir);
    char *slash = strrchr(abs_dir, '/');
    if (slash && slash != abs_dir) *slash = '\0';
    else if (slash) slash[1] = '\0';
  }
  int rc = -1;
  size_t len = 0;
  char *text = tc_file_read(path, 0, &len);
  if (!text) {
    snprintf(err, err_len, "%s: cannot read the compilation database: %s", path, strerror(errno));
    goto done;
  }
  rc = tc_compdb_parse(text ? text : "", len, path, abs_dir, out, err, err_len);
done:
  free(text);
  free(path);
  free(abs_dir);
  return rc;
}

const tc_compile_cmd *tc_compdb_find(const tc_compdb *db, const char *file, size_t *count) {
  char *abs = tc_path_absolute(file, NULL);
  const tc_compile_cmd *first = NULL;
  size_t c = 0;
  for (size_t i = 0; abs && i < db->n; i++) {
    if (strcmp(db->cmds[i].file, abs) != 0) continue;
    if (!first) first = &db->cmds[i];
    c++;
  }
  free(abs);
  if (count) *count = c;
  return first;
}
