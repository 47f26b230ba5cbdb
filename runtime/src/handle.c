/* runtime/src/handle.c — tensor handles: every tensor object lives in a slot of one process-wide
 * table whose memory is never given back, and the `dt_tensor *` a caller holds is not the
 * object's address but an encoded (generation, slot index) pair. A slot's generation is odd while
 * its tensor is live and is advanced when the tensor is freed, so a handle kept after dt_free
 * never matches the slot again, even once the slot holds another tensor: a stale handle is
 * reported as freed and never reaches (or frees) the tensor that reuses its slot. A value that
 * was never a handle (an aligned pointer, zeroed or random bytes) fails the tag bits or the index
 * range before anything is read through it.
 *
 * Free slots are cached per thread (a small stack, refilled from and spilled to the shared free
 * list in batches); a thread that exits hands its cache back, and since slot memory is never
 * freed, a handle freed by a thread that has since exited is still checked safely. A slot whose
 * generation would wrap is retired (never reused), so a stale handle can never match again. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define CACHE_MAX 64   /* free slots a thread keeps */
#define CACHE_BATCH 32 /* moved at once between a thread's cache and the shared list */

#define NO_SLOT UINT32_MAX

_Atomic(dt_slot *) dt__slot_chunks[DT_SLOT_MAX_CHUNKS];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_free_head = NO_SLOT; /* shared free list (under g_lock) */
static uint32_t g_fresh;               /* slots ever handed out (under g_lock) */

typedef struct slot_cache {
  uint32_t index[CACHE_MAX];
  int n;
  int registered;
} slot_cache;

static _Thread_local slot_cache tl_cache;
static pthread_key_t g_cache_key;
static pthread_once_t g_cache_once = PTHREAD_ONCE_INIT;

static dt_slot *slot_at(uint32_t index) { return dt__slot_at(index); }

static dt_slot *slot_of(const dt_tensor *t) {
  return (dt_slot *)(void *)((char *)(uintptr_t)t - offsetof(dt_slot, obj));
}

/* ---- the shared free list and the per-thread caches ---- */

/* Moves up to `count` slots from the cache to the shared list. */
static void cache_spill(slot_cache *c, int count) {
  pthread_mutex_lock(&g_lock);
  while (count-- > 0 && c->n > 0) {
    dt_slot *s = slot_at(c->index[--c->n]);
    s->next_free = g_free_head;
    g_free_head = s->index;
  }
  pthread_mutex_unlock(&g_lock);
}

/* A thread's exit: its free slots go back to the shared list. Should a later destructor of the
   same thread free tensors again, the cache registers itself anew and is drained once more. */
static void cache_drain_at_exit(void *arg) {
  slot_cache *c = arg;
  c->registered = 0;
  cache_spill(c, CACHE_MAX);
}

static void cache_key_create(void) { pthread_key_create(&g_cache_key, cache_drain_at_exit); }

/* Hands the cache back when this thread exits (the main thread's stays with the process). */
static void cache_register(slot_cache *c) {
  if (c->registered) return;
  pthread_once(&g_cache_once, cache_key_create);
  pthread_setspecific(g_cache_key, c);
  c->registered = 1;
}

/* A full (or not yet registered) cache on the way back: out of line, rarely taken. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void cache_spill_cold(slot_cache *c) {
  cache_register(c);
  if (c->n == CACHE_MAX) cache_spill(c, CACHE_BATCH);
}

/* Fills the cache with up to CACHE_BATCH slots: reused ones first, then fresh ones (allocating
   a chunk when needed). Leaves it empty only when out of memory or out of indices. */
static void cache_refill(slot_cache *c) {
  cache_register(c);
  pthread_mutex_lock(&g_lock);
  while (c->n < CACHE_BATCH && g_free_head != NO_SLOT) {
    dt_slot *s = slot_at(g_free_head);
    g_free_head = s->next_free;
    c->index[c->n++] = s->index;
  }
  while (c->n < CACHE_BATCH && g_fresh <= DT_H_INDEX_MASK) {
    const uint32_t index = g_fresh;
    _Atomic(dt_slot *) *entry = &dt__slot_chunks[index >> DT_SLOT_CHUNK_SHIFT];
    dt_slot *chunk = atomic_load_explicit(entry, memory_order_relaxed);
    if (chunk == NULL) {
      chunk = calloc(DT_SLOT_CHUNK_SLOTS, sizeof *chunk);
      if (chunk == NULL) break;
      for (uint32_t i = 0; i < DT_SLOT_CHUNK_SLOTS; i++) {
        atomic_init(&chunk[i].gen, 0u);
        chunk[i].index = index + i;
      }
      atomic_store_explicit(entry, chunk, memory_order_release);
    }
    c->index[c->n++] = index;
    g_fresh++;
  }
  pthread_mutex_unlock(&g_lock);
}

/* After fork() in a multithreaded parent the lock may have been held: the child starts afresh
   with it unlocked (slots cached by the parent's other threads are simply not reused). */
static void atfork_prepare(void) { pthread_mutex_lock(&g_lock); }
static void atfork_release(void) { pthread_mutex_unlock(&g_lock); }
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
static void atfork_register(void) {
  pthread_atfork(atfork_prepare, atfork_release, atfork_release);
}

