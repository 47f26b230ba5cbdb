/* runtime/backends/sim/sim_memory.c — sim's device memory: per ordinal, a device address range
 * reserved PROT_NONE (what alloc hands out; a host dereference faults) and a backing mapping of
 * the same size holding the data at the same offsets; a first-fit allocator over offsets.
 *
 * Free space is an address-ordered array of extents, coalesced on free; live allocations are
 * an open-addressing hash table from offset to size. Freed blocks of DT_SIM_RELEASE_MIN bytes
 * or more are given back to the system (MADV_DONTNEED); smaller ones stay resident for reuse,
 * as a GPU allocator's cache would (re-faulting a result buffer on every operation costs more
 * than the operation). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim_memory.h"

#define DT_SIM_MAX_DEVICES 64
#define DT_SIM_ALIGN 256
#define DT_SIM_DEFAULT_BYTES (16ull << 30)
#define DT_SIM_RELEASE_MIN (64u << 20)

typedef struct extent {
  size_t off, len;
} extent;

typedef struct slot {
  size_t off; /* SIZE_MAX: empty; SIZE_MAX - 1: deleted */
  size_t len;
} slot;
#define SLOT_EMPTY SIZE_MAX
#define SLOT_DELETED (SIZE_MAX - 1)

struct dt_sim_memory {
  pthread_mutex_t lock;
  unsigned char *base; /* device addresses: PROT_NONE */
  unsigned char *data; /* backing store: read-write, never handed out */
  size_t size;
  extent *free; /* address order, disjoint, never adjacent */
  size_t nfree, capfree;
  slot *live;
  size_t nlive, ntomb, caplive; /* caplive: a power of two */
  size_t in_use;
};

static dt_sim_memory g_mem[DT_SIM_MAX_DEVICES];
static int g_mem_ready[DT_SIM_MAX_DEVICES];
static char g_mem_why[DT_SIM_MAX_DEVICES][128];
static pthread_mutex_t g_mem_lock = PTHREAD_MUTEX_INITIALIZER;

static long env_long(const char *name, long fallback, long lo, long hi) {
  const char *s = getenv(name);
  if (s == NULL || *s == '\0') return fallback;
  char *end;
  long v = strtol(s, &end, 10);
  return (*end == '\0' && v >= lo && v <= hi) ? v : fallback;
}

static pthread_once_t g_count_once = PTHREAD_ONCE_INIT;
static int g_count;
static void read_count(void) { g_count = (int)env_long("DT_SIM_DEVICES", 2, 1, DT_SIM_MAX_DEVICES); }

int dt_sim_memory_device_count(void) { /* read once: the registry counts devices once too */
  pthread_once(&g_count_once, read_count);
  return g_count;
}

static size_t arena_bytes(void) {
  const char *s = getenv("DT_SIM_MEMORY");
  if (s != NULL && *s != '\0') {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K') shift = 10, ++end;
    else if (*end == 'm' || *end == 'M') shift = 20, ++end;
    else if (*end == 'g' || *end == 'G') shift = 30, ++end;
    if (*end == '\0' && v > 0 && v < (1ull << 46) >> shift) return (size_t)(v << shift);
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  unsigned long long phys = pages > 0 && page > 0 ? (unsigned long long)pages * page : 0;
  return (size_t)(phys != 0 && phys < DT_SIM_DEFAULT_BYTES ? phys : DT_SIM_DEFAULT_BYTES);
}

static int arena_init(dt_sim_memory *m, char *why, size_t why_len) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = (arena_bytes() + page - 1) / page * page;
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void *p = MAP_FAILED, *d = MAP_FAILED;
  /* where overcommit is strict, a smaller device is better than none */
  for (; size >= ((size_t)64 << 20); size /= 2) {
    p = mmap(NULL, size, PROT_NONE, flags, -1, 0);
    d = p == MAP_FAILED ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (d != MAP_FAILED) break;
    if (p != MAP_FAILED) munmap(p, size);
    p = MAP_FAILED;
  }
  if (d == MAP_FAILED) {
    snprintf(why, why_len, "cannot map simulated device memory: %s", strerror(errno));
    return -1;
  }
  memset(m, 0, sizeof *m);
  pthread_mutex_init(&m->lock, NULL);
  m->base = p;
  m->data = d;
  m->size = size;
  m->capfree = 16;
  m->free = malloc(m->capfree * sizeof *m->free);
  m->caplive = 64;
  m->live = malloc(m->caplive * sizeof *m->live);
  if (m->free == NULL || m->live == NULL) {
    free(m->free);
    free(m->live);
    munmap(p, size);
    munmap(d, size);
    snprintf(why, why_len, "out of host memory for the simulated device's bookkeeping");
    return -1;
  }
  for (size_t i = 0; i < m->caplive; ++i) m->live[i].off = SLOT_EMPTY;
  m->free[0] = (extent){0, size};
  m->nfree = 1;
  return 0;
}

