/* analyzer/src/driver/unit_table.c — the editor session's lowered units (see unit_table.h).
 * Files are interned once (an open-addressing index by path); each is stat'ed at most once per
 * analysis (tc_unit_table_begin starts one), and each entry keeps the stamp every one of its
 * files had when it was recorded. Entries are found by a hash of their compile command and
 * compared byte for byte. Each entry's unit is deserialized once, into the table's store (one
 * program, one string table); lookups hand out views of it (ir.h), never copies. */
#include "driver/unit_table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"
#include "base/bytes.h"

typedef struct stamp {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
} stamp;

typedef struct file_rec {
  char *path;
  unsigned seen;  /* the analysis `now` was taken in (0: never) */
  int exists;     /* at that analysis */
  stamp now;
} file_rec;

typedef struct entry {
  tc_bbuf key;         /* the compile command's identity (key_of) */
  uint64_t key_hash;
  unsigned char *ir;   /* the serialized one-unit program */
  size_t ir_len;
  char *failure;
  uint64_t digest;
  size_t *files;       /* indices into the table's files, the unit's own file first */
  stamp *stamps;       /* what each had when recorded */
  size_t n_files;
  int64_t in_store;    /* its unit in the table's store, or -1 when not lowered there yet */
} entry;

struct tc_unit_table {
  entry *entries;
  size_t n, cap;
  file_rec *files;
  size_t n_files, cap_files;
  size_t *index;       /* open addressing over files: index+1, 0 empty; power-of-two size */
  size_t cap_index;
  unsigned analysis;   /* the current analysis (tc_unit_table_begin) */
  tc_program *store;   /* the entries' units, deserialized once, one string table */
  size_t garbage;      /* units of the store no entry has any more */
};

tc_unit_table *tc_unit_table_new(void) {
  tc_unit_table *t = calloc(1, sizeof *t);
  if (t) t->analysis = 1;
  return t;
}

static void entry_clear(entry *e) {
  tc_bb_free(&e->key);
  free(e->ir);
  free(e->failure);
  free(e->files);
  free(e->stamps);
  memset(e, 0, sizeof *e);
}

void tc_unit_table_free(tc_unit_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) entry_clear(&t->entries[i]);
  free(t->entries);
  for (size_t i = 0; i < t->n_files; i++) free(t->files[i].path);
  free(t->files);
  free(t->index);
  tc_program_free(t->store);
  free(t);
}

void tc_unit_table_begin(tc_unit_table *t) {
  t->analysis++;
  /* units of dropped or replaced entries stay in the store until it is rebuilt: when they are
     more than the live ones, it is (each live entry lowered into the new store at its next
     lookup), so edits on disk never grow it without bound */
  if (t->store && t->garbage > 16 && t->garbage > t->store->n_units - t->garbage) {
    tc_program_free(t->store);
    t->store = NULL;
    t->garbage = 0;
    for (size_t i = 0; i < t->n; i++) t->entries[i].in_store = -1;
  }
}

size_t tc_unit_table_size(const tc_unit_table *t) { return t->n; }

/* ---- files ---- */

static size_t *index_slot(tc_unit_table *t, const char *path) {
  size_t mask = t->cap_index - 1, i = (size_t)tc_fnv64_str(path) & mask;
  while (t->index[i] && strcmp(t->files[t->index[i] - 1].path, path) != 0) i = (i + 1) & mask;
  return &t->index[i];
}

static int index_grow(tc_unit_table *t) {
  size_t cap = t->cap_index ? 2 * t->cap_index : 256;
  size_t *old = t->index;
  size_t old_cap = t->cap_index;
  t->index = calloc(cap, sizeof *t->index);
  if (!t->index) {
    t->index = old;
    return -1;
  }
  t->cap_index = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i]) *index_slot(t, t->files[old[i] - 1].path) = old[i];
  free(old);
  return 0;
}

/* The index of path among the table's files (added when new), or (size_t)-1 out of memory. */
static size_t intern_file(tc_unit_table *t, const char *path) {
  if ((t->n_files + 1) * 2 > t->cap_index && index_grow(t) != 0) return (size_t)-1;
  size_t *slot = index_slot(t, path);
  if (*slot) return *slot - 1;
  if (t->n_files == t->cap_files) {
    size_t cap = t->cap_files ? 2 * t->cap_files : 64;
    file_rec *f = realloc(t->files, cap * sizeof *f);
    if (!f) return (size_t)-1;
    t->files = f;
    t->cap_files = cap;
  }
  file_rec *f = &t->files[t->n_files];
  memset(f, 0, sizeof *f);
  if (!(f->path = strdup(path))) return (size_t)-1;
  *slot = ++t->n_files;
  return t->n_files - 1;
}

/* File i's stamp in this analysis (stat'ed once); 0 when it does not exist. */
static int current(tc_unit_table *t, size_t i, stamp *out) {
  file_rec *f = &t->files[i];
  if (f->seen != t->analysis) {
    struct stat st;
    f->seen = t->analysis;
    f->exists = stat(f->path, &st) == 0;
    memset(&f->now, 0, sizeof f->now);
    if (f->exists)
      f->now = (stamp){st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim};
  }
  *out = f->now;
  return f->exists;
}

