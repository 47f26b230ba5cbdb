// provenance: regression (blind round d16, p14): a std::array of replicas built by aggregate
// initialization from constructor calls, each replica visited through a reference in a
// range-for; what the array's other (never stored) elements would hold is not a device
// Each replica trains on its own autodiff device: inputs are made on the replica's inner
// device and wrapped with the replica's own autodiff device.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <memory>

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Own = std::unique_ptr<dt_tensor, Free>;

struct Replica {
  dt_device ad;
  Own w;

  explicit Replica(dt_device d) : ad(d) {
    const int64_t s[2] = {3, 2};
    w = Own(dt_require_grad(dt_randn(d, 11, 2, s)));
  }

  float step(float scale) {
    const int64_t s[2] = {4, 3};
    Own xi(dt_full(dt_inner_device(ad), scale, 2, s));
    Own x(dt_from_inner(ad, xi.get()));
    Own y(dt_matmul(x.get(), w.get()));
    Own loss(dt_mean(y.get()));
    dt_backward(loss.get());
    float v = 0.0f;
    dt_read_floats(loss.get(), &v, 1);
    return v;
  }
};

int main() {
  std::array<Replica, 2> reps{Replica(dt_autodiff(dt_sim(0))), Replica(dt_autodiff(dt_sim(1)))};
  float total = 0.0f;
  for (int round = 0; round < 2; round++)
    for (auto &r : reps) total += r.step(0.5f + (float)round);
  std::printf("total loss %.4f\n", total);
  return 0;
}
