/* analyzer/src/driver/cache.c — the analysis cache: one file per unit in the cache directory,
 * named by a hash of the unit's identity (its file, directory and arguments, the environment
 * variables that change a compiler's include path, libclang's resource directory, the IR
 * format), holding those key strings, the content hash of every file the unit read, the paths
 * that must still not exist (earlier candidates on the include path of every header it read,
 * and the candidates of headers it did not find, each once), the unit's failure, its
 * serialized IR and a checksum of all of it. An entry is used only if its checksum holds, every recorded file still
 * hashes the same and no recorded absent path has appeared; files are hashed and paths probed
 * at most once per run (a hash table shared by the workers). A second kind of entry,
 * results-KEY.tcr, keeps one component's findings. Stores go through a temporary file and
 * rename(); entries used are touched, and tc_cache_prune keeps the directory under a bound,
 * least recently used first, and removes temporary files that killed runs left. */
#include "driver/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/report_codec.h"
#include "base/bytes.h"
#include "base/path.h"
#include "base/file.h"
#include "driver/tool_id.h"

#ifndef TC_VERSION
#define TC_VERSION "0"
#endif
#ifndef TC_CLANG_RESOURCE_DIR
#define TC_CLANG_RESOURCE_DIR ""
#endif

#define CACHE_MAGIC "TCCACHE4"
#define RESULTS_MAGIC "TCRESULTS3"

/* Environment variables that change where a compiler looks for headers. */
static const char *const include_env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
                                          "OBJC_INCLUDE_PATH"};

typedef struct memo_entry {
  char *path;
  uint64_t hash;
  int missing;
} memo_entry;

struct tc_cache {
  char *dir;
  int dir_ready;
  pthread_mutex_t lock; /* guards the memo and dir_ready */
  memo_entry *memo;     /* open addressing, power-of-two capacity */
  size_t n_memo, cap_memo;
  uint64_t tool_id;     /* tc_tool_identity(), once */
};

tc_cache *tc_cache_open(const char *dir) {
  tc_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->dir = strdup(dir);
  c->tool_id = tc_tool_identity();
  if (!c->dir || pthread_mutex_init(&c->lock, NULL) != 0) {
    free(c->dir);
    free(c);
    return NULL;
  }
  return c;
}

void tc_cache_close(tc_cache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->cap_memo; i++) free(c->memo[i].path);
  free(c->memo);
  pthread_mutex_destroy(&c->lock);
  free(c->dir);
  free(c);
}

/* ---- the per-run memo of file hashes ---- */

static uint64_t str_hash(const char *s) { return tc_fnv64(TC_FNV_INIT, s, strlen(s)); }

/* The slot of path (empty when absent); the caller holds the lock and cap_memo > 0. */
static memo_entry *memo_slot(tc_cache *c, const char *path) {
  size_t mask = c->cap_memo - 1, i = (size_t)str_hash(path) & mask;
  while (c->memo[i].path && strcmp(c->memo[i].path, path) != 0) i = (i + 1) & mask;
  return &c->memo[i];
}

static int memo_grow(tc_cache *c) {
  size_t cap = c->cap_memo ? c->cap_memo * 2 : 1024;
  memo_entry *old = c->memo;
  size_t old_cap = c->cap_memo;
  c->memo = calloc(cap, sizeof *c->memo);
  if (!c->memo) {
    c->memo = old;
    return -1;
  }
  c->cap_memo = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].path) *memo_slot(c, old[i].path) = old[i];
  free(old);
  return 0;
}

