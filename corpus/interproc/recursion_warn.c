// provenance: blind round field6
// A recursive "layer stack" builder whose depth comes from the command line.  Each level
// builds its output from the level below; past depth 3 the builder spills to sim:1 (the
// first card is full), and only the spill path moves its input, so the top level's output
// is on sim:0 for depth <= 3 and on sim:1 otherwise.  main() adds the top output to a sim:0
// bias: fine for small depths, a device mismatch for deep stacks.
// run-args: 5
// (depth 5 fails at the bias add; no argument (depth 2) runs clean)
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3
static const int64_t S[1] = {N};

static dt_device level_device(int level) {
  return level > 3 ? dt_sim(1) : dt_sim(0);
}

/* builds levels 1..level; the result is on level_device(level) */
static dt_tensor *stack(int level) {
  if (level == 0)
    return dt_ones(dt_sim(0), DT_FLOAT, 1, S);
  dt_tensor *below = stack(level - 1);
  dt_device d = level_device(level);
  dt_tensor *in = dt_to_device(below, d);
  dt_tensor *w = dt_full(d, 1.0f + 0.1f * (float)level, 1, S);
  dt_tensor *out = dt_mul(in, w);
  dt_free(below);
  dt_free(in);
  dt_free(w);
  return out;
}

static int factorial_steps(int n) {
  return n <= 1 ? 1 : n * factorial_steps(n - 1);
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 2;
  if (depth < 0 || depth > 10)
    depth = 2;
  dt_tensor *top = stack(depth);
  dt_tensor *bias = dt_full(dt_sim(0), 0.5f, 1, S);
  dt_tensor *y = dt_add(top, bias); // expect-warning: device-mismatch
  /* the safe variant */
  dt_tensor *top0 = dt_to_device(top, dt_sim(0));
  dt_tensor *y0 = dt_add(top0, bias);
  float v[N];
  dt_read_floats(y0, v, N);
  printf("depth %d (%d) -> %.3f\n", depth, factorial_steps(depth), (double)v[0]);
  dt_free(y0);
  dt_free(top0);
  dt_free(y);
  dt_free(bias);
  dt_free(top);
  return 0;
}