dt_sim_memory *dt_sim_memory_get(int ordinal, char *why, size_t why_len) {
  char dummy[1];
  if (why == NULL || why_len == 0) why = dummy, why_len = 1;
  const int count = dt_sim_memory_device_count();
  if (ordinal < 0 || ordinal >= count) {
    snprintf(why, why_len, "sim:%d does not exist (%d simulated device%s; DT_SIM_DEVICES sets the count)",
             ordinal, count, count == 1 ? "" : "s");
    return NULL;
  }
  pthread_mutex_lock(&g_mem_lock);
  if (!g_mem_ready[ordinal] && g_mem_why[ordinal][0] == '\0') {
    if (arena_init(&g_mem[ordinal], g_mem_why[ordinal], sizeof g_mem_why[ordinal]) == 0)
      g_mem_ready[ordinal] = 1;
  }
  dt_sim_memory *m = g_mem_ready[ordinal] ? &g_mem[ordinal] : NULL;
  if (m == NULL) snprintf(why, why_len, "%s", g_mem_why[ordinal]);
  pthread_mutex_unlock(&g_mem_lock);
  return m;
}

/* ---- live table ---- */
static size_t hash_off(size_t off) {
  uint64_t x = (uint64_t)(off / DT_SIM_ALIGN) * 0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ (x >> 29));
}

static slot *live_find(dt_sim_memory *m, size_t off) {
  size_t mask = m->caplive - 1;
  for (size_t i = hash_off(off) & mask;; i = (i + 1) & mask) {
    if (m->live[i].off == off) return &m->live[i];
    if (m->live[i].off == SLOT_EMPTY) return NULL;
  }
}

static int live_insert(dt_sim_memory *m, size_t off, size_t len);

static int live_grow(dt_sim_memory *m) {
  size_t cap = (m->nlive + 1) * 4 > m->caplive ? m->caplive * 2 : m->caplive; /* or rehash */
  slot *old = m->live;
  size_t oldcap = m->caplive;
  slot *fresh = malloc(cap * sizeof *fresh);
  if (fresh == NULL) return -1;
  for (size_t i = 0; i < cap; ++i) fresh[i].off = SLOT_EMPTY;
  m->live = fresh;
  m->caplive = cap;
  m->nlive = m->ntomb = 0;
  for (size_t i = 0; i < oldcap; ++i)
    if (old[i].off < SLOT_DELETED) live_insert(m, old[i].off, old[i].len);
  free(old);
  return 0;
}

static int live_insert(dt_sim_memory *m, size_t off, size_t len) {
  if ((m->nlive + m->ntomb + 1) * 2 > m->caplive && live_grow(m) != 0) return -1;
  size_t mask = m->caplive - 1;
  size_t i = hash_off(off) & mask;
  while (m->live[i].off < SLOT_DELETED) i = (i + 1) & mask;
  if (m->live[i].off == SLOT_DELETED) --m->ntomb;
  m->live[i].off = off;
  m->live[i].len = len;
  ++m->nlive;
  return 0;
}

/* ---- free extents ---- */
static int free_reserve(dt_sim_memory *m) {
  if (m->nfree < m->capfree) return 0;
  extent *e = realloc(m->free, m->capfree * 2 * sizeof *e);
  if (e == NULL) return -1;
  m->free = e;
  m->capfree *= 2;
  return 0;
}