/* The content hash of path, memoized for the run; 0 with *missing set when unreadable. */
static uint64_t file_hash(tc_cache *c, const char *path, int *missing) {
  pthread_mutex_lock(&c->lock);
  if (c->cap_memo) {
    memo_entry *e = memo_slot(c, path);
    if (e->path) {
      uint64_t h = e->hash;
      *missing = e->missing;
      pthread_mutex_unlock(&c->lock);
      return h;
    }
  }
  pthread_mutex_unlock(&c->lock);
  unsigned char *data = NULL;
  size_t len = 0;
  uint64_t h = 0;
  struct stat st;
  /* a folder "exists" too (an absent candidate may appear as one); only regular files are
     read (a damaged entry naming /dev/zero or a FIFO must not hang the run) */
  if (stat(path, &st) != 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
    *missing = 1;
  } else if (S_ISDIR(st.st_mode)) {
    *missing = 0;
    h = 1;
  } else {
    *missing = tc_read_file(path, &data, &len) != 0;
    if (!*missing) h = tc_fnv64(TC_FNV_INIT, data, len) ^ len;
  }
  free(data);
  pthread_mutex_lock(&c->lock);
  if ((c->n_memo + 1) * 2 <= c->cap_memo || memo_grow(c) == 0) {
    memo_entry *e = memo_slot(c, path);
    if (!e->path) {
      char *copy = strdup(path);
      if (copy) {
        *e = (memo_entry){copy, h, *missing};
        c->n_memo++;
      }
    }
  }
  pthread_mutex_unlock(&c->lock);
  return h;
}

static int path_exists(tc_cache *c, const char *path) {
  int missing;
  file_hash(c, path, &missing);
  return !missing;
}

/* ---- keys ---- */

/* The unit's identity: format, tool version and build, libclang, file, arguments, include
   environment. */
static void key_string(const tc_cache *c, const tc_compile_cmd *cmd, tc_bbuf *b) {
  tc_bb_str(b, CACHE_MAGIC);
  tc_bb_str(b, TC_VERSION);
  tc_bb_u64(b, c->tool_id);
  tc_bb_str(b, TC_CLANG_RESOURCE_DIR);
  tc_bb_str(b, cmd->file);
  tc_bb_str(b, cmd->directory);
  tc_bb_u64(b, cmd->argc);
  for (size_t i = 0; i < cmd->argc; i++) tc_bb_str(b, cmd->argv[i]);
  for (size_t i = 0; i < sizeof include_env / sizeof include_env[0]; i++) {
    const char *v = getenv(include_env[i]);
    tc_bb_str(b, include_env[i]);
    tc_bb_str(b, v ? v : "\x01unset");
  }
}

static char *entry_path(const tc_cache *c, const tc_bbuf *key) {
  uint64_t h = tc_fnv64(TC_FNV_INIT, key->p, key->len);
  size_t n = strlen(c->dir) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%016llx.tcc", c->dir, (unsigned long long)h);
  return p;
}

/* ---- the include search path, for the paths that must not appear ---- */

typedef struct str_list {
  char **v;
  size_t n, cap;
  int oom;
} str_list;

/* Appends s (taken; NULL: out of memory). */
static void list_append(str_list *l, char *s) {
  if (!s) {
    l->oom = 1;
    return;
  }
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      free(s);
      l->oom = 1;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = s;
}

/* Appends s (taken) unless the list has it already: for the few search folders. */
static void list_push(str_list *l, char *s) {
  for (size_t i = 0; s && i < l->n; i++)
    if (strcmp(l->v[i], s) == 0) {
      free(s);
      return;
    }
  list_append(l, s);
}

static int by_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the list and removes repeated strings (a candidate several headers share is recorded,
   and probed at each lookup, once). */
static void list_unique(str_list *l) {
  if (l->n < 2) return;
  qsort(l->v, l->n, sizeof *l->v, by_string);
  size_t k = 1;
  for (size_t i = 1; i < l->n; i++) {
    if (strcmp(l->v[i], l->v[k - 1]) == 0) free(l->v[i]);
    else l->v[k++] = l->v[i];
  }
  l->n = k;
}

