/* analyzer/src/driver/cache.c — the analysis cache: one file per unit in the cache directory,
 * named by a hash of the unit's file and arguments (and the IR format), holding those key
 * strings, the content hash of every file the unit read, the unit's failure and its serialized
 * IR. An entry is used only if every recorded file still hashes the same; each file is hashed
 * at most once per run (a memo shared by the workers). A second kind of entry, results.tcr,
 * keeps the findings of the last whole-program analysis with the key of its inputs. Stores go
 * through a temporary file and rename(), so a concurrent or interrupted run never sees half an
 * entry. */
#include "driver/cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TC_VERSION
#define TC_VERSION "0"
#endif

#define CACHE_MAGIC "TCCACHE2"

typedef struct memo_entry {
  char *path;
  uint64_t hash;
  int missing;
} memo_entry;

struct tc_cache {
  char *dir;
  int dir_ready;
  pthread_mutex_t lock; /* guards the memo and dir_ready */
  memo_entry *memo;
  size_t n_memo, cap_memo;
  unsigned long seq; /* temporary file names */
};

static uint64_t fnv64(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

#define FNV_INIT 1469598103934665603ull

tc_cache *tc_cache_open(const char *dir) {
  tc_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->dir = strdup(dir);
  if (!c->dir || pthread_mutex_init(&c->lock, NULL) != 0) {
    free(c->dir);
    free(c);
    return NULL;
  }
  return c;
}

void tc_cache_close(tc_cache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n_memo; i++) free(c->memo[i].path);
  free(c->memo);
  pthread_mutex_destroy(&c->lock);
  free(c->dir);
  free(c);
}

/* ---- byte buffers ---- */

typedef struct bbuf {
  unsigned char *p;
  size_t len, cap;
  int bad;
} bbuf;

static void bb_put(bbuf *b, const void *data, size_t n) {
  if (b->bad) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    unsigned char *np = realloc(b->p, cap);
    if (!np) {
      b->bad = 1;
      return;
    }
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

static void bb_u64(bbuf *b, uint64_t v) {
  unsigned char x[8];
  for (int i = 0; i < 8; i++) x[i] = (unsigned char)(v >> (8 * i));
  bb_put(b, x, 8);
}

static void bb_str(bbuf *b, const char *s) {
  size_t n = s ? strlen(s) : 0;
  bb_u64(b, n);
  bb_put(b, s ? s : "", n);
}

typedef struct rd {
  const unsigned char *p;
  size_t len, pos;
  int bad;
} rd;

static uint64_t rd_u64(rd *r) {
  if (r->bad || r->len - r->pos < 8) {
    r->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += 8;
  return v;
}

/* A pointer to n bytes in the buffer (not NUL-terminated), or NULL. */
static const char *rd_bytes(rd *r, uint64_t n) {
  if (r->bad || n > r->len - r->pos) {
    r->bad = 1;
    return NULL;
  }
  const char *s = (const char *)r->p + r->pos;
  r->pos += (size_t)n;
  return s;
}

static int read_file(const char *path, unsigned char **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0, got;
  unsigned char tmp[65536];
  while ((got = fread(tmp, 1, sizeof tmp, f)) > 0) {
    if (n + got > cap) {
      cap = (n + got) * 2;
      unsigned char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return -1;
      }
      buf = nb;
    }
    memcpy(buf + n, tmp, got);
    n += got;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return -1;
  }
  *data = buf;
  *len = n;
  return 0;
}

/* ---- keys and file hashes ---- */

/* The unit's identity: format, tool version, file, arguments. */
static void key_string(const tc_compile_cmd *cmd, bbuf *b) {
  bb_str(b, CACHE_MAGIC);
  bb_str(b, TC_VERSION);
  bb_str(b, cmd->file);
  bb_str(b, cmd->directory);
  for (size_t i = 0; i < cmd->argc; i++) bb_str(b, cmd->argv[i]);
}

static char *entry_path(const tc_cache *c, const bbuf *key) {
  uint64_t h = fnv64(FNV_INIT, key->p, key->len);
  size_t n = strlen(c->dir) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%016llx.tcc", c->dir, (unsigned long long)h);
  return p;
}

/* The content hash of path, memoized for the run; 0 with *missing set when unreadable. */
static uint64_t file_hash(tc_cache *c, const char *path, int *missing) {
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->n_memo; i++) {
    if (strcmp(c->memo[i].path, path) == 0) {
      uint64_t h = c->memo[i].hash;
      *missing = c->memo[i].missing;
      pthread_mutex_unlock(&c->lock);
      return h;
    }
  }
  pthread_mutex_unlock(&c->lock);
  unsigned char *data = NULL;
  size_t len = 0;
  uint64_t h = 0;
  *missing = read_file(path, &data, &len) != 0;
  if (!*missing) h = fnv64(FNV_INIT, data, len) ^ len;
  free(data);
  pthread_mutex_lock(&c->lock);
  if (c->n_memo == c->cap_memo) {
    size_t cap = c->cap_memo ? c->cap_memo * 2 : 256;
    memo_entry *m = realloc(c->memo, cap * sizeof *m);
    if (m) {
      c->memo = m;
      c->cap_memo = cap;
    }
  }
  if (c->n_memo < c->cap_memo) {
    char *copy = strdup(path);
    if (copy) c->memo[c->n_memo++] = (memo_entry){copy, h, *missing};
  }
  pthread_mutex_unlock(&c->lock);
  return h;
}

