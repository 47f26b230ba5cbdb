// corpus/multi/loader_on_host_bug/main.c — scores every batch of the loader with the model; the
// device is chosen here and passed to both halves. The bug crosses two file boundaries: the
// tag is made in loader.c and fails in model.c.
#include <stdio.h>

#include "loader.h"
#include "model.h"

int main(void) {
  dt_device dev = dt_sim(0);
  scorer s;
  scorer_init(&s, dev);
  loader l;
  loader_open(&l, dev);
  for (int i = 0; i < 3; i++) {
    dt_tensor *x = loader_next(&l);
    dt_tensor *y = scorer_apply(&s, x);
    printf("batch %d: %lld scores\n", i, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(s.w);
  dt_free(s.b);
  return 0;
}
