// corpus/cxx/exceptions_bug.cpp — loading throws when the file is missing; the handler falls
// back to weights on the host, while the batch was put on sim:0. The program is run without
// the file, so the fallback path is taken. Bug: a warning (which path runs depends on input).
// run-args: /nonexistent/weights.bin
#include <cstdio>
#include <stdexcept>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

static dt_tensor *load(const char *path, dt_device d) {
  std::FILE *f = std::fopen(path, "rb");
  if (!f) throw std::runtime_error("no weights");
  std::fclose(f);
  return dt_randn(d, 2, 2, kShape);
}

int main(int argc, char **argv) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = nullptr;
  try {
    w = load(argc > 1 ? argv[1] : "weights.bin", dev);
  } catch (const std::exception &e) {
    std::printf("fallback: %s\n", e.what());
    w = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  }
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, w); // expect-warning: backend-mismatch
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
