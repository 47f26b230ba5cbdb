// provenance: blind round field3
// Training loop with an on-epoch-end callback registered through a function pointer. The
// callback keeps its running metric on sim:0 but builds the per-epoch value on the host:
// whoever calls it, the add fails.
#include <dt/dt.h>
#include <stdio.h>
typedef void (*epoch_cb)(int epoch, float loss, void *user);
typedef struct { dt_tensor *running; } metric_state;
static void track_loss(int epoch, float loss, void *user) {
  metric_state *st = user;
  dt_tensor *cur = dt_full(dt_cpu(), loss, 1, (const int64_t[]){1});
  if (!st->running) st->running = dt_zeros(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *sum = dt_add(st->running, cur); // expect-error: backend-mismatch
  dt_free(st->running); dt_free(cur);
  st->running = sum;
  (void)epoch;
}
static void fit(int epochs, epoch_cb cb, void *user) {
  dt_tensor *w = dt_randn(dt_sim(0), 1, 1, (const int64_t[]){4});
  for (int e = 0; e < epochs; e++) {
    dt_tensor *m = dt_mean(w);
    float v; dt_read_floats(m, &v, 1);
    if (cb) cb(e, v, user);
    dt_free(m);
  }
  dt_free(w);
}
int main(void) {
  metric_state st = {NULL};
  fit(3, track_loss, &st);
  printf("%p\n", (void *)st.running);
  return 0;
}
