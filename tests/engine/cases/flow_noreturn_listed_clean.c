// A call to a function that never returns although its declaration does not say so (another C
// library's assertion failure, declared here without noreturn): the rules' "noreturn" list
// (rules/libc.json) ends the path there, so the mismatch behind it is never reached.
#include <dt/dt.h>
void __assert_rtn(const char *fn, const char *file, int line, const char *expr);
int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  if (argc > 1) {
    __assert_rtn("main", "flow_noreturn_listed_clean.c", 11, "argc <= 1");
    dt_free(dt_add(a, b));
  }
  dt_free(a);
  dt_free(b);
  return 0;
}
