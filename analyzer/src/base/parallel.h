/* analyzer/src/base/parallel.h — one parallel for-loop for the analyzer's thread pools (the
 * units lowered on N threads, driver/jobs.c; the engine's independent groups, engine/engine.c):
 * a shared counter hands out the item indices, each thread with its own state; and running a
 * function on a thread with a large stack. */
#ifndef TC_BASE_PARALLEL_H
#define TC_BASE_PARALLEL_H

#include <stddef.h>

typedef struct tc_parallel {
  size_t n;          /* items 0 .. n-1, each run once */
  unsigned threads;  /* at most this many threads run items at once (at least one does) */
  int caller_runs;   /* the calling thread is one of them; else it only waits (and runs the
                        items itself when no thread could be started) */
  size_t stack_size; /* of each thread started; 0: the system's default */
  void *ctx;
  /* Per thread, around its items: begin's state is given to each item and to end. A begin
     that returns NULL runs no item on that thread. Both may be NULL. */
  void *(*begin)(void *ctx);
  void (*item)(void *ctx, void *state, size_t i);
  void (*end)(void *ctx, void *state);
} tc_parallel;

/* Runs every item of p; returns once all have run. */
void tc_parallel_for(const tc_parallel *p);

/* Runs fn(arg) on a thread with a stack of stack_size bytes and waits for it. Returns 0, or
   -1 when no thread could be started (fn then ran on the calling thread). */
int tc_run_on_stack(size_t stack_size, void (*fn)(void *), void *arg);

#endif /* TC_BASE_PARALLEL_H */
