/* runtime/examples/demo.c — a short tour of the dt runtime (run by `make demo` until the
 * analyzer takes over): devices, creation, broadcasting operations, reductions, a transfer, and a
 * tag mismatch caught in return mode, with its message and rule id. */
#include <dt/dt.h>
#include <stdio.h>

static void print_tensor(const char *label, const dt_tensor *t) {
  float v[16];
  int64_t n = dt_numel(t);
  char dev[32];
  dt_device_name(dt_device_of(t), dev, sizeof dev);
  if (n > 16 || dt_read_floats(t, v, 16) != 0) return;
  printf("%-22s on %-5s [", label, dev);
  for (int64_t i = 0; i < n; i++) printf("%s%g", i ? ", " : "", v[i]);
  printf("]\n");
}

int main(void) {
  const dt_device cpu = dt_cpu();
  dt_tensor *x = dt_from_floats(cpu, (const float[]){1, 2, 3, 4, 5, 6}, 2, (const int64_t[]){2, 3});
  dt_tensor *bias = dt_from_floats(cpu, (const float[]){10, 20, 30}, 1, (const int64_t[]){3});
  dt_tensor *w = dt_ones(cpu, DT_FLOAT, 2, (const int64_t[]){3, 2});

  dt_tensor *shifted = dt_add(x, bias); /* [2,3] + [3] broadcasts */
  dt_tensor *prod = dt_matmul(shifted, w);
  dt_tensor *shifted_down = dt_add_scalar(prod, -70.0f);
  dt_tensor *act = dt_relu(shifted_down);
  dt_tensor *total = dt_sum(act);
  print_tensor("x", x);
  print_tensor("x + bias", shifted);
  print_tensor("(x + bias) @ ones", prod);
  print_tensor("relu(prod - 70)", act);
  print_tensor("sum", total);

  /* A tag mismatch, caught instead of aborting. */
  dt_set_error_mode(DT_ERRORS_RETURN);
  if (dt_backend_available(DT_BACKEND_SIM)) {
    dt_tensor *on_sim = dt_to_device(x, dt_sim(0));
    // tagcheck: ignore[backend-mismatch] the tour shows the runtime catching it
    dt_tensor *bad = dt_add(x, on_sim);
    printf("dt_add(cpu, sim:0) -> %s, status %d (%s)\n  %s\n", bad ? "a tensor" : "NULL",
           (int)dt_last_status(), dt_status_rule_id(dt_last_status()), dt_last_error());
    dt_free(on_sim);
  }
  dt_tensor *ints = dt_from_ints(cpu, (const int64_t[]){1, 2, 3}, 1, (const int64_t[]){3});
  // tagcheck: ignore[kind-mismatch] the tour shows the runtime catching it
  dt_tensor *mixed = dt_add(bias, ints);
  printf("dt_add(float, int) -> %s, status %d (%s)\n  %s\n", mixed ? "a tensor" : "NULL",
         (int)dt_last_status(), dt_status_rule_id(dt_last_status()), dt_last_error());

  dt_tensor *all[] = {x, bias, w, shifted, prod, shifted_down, act, total, ints};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
