// corpus/flow/five_flags_join_warn.c — five configuration flags each pick sim:0 or cpu for the
// device used next; after five such choices (32 paths, more than the analyzer keeps apart) the
// accumulator made on sim:0 meets a tensor whose device is one of {sim:0, cpu}: a warning (the
// oracle runs it with the last flag set, where it fails). Merging paths may lose which one,
// never that one of them fails.
// run-args: 0 0 0 0 1
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  int flag[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < 5 && i + 1 < argc; i++) flag[i] = atoi(argv[i + 1]);
  const int64_t shape[1] = {4};
  dt_device d;
  if (flag[0]) d = dt_cpu(); else d = dt_sim(0);
  dt_tensor *a = dt_ones(d, DT_FLOAT, 1, shape);
  if (flag[1]) d = dt_cpu(); else d = dt_sim(0);
  dt_tensor *b = dt_ones(d, DT_FLOAT, 1, shape);
  if (flag[2]) d = dt_cpu(); else d = dt_sim(0);
  dt_tensor *c = dt_ones(d, DT_FLOAT, 1, shape);
  if (flag[3]) d = dt_cpu(); else d = dt_sim(0);
  dt_tensor *e = dt_ones(d, DT_FLOAT, 1, shape);
  if (flag[4]) d = dt_cpu(); else d = dt_sim(0);
  dt_tensor *f = dt_ones(d, DT_FLOAT, 1, shape);
  dt_tensor *acc = dt_zeros(dt_sim(0), DT_FLOAT, 1, shape);
  dt_tensor *r = dt_add(acc, f); // expect-warning: backend-mismatch
  printf("%lld\n", (long long)dt_numel(r));
  dt_free(r);
  dt_free(acc);
  dt_free(f);
  dt_free(e);
  dt_free(c);
  dt_free(b);
  dt_free(a);
  return 0;
}
