// main.c — owns the training device global and the command line.
#include "trainer.h"
#include <stdio.h>
#include <string.h>

dt_device g_train_dev;

int main(int argc, char **argv) {
  int eval_on_cpu = 0;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--eval-cpu") == 0)
      eval_on_cpu = 1;

  g_train_dev = dt_sim(1);
  data_init(dt_sim(0));   /* prefetch batches on the other card */
  model m;
  model_init(&m);
  printf("baseline %.4f\n", (double)eval_run(&m, eval_on_cpu));
  for (int s = 0; s < 2; s++) {
    dt_tensor *x = data_next_x();
    dt_tensor *y = data_next_y();
    model_step(&m, x, y, 0.1f);
    dt_free(x);
    dt_free(y);
  }
  printf("eval %.4f\n", (double)eval_run(&m, eval_on_cpu));
  model_free(&m);
  return 0;
}
