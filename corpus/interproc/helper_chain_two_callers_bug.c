// corpus/interproc/helper_chain_two_callers_bug.c — a two-level helper chain: score() calls
// project(), which does the matmul. score() is called from the training path with matching
// tensors and from the export path with host weights and device inputs. The innermost call
// fails for the export context only: an error there, with export_scores -> score -> project
// in the notes.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *project(const dt_tensor *x, const dt_tensor *w) {
  return dt_matmul(x, w); // expect-error: backend-mismatch
}

static float score(const dt_tensor *x, const dt_tensor *w) {
  dt_tensor *p = project(x, w);
  dt_tensor *s = dt_sum(p);
  float v = 0;
  dt_read_floats(s, &v, 1);
  dt_free(s);
  dt_free(p);
  return v;
}

static float train_scores(dt_device dev) {
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 1});
  float v = score(x, w);
  dt_free(w);
  dt_free(x);
  return v;
}

static float export_scores(dt_device dev) {
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *w = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){3, 1});
  float v = score(x, w);
  dt_free(w);
  dt_free(x);
  return v;
}

int main(void) {
  dt_device dev = dt_sim(0);
  printf("train %f\n", (double)train_scores(dev));
  printf("export %f\n", (double)export_scores(dev));
  return 0;
}