/* ---- objects ---- */

/* The slow path of dt__object_new, out of line so the fast path stays a few instructions. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int cache_empty_refill(slot_cache *c) {
  pthread_once(&g_atfork_once, atfork_register);
  cache_refill(c);
  return c->n == 0 ? -1 : 0;
}

dt_tensor *dt__object_new(void) {
  slot_cache *c = &tl_cache;
  if (c->n == 0 && cache_empty_refill(c) != 0) return NULL;
  dt_slot *s = slot_at(c->index[--c->n]);
  /* Free (even) to live (odd). Only this thread holds a free slot: a load and a store, not a
     read-modify-write. */
  atomic_store_explicit(&s->gen, atomic_load_explicit(&s->gen, memory_order_relaxed) + 1u,
                        memory_order_relaxed);
  return &s->obj;
}

/* Puts a slot whose generation is already even back for reuse, unless it is retired. */
static void slot_recycle(dt_slot *s) {
  if (atomic_load_explicit(&s->gen, memory_order_relaxed) >= DT_H_GEN_RETIRED) return;
  slot_cache *c = &tl_cache;
  if (c->n == CACHE_MAX || !c->registered) cache_spill_cold(c);
  c->index[c->n++] = s->index;
}

void dt__object_delete(dt_tensor *t) {
  dt_slot *s = slot_of(t);
  /* Live (odd) to free (even); the object is the caller's alone (an internal temporary, or a
     failed creation), so no other thread can be freeing it. */
  atomic_store_explicit(&s->gen, atomic_load_explicit(&s->gen, memory_order_relaxed) + 1u,
                        memory_order_release);
  slot_recycle(s);
}

void dt__object_recycle(dt_tensor *t) { slot_recycle(slot_of(t)); }

/* ---- handles ---- */

dt_tensor *dt__handle_of(const dt_tensor *t) {
  if (t == NULL) return NULL;
  const dt_slot *s = slot_of(t);
  const uintptr_t gen = atomic_load_explicit(&s->gen, memory_order_relaxed);
  const uintptr_t index = (uintptr_t)s->index << DT_H_INDEX_SHIFT;
  return (dt_tensor *)((gen << DT_H_GEN_SHIFT) | index | DT_H_TAG);
}

typedef enum handle_state { HANDLE_LIVE, HANDLE_NULL, HANDLE_FREED, HANDLE_FOREIGN } handle_state;

/* Decodes h: its slot and generation when the state is HANDLE_LIVE or HANDLE_FREED. */
static handle_state decode(const dt_tensor *h, dt_slot **slot, uint32_t *gen) {
  const uintptr_t v = (uintptr_t)h;
  if (v == 0) return HANDLE_NULL;
  if ((v & DT_H_TAG_MASK) != DT_H_TAG) return HANDLE_FOREIGN;
  const uint32_t g = (uint32_t)(v >> DT_H_GEN_SHIFT);
  if ((g & 1u) == 0) return HANDLE_FOREIGN; /* handles only ever carry live (odd) generations */
  dt_slot *s = slot_at((uint32_t)(v >> DT_H_INDEX_SHIFT) & DT_H_INDEX_MASK);
  if (s == NULL) return HANDLE_FOREIGN;
  const uint32_t now = atomic_load_explicit(&s->gen, memory_order_acquire);
  *slot = s;
  *gen = g;
  if (now == g) return HANDLE_LIVE;
  /* Generations only grow: an older one was issued and has been freed since. */
  return g < now ? HANDLE_FREED : HANDLE_FOREIGN;
}

static void report(const dt_site *site, handle_state st, const char *what) {
  switch (st) {
    case HANDLE_NULL:
      dt__fail(site, DT_ERR_INVALID_ARGUMENT, "%s is NULL", what);
      return;
    case HANDLE_FREED:
      dt__fail(site, DT_ERR_INVALID_ARGUMENT,
               "%s is a freed tensor (a stale handle, used after dt_free)", what);
      return;
    case HANDLE_FOREIGN:
    case HANDLE_LIVE:
      dt__fail(site, DT_ERR_INVALID_ARGUMENT, "%s is not a live dt tensor", what);
      return;
  }
}

dt_tensor *dt__resolve_failed(const dt_site *site, const dt_tensor *h, const char *what) {
  dt_slot *s = NULL;
  uint32_t gen = 0;
  const handle_state st = decode(h, &s, &gen);
  if (st == HANDLE_LIVE) return &s->obj;
  report(site, st, what);
  return NULL;
}

dt_tensor *dt__handle_take(const dt_site *site, dt_tensor *h, const char *what) {
  dt_slot *s = NULL;
  uint32_t gen = 0;
  handle_state st = decode(h, &s, &gen);
  /* Live to free in one step: of two threads freeing one handle, exactly one wins. */
  if (st == HANDLE_LIVE &&
      atomic_compare_exchange_strong_explicit(&s->gen, &gen, gen + 1u, memory_order_acq_rel,
                                              memory_order_acquire))
    return &s->obj;
  if (st == HANDLE_LIVE) st = HANDLE_FREED; /* lost the race to another dt_free */
  report(site, st, what);
  return NULL;
}
