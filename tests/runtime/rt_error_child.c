/* tests/runtime/rt_error_child.c — a helper program for test_abort: runs one failing call per
 * scenario (argv[1]) in whatever error mode the environment and the scenario choose. It prints
 * "LINE <n>" (the failing call's line) to stdout first, and "SURVIVED <status>" if the failure
 * returned instead of aborting. */
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

/* Prints the outcome of a call that returned, frees everything, and gives the exit code. */
static int report(dt_tensor *r, dt_tensor *x, dt_tensor *y) {
  printf("SURVIVED %d %s\n", (int)dt_last_status(), r == NULL ? "NULL" : "tensor");
  const int code = r == NULL ? 0 : 1;
  dt_free(r);
  dt_free(x);
  dt_free(y);
  return code;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *s = argv[1];
  setvbuf(stdout, NULL, _IONBF, 0);
  if (strcmp(s, "set-return") == 0) dt_set_error_mode(DT_ERRORS_RETURN);
  if (strcmp(s, "set-abort") == 0) dt_set_error_mode(DT_ERRORS_ABORT);
  if (strcmp(s, "autodiff") == 0) {
    dt_tensor *x = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 1, (const int64_t[]){2});
    dt_tensor *y = dt_zeros(dt_autodiff(dt_sim(0)), DT_FLOAT, 1, (const int64_t[]){2});
    printf("LINE %d\n", __LINE__ + 1);
    return report(dt_add(x, y), x, y);
  }
  dt_tensor *a = dt_from_floats(dt_cpu(), (const float[]){1, 2}, 1, (const int64_t[]){2});
  dt_tensor *b = dt_from_floats(dt_sim(0), (const float[]){1, 2}, 1, (const int64_t[]){2});
  if (strcmp(s, "plain") == 0) {
    dt_tensor *(*add)(const dt_tensor *, const dt_tensor *) = &dt_add;
    printf("LINE 0\n");
    return report(add(a, b), a, b);
  }
  printf("LINE %d\n", __LINE__ + 1);
  return report(dt_add(a, b), a, b);
}
