// provenance: blind round cxx1
// Casts that keep tags intact: tensors stored as void* in an opaque slot table and recovered
// with static_cast, a uintptr_t round trip through reinterpret_cast, a device assembled with
// static_cast<dt_backend> from a config integer, and const_cast to call a non-const API
// (dt_require_grad). The device built from integers equals dt_sim(1), the one the data uses.
#include <dt/dt.h>

#include <cstdint>
#include <cstdio>

namespace {

struct Slots {
  void *items[3] = {nullptr, nullptr, nullptr};
};

struct DeviceRecord {
  int backend;
  int ordinal;
};

dt_device from_record(const DeviceRecord &r) {
  return dt_device{static_cast<dt_backend>(r.backend), r.ordinal, 0};
}

dt_tensor *slot(const Slots &s, int i) { return static_cast<dt_tensor *>(s.items[i]); }

}  // namespace

int main() {
  const DeviceRecord rec{static_cast<int>(DT_BACKEND_SIM), 1};
  const dt_device dev = from_record(rec);
  const int64_t shape[] = {2, 2};

  Slots s;
  s.items[0] = dt_ones(dt_sim(1), DT_FLOAT, 2, shape);
  s.items[1] = static_cast<void *>(dt_full(dev, 2.0f, 2, shape));
  std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(dt_randn(dev, 3, 2, shape));
  s.items[2] = reinterpret_cast<void *>(bits);

  dt_tensor *ab = dt_add(slot(s, 0), slot(s, 1));
  dt_tensor *abc = dt_matmul(ab, reinterpret_cast<dt_tensor *>(bits));

  // Autodiff on the same inner device: const_cast only to satisfy the C signature.
  const dt_device ad = dt_autodiff(dev);
  const dt_tensor *leaf = dt_from_inner(ad, slot(s, 2));
  dt_tensor *w = dt_require_grad(const_cast<dt_tensor *>(leaf));
  dt_tensor *loss = dt_mean(w);
  dt_backward(loss);
  dt_tensor *g = dt_grad(w);
  dt_tensor *upd = dt_sub(abc, g);

  float v[4];
  dt_read_floats(upd, v, 4);
  std::printf("%.3f %.3f\n", v[0], v[3]);
  dt_free(upd);
  dt_free(g);
  dt_free(loss);
  dt_free(w);
  dt_free(abc);
  dt_free(ab);
  for (void *p : s.items) dt_free(static_cast<dt_tensor *>(p));
  return 0;
}