static void list_free(str_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static void push_dir(str_list *l, const char *dir, size_t len, const char *base) {
  if (len == 0) return;
  char *d = strndup(dir, len);
  if (!d) {
    l->oom = 1;
    return;
  }
  while (strlen(d) > 1 && d[strlen(d) - 1] == '/') d[strlen(d) - 1] = '\0';
  char *abs = tc_path_absolute(d, base);
  free(d);
  list_push(l, abs);
}

/* The folders a unit's headers are looked up in, in the order a compiler searches them: the
   main file's folder, -iquote, -I, -isystem, the environment's paths, -idirafter. The
   compiler's own system folders are not listed (their headers are hashed like any other). */
static void search_dirs(const tc_compile_cmd *cmd, str_list *out) {
  static const char *const flags[] = {"-iquote", "-I", "-isystem", "-idirafter"};
  const char *slash = strrchr(cmd->file, '/');
  if (slash) push_dir(out, cmd->file, slash == cmd->file ? 1 : (size_t)(slash - cmd->file), NULL);
  for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
    if (f == 3) /* the environment's paths come before -idirafter */
      for (size_t e = 0; e < sizeof include_env / sizeof include_env[0]; e++) {
        const char *v = getenv(include_env[e]);
        while (v && *v) {
          const char *colon = strchr(v, ':');
          size_t n = colon ? (size_t)(colon - v) : strlen(v);
          push_dir(out, v, n, cmd->directory);
          v = colon ? colon + 1 : NULL;
        }
      }
    size_t fl = strlen(flags[f]);
    for (size_t i = 0; i < cmd->argc; i++) {
      const char *a = cmd->argv[i];
      if (strncmp(a, flags[f], fl) != 0) continue;
      if (a[fl] == '\0' && i + 1 < cmd->argc) {
        i++;
        push_dir(out, cmd->argv[i], strlen(cmd->argv[i]), cmd->directory);
      } else if (a[fl] != '\0' && (f != 1 || a[fl] != '-'))
        push_dir(out, a + fl, strlen(a + fl), cmd->directory);
    }
  }
}

static char *join(const char *dir, const char *rel) {
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, rel);
  return p;
}

/* The paths whose appearance would change what the unit includes: for every header read from
   a search folder S as S/REL, REL in every other search folder; for every header not found,
   its name in every search folder. Only those absent now are kept. */
static void absent_paths(tc_cache *c, const tc_compile_cmd *cmd, char *const *deps,
                         size_t n_deps, char *const *missing, size_t n_missing, str_list *out) {
  str_list dirs = {0};
  search_dirs(cmd, &dirs);
  for (size_t i = 0; i < n_deps && !out->oom; i++) {
    for (size_t s = 0; s < dirs.n; s++) {
      size_t sl = strlen(dirs.v[s]);
      if (strncmp(deps[i], dirs.v[s], sl) != 0 || deps[i][sl] != '/') continue;
      const char *rel = deps[i] + sl + 1;
      for (size_t x = 0; x < dirs.n; x++) {
        if (x == s) continue;
        char *cand = join(dirs.v[x], rel);
        if (cand && !path_exists(c, cand)) list_append(out, cand);
        else free(cand);
      }
    }
  }
  for (size_t i = 0; i < n_missing && !out->oom; i++) {
    if (missing[i][0] == '/') {
      if (!path_exists(c, missing[i])) list_append(out, strdup(missing[i]));
      continue;
    }
    for (size_t x = 0; x < dirs.n; x++) {
      char *cand = join(dirs.v[x], missing[i]);
      if (cand && !path_exists(c, cand)) list_append(out, cand);
      else free(cand);
    }
  }
  if (dirs.oom) out->oom = 1;
  list_free(&dirs);
  list_unique(out);
}

/* ---- lookup ---- */

static uint64_t unit_digest(const void *ir, size_t ir_len, const char *failure, size_t flen) {
  uint64_t h = tc_fnv64(TC_FNV_INIT, ir, ir_len);
  h = tc_fnv64(h ^ ir_len, "\0", 1);
  return tc_fnv64(h, failure ? failure : "", flen) ^ ((uint64_t)flen << 32);
}

uint64_t tc_cache_digest(const tc_program *prog, const char *failure) {
  size_t ir_len = 0;
  unsigned char *ir = tc_ir_serialize(prog, &ir_len);
  if (!ir) return 0;
  uint64_t d = unit_digest(ir, ir_len, failure, failure ? strlen(failure) : 0);
  free(ir);
  return d;
}

