/* runtime/src/live.c — the live-object counters (tensors, storages) that tests read to prove
 * memory stays flat. Every tensor made or freed counts here, so the count must cost next to
 * nothing: each thread counts in a shard of its own (a plain load and store, no locked
 * read-modify-write on a cache line that every thread shares), and a reader sums the shards of
 * the threads alive with what exited threads left. An object freed on another thread than the
 * one that made it leaves one shard up and another down; the sum is what is live. */
#include <pthread.h>

#include "internal.h"

_Thread_local dt_live_shard dt__tl_live;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static dt_live_shard *g_shards;               /* the registered shards of live threads */
static int64_t g_retired[DT_LIVE_COUNTERS]; /* what exited threads' shards held (under g_lock) */
static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* A thread's exit: its counts are kept in g_retired and its shard leaves the list. */
static void shard_retire(void *arg) {
  dt_live_shard *s = arg;
  pthread_mutex_lock(&g_lock);
  for (dt_live_shard **p = &g_shards; *p != NULL; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      break;
    }
  for (int i = 0; i < DT_LIVE_COUNTERS; i++) {
    g_retired[i] += atomic_load_explicit(&s->count[i], memory_order_relaxed);
    atomic_store_explicit(&s->count[i], 0, memory_order_relaxed);
  }
  s->registered = 0; /* a later exit destructor that counts registers it anew */
  pthread_mutex_unlock(&g_lock);
}

static void key_create(void) { pthread_key_create(&g_key, shard_retire); }

void dt__live_register(dt_live_shard *s) {
  pthread_once(&g_once, key_create);
  pthread_mutex_lock(&g_lock);
  s->next = g_shards;
  g_shards = s;
  s->registered = 1;
  pthread_mutex_unlock(&g_lock);
  pthread_setspecific(g_key, s);
}

static int64_t live_total(int which) {
  pthread_mutex_lock(&g_lock);
  int64_t n = g_retired[which];
  for (const dt_live_shard *s = g_shards; s != NULL; s = s->next)
    n += atomic_load_explicit(&s->count[which], memory_order_relaxed);
  pthread_mutex_unlock(&g_lock);
  return n;
}

int64_t dt__live_tensors(void) { return live_total(DT_LIVE_TENSORS); }
int64_t dt__live_storages(void) { return live_total(DT_LIVE_STORAGES); }
