// corpus/flow/break_continue_clean.c — a training loop with early stopping (`break` when the
// loss stops improving) and skipped batches (`continue` on a bad batch id). The best weights
// are copied to the host when they improve; after the loop they are used on the host only.
// Clean: break and continue keep every tensor's device.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){2, 1});
  dt_tensor *best = dt_to_device(w, dt_cpu());
  float best_loss = 1e30f;
  int stale = 0;
  for (int step = 0; step < 20; step++) {
    if (step % 5 == 3) continue; /* corrupted batch */
    dt_tensor *x = dt_randn(dev, (uint64_t)step, 2, (const int64_t[]){4, 2});
    dt_tensor *p = dt_matmul(x, w);
    dt_tensor *l = dt_mean(p);
    float lv = 0;
    dt_read_floats(l, &lv, 1);
    dt_free(l);
    dt_free(p);
    dt_free(x);
    if (lv < best_loss) {
      best_loss = lv;
      dt_free(best);
      best = dt_to_device(w, dt_cpu());
      stale = 0;
    } else if (++stale >= 3) {
      break;
    }
    dt_tensor *w2 = dt_mul_scalar(w, 0.9f);
    dt_free(w);
    w = w2;
  }
  dt_tensor *probe = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *out = dt_matmul(probe, best);
  float v = 0;
  dt_read_floats(out, &v, 1);
  printf("best loss %f, probe %f\n", (double)best_loss, (double)v);
  dt_free(out);
  dt_free(probe);
  dt_free(best);
  dt_free(w);
  return 0;
}
