// One device picked at run time, used for every tensor: correlated operands are clean.
#include <string.h>
#include <dt/dt.h>
int main(int argc, char **argv) {
  int use_gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  if (use_gpu) dt_set_error_mode(DT_ERRORS_RETURN);
  dt_device dev = use_gpu ? dt_sim(1) : dt_cpu();
  dt_tensor *a = dt_randn(dev, 1, 2, (const int64_t[]){2, 2});
  dt_tensor *b = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *c = dt_matmul(a, b);
  if (use_gpu) {
    dt_tensor *host = dt_to_device(c, dt_cpu());
    dt_free(c);
    c = host;
  }
  dt_tensor *bias = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *d = dt_add(c, bias);
  dt_free(d);
  return 0;
}
