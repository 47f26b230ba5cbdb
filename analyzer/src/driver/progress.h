/* analyzer/src/driver/progress.h — the progress line on a terminal ("tagcheck: lowering
 * 12/120 units"), shown only once a run has lasted a second, redrawn at most ten times a
 * second from any thread, and erased when the phase ends, so logs and pipes never see it. */
#ifndef TC_PROGRESS_H
#define TC_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

typedef struct tc_progress {
  FILE *out; /* NULL: off */
  double start, last;
  int shown;
  pthread_mutex_t lock;
} tc_progress;

/* out: where to draw (a terminal), or NULL for no progress line. */
void tc_progress_init(tc_progress *p, FILE *out);
/* done of total things are finished in the phase `what`. Thread-safe. */
void tc_progress_update(tc_progress *p, const char *what, size_t done, size_t total);
/* Erases the line if it was drawn. */
void tc_progress_end(tc_progress *p);
void tc_progress_free(tc_progress *p);

#endif /* TC_PROGRESS_H */
