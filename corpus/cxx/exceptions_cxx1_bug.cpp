// provenance: blind round cxx1
// Exceptions: a checked_add() throws std::invalid_argument when its operands' devices differ,
// so its own dt_add never fails. The caller catches the exception and "recovers" by moving
// the activation to the host — but the residual stays on sim:0, so the fallback add in the
// catch handler fails. The mismatch is certain: the first operand is built on sim:1.
#include <dt/dt.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace safe {

std::string device_str(const dt_tensor *t) {
  char buf[32];
  dt_device_name(dt_device_of(t), buf, sizeof buf);
  return buf;
}

dt_tensor *checked_add(const dt_tensor *a, const dt_tensor *b) {
  if (!dt_device_equal(dt_device_of(a), dt_device_of(b)))
    throw std::invalid_argument("checked_add: " + device_str(a) + " vs " + device_str(b));
  return dt_add(a, b);
}

class Residual {
 public:
  explicit Residual(dt_device dev) : dev_(dev) {
    const int64_t shape[] = {2, 3};
    skip_ = dt_full(dev_, 0.5f, 2, shape);
  }
  ~Residual() { dt_free(skip_); }
  Residual(const Residual &) = delete;
  Residual &operator=(const Residual &) = delete;

  dt_tensor *apply(dt_tensor *x) const {
    try {
      return checked_add(x, skip_);
    } catch (const std::invalid_argument &e) {
      std::fprintf(stderr, "recovering: %s\n", e.what());
      dt_tensor *host_x = dt_to_device(x, dt_cpu());
      dt_tensor *out = dt_add(host_x, skip_); // expect-error: backend-mismatch
      dt_free(host_x);
      return out;
    }
  }

 private:
  dt_device dev_;
  dt_tensor *skip_;
};

}  // namespace safe

int main() {
  const int64_t shape[] = {2, 3};
  safe::Residual same(dt_sim(1));
  dt_tensor *a = dt_ones(dt_sim(1), DT_FLOAT, 2, shape);
  dt_tensor *ok = same.apply(a);

  safe::Residual other(dt_sim(0));
  dt_tensor *bad = other.apply(a);
  std::printf("%s %s\n", ok ? "ok" : "-", bad ? "ok" : "failed");
  dt_free(bad);
  dt_free(ok);
  dt_free(a);
  return 0;
}
