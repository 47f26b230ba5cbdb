// corpus/flow/if_else_flag_warn.c — `--offload` moves the embedding table to the second
// accelerator, but the lookup below still uses sim:0 indices. Whether it fails depends on a
// command-line flag the analyzer cannot know: a warning. The oracle runs it with --offload,
// where the run-time check fails at the flagged line.
// run-args: --offload
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int offload = argc > 1 && strcmp(argv[1], "--offload") == 0;
  dt_device main_dev = dt_sim(0);
  const int64_t tshape[2] = {10, 4};
  dt_tensor *table = dt_randn(main_dev, 3, 2, tshape);
  if (offload) {
    dt_tensor *moved = dt_to_device(table, dt_sim(1));
    dt_free(table);
    table = moved;
  }
  dt_tensor *queries = dt_randn(main_dev, 4, 2, (const int64_t[]){2, 4});
  dt_tensor *tt = dt_transpose(table);
  dt_tensor *scores = dt_matmul(queries, tt); // expect-warning: device-mismatch
  printf("scores %lld\n", (long long)dt_numel(scores));
  dt_free(scores);
  dt_free(tt);
  dt_free(queries);
  dt_free(table);
  return 0;
}