uint64_t tc_cache_failure_digest(const char *file, const char *failure) {
  uint64_t h = tc_fnv64(TC_FNV_INIT, file, strlen(file) + 1);
  return unit_digest(&h, sizeof h, failure, failure ? strlen(failure) : 0);
}

/* Reads an entry and checks its trailing checksum. Returns 0 with *data and *len (the payload,
   checksum excluded), or -1. */
static int read_checked(const char *path, unsigned char **data, size_t *len) {
  if (tc_read_file(path, data, len) != 0) return -1;
  if (*len < 8) goto bad;
  tc_rd t = {*data + *len - 8, 8, 0, 0};
  uint64_t sum = tc_rd_u64(&t);
  *len -= 8;
  if (tc_fnv64(TC_FNV_INIT, *data, *len) != sum) goto bad;
  return 0;
bad:
  free(*data);
  *data = NULL;
  return -1;
}

static int write_checked(const char *path, tc_bbuf *b) {
  tc_bb_u64(b, tc_fnv64(TC_FNV_INIT, b->p, b->len));
  if (b->bad) return -1;
  return tc_write_file_atomically(path, b->p, b->len);
}

/* Marks an entry as just used, for the pruning's least-recently-used order. */
static void touch(const char *path) { utimensat(AT_FDCWD, path, NULL, 0); }

/* Every recorded file still hashes the same and every recorded absent path is still absent.
   The recorded files go to deps when it is not NULL. */
static int entry_fresh(tc_cache *c, tc_rd *r, str_list *deps) {
  uint64_t n_deps = tc_rd_u64(r);
  for (uint64_t i = 0; i < n_deps && !r->bad; i++) {
    char *dep = tc_rd_strdup(r);
    uint64_t h = tc_rd_u64(r);
    int missing = 1;
    uint64_t now = dep ? file_hash(c, dep, &missing) : 0;
    if (missing || now != h) {
      free(dep);
      return 0;
    }
    if (deps) list_append(deps, dep);
    else free(dep);
  }
  if (deps && deps->oom) return 0;
  uint64_t n_absent = tc_rd_u64(r);
  for (uint64_t i = 0; i < n_absent && !r->bad; i++) {
    char *p = tc_rd_strdup(r);
    int appeared = p && path_exists(c, p);
    free(p);
    if (appeared) return 0;
  }
  return !r->bad;
}

tc_program *tc_cache_lookup(tc_cache *c, const tc_compile_cmd *cmd, char **failure,
                            uint64_t *digest, char ***deps, size_t *n_deps) {
  *failure = NULL;
  *digest = 0;
  str_list dl = {0};
  tc_bbuf key = {0};
  key_string(c, cmd, &key);
  char *path = key.bad ? NULL : entry_path(c, &key);
  unsigned char *data = NULL;
  size_t len = 0;
  tc_program *prog = NULL;
  if (!path || read_checked(path, &data, &len) != 0) goto done;
  tc_rd r = {data, len, 0, 0};
  uint64_t klen = tc_rd_u64(&r);
  const char *k = tc_rd_bytes(&r, klen);
  if (!k || klen != key.len || memcmp(k, key.p, key.len) != 0) goto done; /* hash collision */
  if (!entry_fresh(c, &r, deps ? &dl : NULL)) goto done; /* stale */
  uint64_t flen = tc_rd_u64(&r);
  const char *f = tc_rd_bytes(&r, flen);
  uint64_t ilen = tc_rd_u64(&r);
  const char *ir = tc_rd_bytes(&r, ilen);
  if (r.bad || !f || !ir || r.pos != r.len) goto done;
  prog = tc_ir_deserialize((const unsigned char *)ir, (size_t)ilen);
  if (!prog) goto done;
  *digest = unit_digest(ir, (size_t)ilen, f, (size_t)flen);
  if (flen) {
    *failure = strndup(f, (size_t)flen);
    if (!*failure) {
      tc_program_free(prog);
      prog = NULL;
      *digest = 0;
      goto done;
    }
  }
  touch(path);
  if (deps) {
    *deps = dl.v;
    *n_deps = dl.n;
    memset(&dl, 0, sizeof dl);
  }
done:
  list_free(&dl);
  free(data);
  free(path);
  tc_bb_free(&key);
  return prog;
}

