/* analyzer/src/base/parallel.c — the parallel for-loop and the large-stack call of
 * base/parallel.h, over POSIX threads. */
#include "base/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct loop {
  const tc_parallel *p;
  atomic_size_t next;
} loop;

static void *run_items(void *arg) {
  loop *l = arg;
  const tc_parallel *p = l->p;
  void *state = p->begin ? p->begin(p->ctx) : NULL;
  if (p->begin && !state) return NULL;
  for (;;) {
    size_t i = atomic_fetch_add(&l->next, 1);
    if (i >= p->n) break;
    p->item(p->ctx, state, i);
  }
  if (p->end) p->end(p->ctx, state);
  return NULL;
}

static int start_thread(pthread_t *t, size_t stack_size, void *(*fn)(void *), void *arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return -1;
  if (stack_size) pthread_attr_setstacksize(&attr, stack_size);
  int rc = pthread_create(t, &attr, fn, arg);
  pthread_attr_destroy(&attr);
  return rc == 0 ? 0 : -1;
}

void tc_parallel_for(const tc_parallel *p) {
  if (p->n == 0) return;
  loop l = {p, 0};
  atomic_init(&l.next, 0);
  size_t want = p->threads ? p->threads : 1;
  if (want > p->n) want = p->n;
  size_t extra = p->caller_runs ? want - 1 : want; /* threads to start */
  pthread_t *t = extra ? calloc(extra, sizeof *t) : NULL;
  size_t started = 0;
  if (t)
    while (started < extra && start_thread(&t[started], p->stack_size, run_items, &l) == 0)
      started++;
  if (p->caller_runs || started == 0) run_items(&l);
  for (size_t i = 0; i < started; i++) pthread_join(t[i], NULL);
  free(t);
}

typedef struct stack_call {
  void (*fn)(void *);
  void *arg;
} stack_call;

static void *call_trampoline(void *p) {
  stack_call *c = p;
  c->fn(c->arg);
  return NULL;
}

int tc_run_on_stack(size_t stack_size, void (*fn)(void *), void *arg) {
  stack_call c = {fn, arg};
  pthread_t t;
  if (start_thread(&t, stack_size, call_trampoline, &c) != 0) {
    fn(arg);
    return -1;
  }
  pthread_join(t, NULL);
  return 0;
}