/* ---- lookup ---- */

static uint64_t unit_digest(const void *ir, size_t ir_len, const char *failure, size_t flen) {
  uint64_t h = fnv64(FNV_INIT, ir, ir_len);
  h = fnv64(h ^ ir_len, "\0", 1);
  return fnv64(h, failure ? failure : "", flen) ^ ((uint64_t)flen << 32);
}

uint64_t tc_cache_failure_digest(const char *file, const char *failure) {
  uint64_t h = fnv64(FNV_INIT, file, strlen(file) + 1);
  return unit_digest(&h, sizeof h, failure, failure ? strlen(failure) : 0);
}

tc_program *tc_cache_lookup(tc_cache *c, const tc_compile_cmd *cmd, char **failure,
                            uint64_t *digest) {
  *failure = NULL;
  *digest = 0;
  bbuf key = {0};
  key_string(cmd, &key);
  char *path = key.bad ? NULL : entry_path(c, &key);
  unsigned char *data = NULL;
  size_t len = 0;
  tc_program *prog = NULL;
  if (!path || read_file(path, &data, &len) != 0) goto done;
  rd r = {data, len, 0, 0};
  uint64_t klen = rd_u64(&r);
  const char *k = rd_bytes(&r, klen);
  if (!k || klen != key.len || memcmp(k, key.p, key.len) != 0) goto done; /* hash collision */
  uint64_t n_deps = rd_u64(&r);
  for (uint64_t i = 0; i < n_deps && !r.bad; i++) {
    uint64_t plen = rd_u64(&r);
    const char *pp = rd_bytes(&r, plen);
    uint64_t h = rd_u64(&r);
    if (!pp) goto done;
    char *dep = malloc((size_t)plen + 1);
    if (!dep) goto done;
    memcpy(dep, pp, (size_t)plen);
    dep[plen] = '\0';
    int missing;
    uint64_t now = file_hash(c, dep, &missing);
    free(dep);
    if (missing || now != h) goto done; /* stale */
  }
  uint64_t flen = rd_u64(&r);
  const char *f = rd_bytes(&r, flen);
  uint64_t ilen = rd_u64(&r);
  const char *ir = rd_bytes(&r, ilen);
  if (r.bad || !f || !ir || r.pos != r.len) goto done;
  prog = tc_ir_deserialize((const unsigned char *)ir, (size_t)ilen);
  if (prog) *digest = unit_digest(ir, (size_t)ilen, f, (size_t)flen);
  if (prog && flen) {
    *failure = malloc((size_t)flen + 1);
    if (*failure) {
      memcpy(*failure, f, (size_t)flen);
      (*failure)[flen] = '\0';
    }
  }
done:
  free(data);
  free(path);
  free(key.p);
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
          FILE *f = access(tag, F_OK) == 0 ? NULL : fopen(tag, "w");
          if (f) {
            fputs("Signature: 8a477f597d28d172789f06886806bc55\n"
                  "# tagcheck's analysis cache (safe to delete; --no-cache bypasses it)\n",
                  f);
            fclose(f);
          }
          free(tag);
        }
      }
    }
    c->dir_ready = ok;
  }
  pthread_mutex_unlock(&c->lock);
  return ok ? 0 : -1;
}