/* Gives the whole pages inside [off, off + len) back to the system. */
static void release_pages(dt_sim_memory *m, size_t off, size_t len) {
  if (len < DT_SIM_RELEASE_MIN) return;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t lo = (off + page - 1) / page * page, hi = (off + len) / page * page;
  if (hi > lo) madvise(m->data + lo, hi - lo, MADV_DONTNEED);
}

void *dt_sim_memory_alloc(dt_sim_memory *m, size_t bytes) {
  if (bytes > m->size) return NULL;
  size_t len = (bytes + DT_SIM_ALIGN - 1) / DT_SIM_ALIGN * DT_SIM_ALIGN;
  if (len == 0) len = DT_SIM_ALIGN;
  void *p = NULL;
  pthread_mutex_lock(&m->lock);
  for (size_t i = 0; i < m->nfree; ++i) {
    if (m->free[i].len < len) continue;
    size_t off = m->free[i].off;
    if (live_insert(m, off, len) != 0) break;
    m->free[i].off += len;
    m->free[i].len -= len;
    if (m->free[i].len == 0) {
      memmove(&m->free[i], &m->free[i + 1], (m->nfree - i - 1) * sizeof *m->free);
      --m->nfree;
    }
    m->in_use += len;
    p = m->base + off;
    break;
  }
  pthread_mutex_unlock(&m->lock);
  return p;
}

int dt_sim_memory_free(dt_sim_memory *m, void *p) {
  if (p == NULL) return 0;
  if ((unsigned char *)p < m->base || (unsigned char *)p >= m->base + m->size) return -1;
  size_t off = (size_t)((unsigned char *)p - m->base);
  int rc = -1;
  pthread_mutex_lock(&m->lock);
  slot *s = live_find(m, off);
  if (s != NULL && free_reserve(m) == 0) {
    size_t len = s->len;
    s->off = SLOT_DELETED;
    --m->nlive;
    ++m->ntomb;
    m->in_use -= len;
    /* first extent after off */
    size_t lo = 0, hi = m->nfree;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (m->free[mid].off < off) lo = mid + 1;
      else hi = mid;
    }
    const size_t i = lo; /* the first extent after the freed block */
    int join_prev = i > 0 && m->free[i - 1].off + m->free[i - 1].len == off;
    int join_next = i < m->nfree && off + len == m->free[i].off;
    if (join_prev && join_next) {
      m->free[i - 1].len += len + m->free[i].len;
      memmove(&m->free[i], &m->free[i + 1], (m->nfree - i - 1) * sizeof *m->free);
      --m->nfree;
    } else if (join_prev) {
      m->free[i - 1].len += len;
    } else if (join_next) {
      m->free[i].off = off;
      m->free[i].len += len;
    } else {
      memmove(&m->free[i + 1], &m->free[i], (m->nfree - i) * sizeof *m->free);
      m->free[i] = (extent){off, len};
      ++m->nfree;
    }
    release_pages(m, off, len); /* the freed block only: its neighbours may be in use soon */
    rc = 0;
  }
  pthread_mutex_unlock(&m->lock);
  return rc;
}

int dt_sim_memory_owns(dt_sim_memory *m, const void *p, size_t bytes) {
  const unsigned char *c = p;
  if (c < m->base || c >= m->base + m->size || bytes > m->size) return 0;
  size_t off = (size_t)(c - m->base), end = off + (bytes ? bytes : 1);
  if (end > m->size) return 0;
  pthread_mutex_lock(&m->lock);
  /* allocated space is the complement of the free extents: find the first extent ending after
     off; the range is allocated when that extent starts at or after its end */
  size_t lo = 0, hi = m->nfree;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->free[mid].off + m->free[mid].len <= off) lo = mid + 1;
    else hi = mid;
  }
  int ok = lo == m->nfree || m->free[lo].off >= end;
  pthread_mutex_unlock(&m->lock);
  return ok;
}

void *dt_sim_memory_backing(dt_sim_memory *m, const void *p) {
  return m->data + ((const unsigned char *)p - m->base);
}

size_t dt_sim_memory_in_use(dt_sim_memory *m) {
  pthread_mutex_lock(&m->lock);
  size_t n = m->in_use;
  pthread_mutex_unlock(&m->lock);
  return n;
}