/* ---- store ---- */

static int ensure_dir(tc_cache *c) {
  pthread_mutex_lock(&c->lock);
  int ok = c->dir_ready;
  if (!ok) {
    /* mkdir -p */
    char *p = strdup(c->dir);
    if (p) {
      for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        mkdir(p, 0777);
        *s = '/';
      }
      ok = mkdir(p, 0777) == 0 || errno == EEXIST;
      free(p);
      if (ok) {
        /* a note for people who find the directory */
        size_t n = strlen(c->dir) + sizeof "/CACHEDIR.TAG";
        char *tag = malloc(n);
        if (tag) {
          snprintf(tag, n, "%s/CACHEDIR.TAG", c->dir);
          static const char text[] = "Signature: 8a477f597d28d172789f06886806bc55\n"
                                     "# tagcheck's analysis cache (safe to delete; --no-cache "
                                     "bypasses it)\n";
          if (access(tag, F_OK) != 0) tc_write_file_atomically(tag, text, sizeof text - 1);
          free(tag);
        }
      }
    }
    c->dir_ready = ok;
  }
  pthread_mutex_unlock(&c->lock);
  return ok ? 0 : -1;
}

uint64_t tc_cache_store(tc_cache *c, const tc_compile_cmd *cmd, const tc_program *prog,
                        const char *failure, const tc_unit_inputs *in) {
  tc_bbuf key = {0}, out = {0};
  str_list absent = {0};
  char *path = NULL;
  size_t ir_len = 0;
  uint64_t digest = 0;
  unsigned char *ir = tc_ir_serialize(prog, &ir_len);
  if (!ir) goto done;
  digest = unit_digest(ir, ir_len, failure, failure ? strlen(failure) : 0);
  if (ensure_dir(c) != 0) goto done;
  key_string(c, cmd, &key);
  tc_bb_u64(&out, key.len);
  tc_bb_put(&out, key.p, key.len);
  tc_bb_u64(&out, in->n_deps);
  for (size_t i = 0; i < in->n_deps; i++) {
    int missing;
    uint64_t h = file_hash(c, in->deps[i], &missing);
    if (missing) goto done; /* a file that went away: do not cache */
    tc_bb_str(&out, in->deps[i]);
    tc_bb_u64(&out, h);
  }
  absent_paths(c, cmd, in->deps, in->n_deps, in->missing, in->n_missing, &absent);
  if (absent.oom) goto done;
  tc_bb_u64(&out, absent.n);
  for (size_t i = 0; i < absent.n; i++) tc_bb_str(&out, absent.v[i]);
  tc_bb_str(&out, failure);
  tc_bb_u64(&out, ir_len);
  tc_bb_put(&out, ir, ir_len);
  if (key.bad || out.bad) goto done;
  path = entry_path(c, &key);
  if (path) write_checked(path, &out);
done:
  free(ir);
  tc_bb_free(&key);
  tc_bb_free(&out);
  list_free(&absent);
  free(path);
  return digest;
}

/* ---- whole-program results ---- */