/* Writes data to path through a temporary file and rename(). */
static void write_atomically(tc_cache *c, const char *path, const void *data, size_t len) {
  size_t tn = strlen(path) + 64;
  char *tmp = malloc(tn);
  if (!tmp) return;
  pthread_mutex_lock(&c->lock);
  unsigned long seq = c->seq++;
  pthread_mutex_unlock(&c->lock);
  snprintf(tmp, tn, "%s.%ld.%lu.tmp", path, (long)getpid(), seq);
  FILE *f = fopen(tmp, "wb");
  if (f) {
    int ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) remove(tmp);
  }
  free(tmp);
}

uint64_t tc_cache_store(tc_cache *c, const tc_compile_cmd *cmd, const tc_program *prog,
                        const char *failure, char *const *deps, size_t n_deps) {
  bbuf key = {0}, out = {0};
  char *path = NULL;
  size_t ir_len = 0;
  uint64_t digest = 0;
  unsigned char *ir = tc_ir_serialize(prog, &ir_len);
  if (!ir) goto done;
  digest = unit_digest(ir, ir_len, failure, failure ? strlen(failure) : 0);
  if (ensure_dir(c) != 0) goto done;
  key_string(cmd, &key);
  bb_u64(&out, key.len);
  bb_put(&out, key.p, key.len);
  bb_u64(&out, n_deps);
  for (size_t i = 0; i < n_deps; i++) {
    int missing;
    uint64_t h = file_hash(c, deps[i], &missing);
    if (missing) goto done; /* a file that went away: do not cache */
    bb_str(&out, deps[i]);
    bb_u64(&out, h);
  }
  bb_str(&out, failure);
  bb_u64(&out, ir_len);
  bb_put(&out, ir, ir_len);
  if (key.bad || out.bad) goto done;
  path = entry_path(c, &key);
  if (path) write_atomically(c, path, out.p, out.len);
done:
  free(ir);
  free(key.p);
  free(out.p);
  free(path);
  return digest;
}

/* ---- whole-program results ---- */

#define RESULTS_MAGIC "TCRESULTS1"

