/* runtime/src/thread_cache.h — what the runtime's per-thread caches of freed memory share (the
 * storage descriptors of tensor.c, the cpu backend's small blocks): a thread's cache is handed
 * to a pthread key's destructor the first time it keeps something, so that the thread's exit
 * gives what it holds back to malloc. */
#ifndef DT_THREAD_CACHE_H
#define DT_THREAD_CACHE_H

#include <pthread.h>

/* DT_THREAD_CACHE_EXIT(name, drain) defines name_register(cache, &registered): the first call
   in a thread (registered 0) makes drain(cache) run when that thread exits, through one key
   created once for all threads; drain must set registered back to 0 (a later exit destructor
   that frees into the cache registers it anew). */
#define DT_THREAD_CACHE_EXIT(name, drain)                                   \
  static pthread_once_t name##_once = PTHREAD_ONCE_INIT;                    \
  static pthread_key_t name##_key;                                          \
  static void name##_make_key(void) { pthread_key_create(&name##_key, drain); } \
  static void name##_register(void *cache, int *registered) {               \
    if (*registered) return;                                                \
    pthread_once(&name##_once, name##_make_key);                            \
    pthread_setspecific(name##_key, cache);                                 \
    *registered = 1;                                                        \
  }

#endif /* DT_THREAD_CACHE_H */
