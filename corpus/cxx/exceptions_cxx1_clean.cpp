// provenance: blind round cxx1
// A throw ends the bad path: require_same_device() throws before any mixed operation runs,
// and the callers catch it and skip the sample. The mismatching pair (cpu weight with a sim:0
// batch) is always caught before dt_matmul. A RAII guard frees tensors during unwinding. Clean.
#include <dt/dt.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace {

struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void require_same_device(const dt_tensor *a, const dt_tensor *b) {
  dt_device da = dt_device_of(a);
  dt_device db = dt_device_of(b);
  if (da.backend != db.backend || da.ordinal != db.ordinal || da.autodiff != db.autodiff)
    throw DeviceError("operands on different devices");
}

struct Guard {
  std::vector<dt_tensor *> owned;
  ~Guard() {
    for (dt_tensor *t : owned) dt_free(t);
  }
  dt_tensor *keep(dt_tensor *t) {
    owned.push_back(t);
    return t;
  }
};

dt_tensor *project(const dt_tensor *x, const dt_tensor *w) {
  require_same_device(x, w);
  return dt_matmul(x, w);
}

float score(const dt_tensor *x, const dt_tensor *w) {
  Guard g;
  dt_tensor *p = g.keep(project(x, w));
  dt_tensor *m = g.keep(dt_mean(p));
  float v = 0.0f;
  if (dt_read_floats(m, &v, 1) != 0) throw std::runtime_error("read failed");
  return v;
}

}  // namespace

int main() {
  const int64_t xshape[] = {2, 3};
  const int64_t wshape[] = {3, 2};
  dt_tensor *w_host = dt_randn(dt_cpu(), 8, 2, wshape);
  dt_tensor *w_dev = dt_to_device(w_host, dt_sim(0));
  std::vector<dt_tensor *> batches = {dt_ones(dt_sim(0), DT_FLOAT, 2, xshape), dt_ones(dt_cpu(), DT_FLOAT, 2, xshape)};

  int skipped = 0;
  float total = 0.0f;
  for (dt_tensor *b : batches) {
    try {
      total += score(b, w_dev);
    } catch (const DeviceError &) {
      ++skipped;
    }
    try {
      total += score(b, w_host);
    } catch (const DeviceError &e) {
      std::printf("skip: %s\n", e.what());
      ++skipped;
    }
  }
  std::printf("total %.4f skipped %d\n", total, skipped);
  for (dt_tensor *b : batches) dt_free(b);
  dt_free(w_dev);
  dt_free(w_host);
  return skipped == 2 ? 0 : 1;
}