static uint64_t hash_str(uint64_t h, const char *s) {
  return fnv64(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

uint64_t tc_cache_results_key(const uint64_t *digests, size_t n, const char *const *rules_paths,
                              size_t n_rules, const tc_engine_opts *eo) {
  uint64_t h = hash_str(FNV_INIT, RESULTS_MAGIC);
  h = hash_str(h, TC_VERSION);
  for (size_t i = 0; i < n; i++) h = fnv64(h, &digests[i], sizeof digests[i]);
  for (size_t i = 0; i < n_rules; i++) {
    unsigned char *data = NULL;
    size_t len = 0;
    if (read_file(rules_paths[i], &data, &len) != 0) return 0;
    h = hash_str(h, rules_paths[i]);
    h = fnv64(h, data, len) ^ len;
    free(data);
  }
  for (size_t i = 0; i < eo->n_unavailable; i++) h = hash_str(h, eo->unavailable[i]);
  h = hash_str(h, "|");
  for (size_t i = 0; i < eo->n_disabled_rules; i++) h = hash_str(h, eo->disabled_rules[i]);
  h = fnv64(h, &eo->max_states, sizeof eo->max_states);
  h = fnv64(h, &eo->max_contexts, sizeof eo->max_contexts);
  if (eo->groups) h = fnv64(h, &eo->groups, sizeof eo->groups); /* forced (TAGCHECK_GROUPS) */
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

static void put_loc(bbuf *b, const tc_loc *l) {
  bb_str(b, l->file);
  bb_u64(b, l->line);
  bb_u64(b, l->col);
  bb_u64(b, l->end_line);
  bb_u64(b, l->end_col);
}

void tc_cache_store_results(tc_cache *c, uint64_t key, const tc_report *r) {
  if (!key || ensure_dir(c) != 0) return;
  bbuf b = {0};
  bb_str(&b, RESULTS_MAGIC);
  bb_u64(&b, key);
  bb_u64(&b, r->n_diags);
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    bb_str(&b, d->rule_id);
    bb_u64(&b, (uint64_t)d->level);
    put_loc(&b, &d->loc);
    bb_str(&b, d->operation);
    bb_str(&b, d->function);
    bb_str(&b, d->message);
    bb_u64(&b, d->n_notes);
    for (size_t k = 0; k < d->n_notes; k++) {
      put_loc(&b, &d->notes[k].loc);
      bb_str(&b, d->notes[k].message);
    }
  }
  char *path = results_path(c, key);
  if (!b.bad && path) write_atomically(c, path, b.p, b.len);
  free(path);
  free(b.p);
}

/* A NUL-terminated copy of the next string (into a scratch buffer that grows), or NULL. */
static const char *rd_str(rd *r, char **scratch, size_t *cap) {
  uint64_t n = rd_u64(r);
  const char *s = rd_bytes(r, n);
  if (!s) return NULL;
  if (n + 1 > *cap) {
    char *ns = realloc(*scratch, (size_t)n + 1);
    if (!ns) {
      r->bad = 1;
      return NULL;
    }
    *scratch = ns;
    *cap = (size_t)n + 1;
  }
  memcpy(*scratch, s, (size_t)n);
  (*scratch)[n] = '\0';
  return *scratch;
}

static int get_loc(rd *r, tc_loc *l, char **scratch, size_t *cap) {
  const char *f = rd_str(r, scratch, cap);
  l->line = (unsigned)rd_u64(r);
  l->col = (unsigned)rd_u64(r);
  l->end_line = (unsigned)rd_u64(r);
  l->end_col = (unsigned)rd_u64(r);
  l->file = f ? strdup(f) : NULL;
  return !r->bad && l->file ? 0 : -1;
}

int tc_cache_load_results(tc_cache *c, uint64_t key, tc_report *out) {
  if (!key) return -1;
  char *path = results_path(c, key);
  unsigned char *data = NULL;
  size_t len = 0;
  int rc = -1;
  if (!path || read_file(path, &data, &len) != 0) goto done;
  rd r = {data, len, 0, 0};
  char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL;
  size_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  const char *magic = rd_str(&r, &s1, &c1);
  if (!magic || strcmp(magic, RESULTS_MAGIC) != 0 || rd_u64(&r) != key) goto free_scratch;
  /* validate everything before appending anything */
  size_t start = r.pos;
  for (int pass = 0; pass < 2; pass++) {
    r.pos = start;
    uint64_t n = rd_u64(&r);
    for (uint64_t i = 0; i < n && !r.bad; i++) {
      const char *rule = rd_str(&r, &s1, &c1);
      uint64_t level = rd_u64(&r);
      tc_loc loc;
      if (get_loc(&r, &loc, &s4, &c4) != 0 || level > TC_LEVEL_ERROR) {
        free(loc.file);
        r.bad = 1;
        break;
      }
      const char *op = rd_str(&r, &s2, &c2);
      const char *fn = rd_str(&r, &s3, &c3);
      char *msg = NULL;
      const char *m = rd_str(&r, &s4, &c4);
      if (m) msg = strdup(m);
      tc_diag *d = NULL;
      if (pass == 1 && rule && op && fn && msg)
        d = tc_report_add(out, rule, (tc_level)level, &loc, op, fn, msg);
      free(loc.file);
      free(msg);
      uint64_t nn = rd_u64(&r);
      for (uint64_t k = 0; k < nn && !r.bad; k++) {
        tc_loc nl;
        if (get_loc(&r, &nl, &s1, &c1) != 0) {
          free(nl.file);
          break;
        }
        const char *nm = rd_str(&r, &s4, &c4);
        if (d && nm) tc_diag_add_note(d, &nl, nm);
        free(nl.file);
      }
    }
    if (r.bad || r.pos != r.len) break;
    if (pass == 1) rc = 0;
  }
free_scratch:
  free(s1);
  free(s2);
  free(s3);
  free(s4);
done:
  free(data);
  free(path);
  return rc;
}