static int same_stamp(const stamp *a, const stamp *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
         a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
         a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

/* ---- entries ---- */

/* The identity of a compile command: its file, folder and arguments. */
static void key_of(const tc_compile_cmd *cmd, tc_bbuf *b) {
  tc_bb_str(b, cmd->file);
  tc_bb_str(b, cmd->directory);
  tc_bb_u64(b, cmd->argc);
  for (size_t i = 0; i < cmd->argc; i++) tc_bb_str(b, cmd->argv[i]);
}

static entry *find(tc_unit_table *t, const tc_bbuf *key, uint64_t h) {
  for (size_t i = 0; i < t->n; i++) {
    entry *e = &t->entries[i];
    if (e->key_hash == h && e->key.len == key->len && memcmp(e->key.p, key->p, key->len) == 0)
      return e;
  }
  return NULL;
}

static void drop(tc_unit_table *t, entry *e) {
  t->garbage += e->in_store >= 0;
  entry_clear(e);
  *e = t->entries[--t->n];
}

/* e's unit in the store (deserialized and merged there the first time). -1 out of memory. */
static int64_t store_unit(tc_unit_table *t, entry *e) {
  if (e->in_store >= 0) return e->in_store;
  if (!t->store && !(t->store = tc_program_new())) return -1;
  tc_program *p = tc_ir_deserialize(e->ir, e->ir_len);
  if (!p || p->n_units != 1) {
    tc_program_free(p);
    return -1;
  }
  int64_t at = t->store->n_units;
  if (tc_program_merge(t->store, p) != 0) return -1;
  return e->in_store = at;
}

int tc_unit_table_get(tc_unit_table *t, tc_job_unit *u, uint32_t *unit) {
  tc_bbuf key = {0};
  key_of(u->cmd, &key);
  if (key.bad) {
    tc_bb_free(&key);
    return -1;
  }
  entry *e = find(t, &key, tc_fnv64(TC_FNV_INIT, key.p, key.len));
  tc_bb_free(&key);
  if (!e) return 0;
  for (size_t i = 0; i < e->n_files; i++) {
    stamp now;
    if (!current(t, e->files[i], &now) || !same_stamp(&now, &e->stamps[i])) {
      drop(t, e); /* a file changed on disk: lowered again (or taken from the cache) */
      return 0;
    }
  }
  int64_t at = store_unit(t, e);
  u->deps = calloc(e->n_files ? e->n_files : 1, sizeof *u->deps);
  u->failure = e->failure ? strdup(e->failure) : NULL;
  if (at < 0 || !u->deps || (e->failure && !u->failure)) goto oom;
  for (size_t i = 0; i < e->n_files; i++) {
    if (!(u->deps[i] = strdup(t->files[e->files[i]].path))) goto oom;
    u->n_deps++;
  }
  *unit = (uint32_t)at;
  u->digest = e->digest;
  u->from_cache = 1;
  return 1;
oom:
  tc_job_unit_clear(u);
  return -1;
}

tc_program *tc_unit_table_view(const tc_unit_table *t, uint32_t unit) {
  return t->store ? tc_program_view(t->store, unit) : NULL;
}

int tc_unit_table_put(tc_unit_table *t, const tc_job_unit *u) {
  if (!u->prog || !u->digest || !u->cmd) return 0;
  entry e;
  memset(&e, 0, sizeof e);
  key_of(u->cmd, &e.key);
  e.key_hash = tc_fnv64(TC_FNV_INIT, e.key.p, e.key.len);
  /* the unit's own file first, then the others it read (the list may or may not hold it) */
  size_t n = u->n_deps + 1;
  e.files = malloc(n * sizeof *e.files);
  e.stamps = malloc(n * sizeof *e.stamps);
  e.ir = tc_ir_serialize(u->prog, &e.ir_len);
  e.failure = u->failure ? strdup(u->failure) : NULL;
  e.digest = u->digest;
  e.in_store = -1;
  if (e.key.bad || !e.files || !e.stamps || !e.ir || (u->failure && !e.failure)) goto oom;
  for (size_t i = 0; i <= u->n_deps; i++) {
    const char *path = i == 0 ? u->cmd->file : u->deps[i - 1];
    if (i > 0 && strcmp(path, u->cmd->file) == 0) continue;
    size_t f = intern_file(t, path);
    if (f == (size_t)-1) goto oom;
    if (!current(t, f, &e.stamps[e.n_files])) { /* gone already: not recorded */
      entry_clear(&e);
      return 0;
    }
    e.files[e.n_files++] = f;
  }
  entry *old = find(t, &e.key, e.key_hash);
  if (old) {
    t->garbage += old->in_store >= 0;
    entry_clear(old);
    *old = e;
    return 0;
  }
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    entry *v = realloc(t->entries, cap * sizeof *v);
    if (!v) goto oom;
    t->entries = v;
    t->cap = cap;
  }
  t->entries[t->n++] = e;
  return 0;
oom:
  entry_clear(&e);
  return -1;
}
