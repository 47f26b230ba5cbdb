// Calls through function pointers and unknown externals give unknown tags: no findings.
#include <dt/dt.h>
typedef dt_tensor *(*act_fn)(const dt_tensor *);
dt_tensor *load_tensor(const char *path); /* defined elsewhere */
void fill(dt_tensor **slot);              /* defined elsewhere */
static dt_tensor *apply(act_fn f, const dt_tensor *x) { return f(x); }
int main(int argc, char **argv) {
  act_fn fns[2] = {dt_relu, dt_tanh};
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *y = apply(fns[argc % 2], x);
  dt_tensor *host = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *l = load_tensor(argv[0]);
  dt_tensor *a = dt_add(l, host);
  dt_tensor *slot = host;
  fill(&slot);
  dt_tensor *b = dt_add(slot, x);
  dt_free(y);
  dt_free(a);
  dt_free(b);
  return 0;
}
