// Recursion terminates: an unbounded recursive accumulation and a depth-limited one.
#include <dt/dt.h>
static dt_tensor *chain(dt_tensor *x, int n) {
  if (n <= 0) return x;
  dt_tensor *y = dt_relu(x);
  return chain(y, n - 1);
}
static int depth_of(int n) { return n <= 1 ? 0 : 1 + depth_of(n / 2); }
int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *x = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = chain(x, argc * 3);
  dt_tensor *z = chain(x, 4);
  dt_tensor *s = dt_add(y, z);
  dt_tensor *w = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){depth_of(8) + 1});
  dt_tensor *t = dt_add(s, w);
  dt_free(t);
  return 0;
}
