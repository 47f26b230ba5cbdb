/* analyzer/src/driver/progress.c — the terminal's progress line (driver/progress.h). */
#include "driver/progress.h"

#include "driver/channel.h"

void tc_progress_init(tc_progress *p, FILE *out) {
  p->out = out;
  p->start = tc_now_s();
  p->last = 0;
  p->shown = 0;
  pthread_mutex_init(&p->lock, NULL);
}

void tc_progress_update(tc_progress *p, const char *what, size_t done, size_t total) {
  if (!p->out) return;
  double now = tc_now_s();
  if (now - p->start < 1.0) return;
  pthread_mutex_lock(&p->lock);
  if (now - p->last >= 0.1 || done == total) {
    fprintf(p->out, "\rtagcheck: %s %zu/%zu\033[K", what, done, total);
    fflush(p->out);
    p->last = now;
    p->shown = 1;
  }
  pthread_mutex_unlock(&p->lock);
}

void tc_progress_end(tc_progress *p) {
  if (!p->out) return;
  pthread_mutex_lock(&p->lock);
  if (p->shown) {
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = 0;
  }
  pthread_mutex_unlock(&p->lock);
}

void tc_progress_free(tc_progress *p) { pthread_mutex_destroy(&p->lock); }
