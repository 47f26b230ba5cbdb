// corpus/cxx/exceptions_clean.cpp — the same loader; the handler's fallback is made on the
// batch's device, and a mismatching batch makes check() throw before any operation mixes
// devices (the throw ends that path). Clean.
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

static void check(const dt_tensor *a, const dt_tensor *b) {
  if (!dt_device_equal(dt_device_of(a), dt_device_of(b))) throw std::logic_error("devices");
}

int main(int argc, char **argv) {
  dt_device dev = argc > 2 ? dt_cpu() : dt_sim(0);
  dt_tensor *w = nullptr;
  try {
    w = load(argc > 1 ? argv[1] : "weights.bin", dev);
  } catch (const std::exception &e) {
    std::printf("fallback: %s\n", e.what());
    w = dt_zeros(dev, DT_FLOAT, 2, kShape);
  }
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  try {
    check(x, w);
    dt_tensor *y = dt_matmul(x, w);
    std::printf("%lld\n", (long long)dt_numel(y));
    dt_free(y);
  } catch (const std::logic_error &) {
    std::printf("mismatch\n");
  }
  dt_free(x);
  dt_free(w);
  return 0;
}
