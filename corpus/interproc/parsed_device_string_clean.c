// corpus/interproc/parsed_device_string_clean.c — the device is parsed from a string such as
// "sim:1" or "cpu" (argv[1], default "sim:1") by a user function; host data is uploaded to it
// with dt_to_device and the parameters are created on it. The analyzer cannot know the
// device, but every operand comes from the same value: no finding, and a clean run.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dt/dt.h>

static dt_device parse_device(const char *s) {
  if (strncmp(s, "sim:", 4) == 0) return dt_sim(atoi(s + 4));
  if (strncmp(s, "cuda:", 5) == 0) return dt_cuda(atoi(s + 5));
  return dt_cpu();
}

int main(int argc, char **argv) {
  dt_device dev = parse_device(argc > 1 ? argv[1] : "sim:1");
  static const float rows[6] = {1, 2, 3, 4, 5, 6};
  dt_tensor *host = dt_from_floats(dt_cpu(), rows, 2, (const int64_t[]){3, 2});
  dt_tensor *x = dt_to_device(host, dev);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){2, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *back = dt_to_device(y, dt_cpu());
  dt_tensor *err = dt_sub(back, host);
  char name[32];
  dt_device_name(dev, name, sizeof name);
  printf("ran on %s, %lld outputs\n", name, (long long)dt_numel(err));
  dt_free(err);
  dt_free(back);
  dt_free(y);
  dt_free(w);
  dt_free(x);
  dt_free(host);
  return 0;
}