static uint64_t hash_str(uint64_t h, const char *s) {
  return tc_fnv64(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

uint64_t tc_cache_results_key(const uint64_t *digests, size_t n, uint64_t rules_hash,
                              const tc_engine_opts *eo) {
  uint64_t h = hash_str(TC_FNV_INIT, RESULTS_MAGIC);
  h = hash_str(h, TC_VERSION);
  const uint64_t build = tc_tool_identity(); /* another build of one version analyzes anew */
  h = tc_fnv64(h, &build, sizeof build);
  for (size_t i = 0; i < n; i++) h = tc_fnv64(h, &digests[i], sizeof digests[i]);
  h = tc_fnv64(h, &rules_hash, sizeof rules_hash);
  for (size_t i = 0; i < eo->n_unavailable; i++) h = hash_str(h, eo->unavailable[i]);
  h = hash_str(h, "|");
  for (size_t i = 0; i < eo->n_disabled_rules; i++) h = hash_str(h, eo->disabled_rules[i]);
  h = tc_fnv64(h, &eo->max_states, sizeof eo->max_states);
  h = tc_fnv64(h, &eo->max_contexts, sizeof eo->max_contexts);
  if (eo->groups) h = tc_fnv64(h, &eo->groups, sizeof eo->groups); /* forced (TAGCHECK_GROUPS) */
  return h ? h : 1;
}

/* One file per results key: each component of a database (see driver/components.h) has its
   own, so a change re-analyzes only the component it is in. */
static char *results_path(const tc_cache *c, uint64_t key) {
  size_t n = strlen(c->dir) + sizeof "/results-0123456789abcdef.tcr";
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/results-%016llx.tcr", c->dir, (unsigned long long)key);
  return p;
}

void tc_cache_store_results(tc_cache *c, uint64_t key, const tc_report *r) {
  if (!key || ensure_dir(c) != 0) return;
  tc_bbuf b = {0};
  tc_bb_str(&b, RESULTS_MAGIC);
  tc_bb_u64(&b, key);
  tc_report_encode(&b, r, 0);
  char *path = results_path(c, key);
  if (!b.bad && path) write_checked(path, &b);
  free(path);
  tc_bb_free(&b);
}

int tc_cache_load_results(tc_cache *c, uint64_t key, tc_report *out) {
  if (!key) return -1;
  char *path = results_path(c, key);
  unsigned char *data = NULL;
  size_t len = 0;
  int rc = -1;
  if (!path || read_checked(path, &data, &len) != 0) goto done;
  tc_rd r = {data, len, 0, 0};
  char *magic = tc_rd_strdup(&r);
  int ok = magic && strcmp(magic, RESULTS_MAGIC) == 0 && tc_rd_u64(&r) == key;
  free(magic);
  if (!ok) goto done;
  tc_report part;
  tc_report_init(&part);
  if (tc_report_decode(&r, &part, 0) == 0 && r.pos == r.len) {
    tc_report_take(out, &part);
    touch(path);
    rc = 0;
  }
  tc_report_free(&part);
done:
  free(data);
  free(path);
  return rc;
}

/* ---- pruning ---- */

typedef struct aged {
  char *path;
  time_t used;
  off_t size;
} aged;

static int by_age(const void *a, const void *b) {
  const aged *x = a, *y = b;
  return x->used < y->used ? -1 : x->used > y->used;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

void tc_cache_prune(tc_cache *c, uint64_t max_bytes) {
  DIR *d = opendir(c->dir);
  if (!d) return;
  aged *v = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  time_t now = time(NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *name = e->d_name;
    int entry = ends_with(name, ".tcc") || ends_with(name, ".tcr");
    int temp = name[0] == '.' && ends_with(name, ".tmp");
    if (!entry && !temp) continue;
    char *p = join(c->dir, name);
    struct stat st;
    if (!p || lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
      free(p);
      continue;
    }
    if (temp) { /* a killed run's leftover (an hour old: no live run writes that long) */
      if (now - st.st_mtime > 3600) unlink(p);
      free(p);
      continue;
    }
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 256;
      aged *nv = realloc(v, nc * sizeof *nv);
      if (!nv) {
        free(p);
        break;
      }
      v = nv;
      cap = nc;
    }
    v[n++] = (aged){p, st.st_mtime, st.st_size};
    total += (uint64_t)st.st_size;
  }
  closedir(d);
  if (total > max_bytes) {
    qsort(v, n, sizeof *v, by_age);
    uint64_t target = max_bytes / 10 * 8; /* leave room for the next runs */
    for (size_t i = 0; i < n && total > target; i++)
      if (unlink(v[i].path) == 0) total -= (uint64_t)v[i].size;
  }
  for (size_t i = 0; i < n; i++) free(v[i].path);
  free(v);
}
