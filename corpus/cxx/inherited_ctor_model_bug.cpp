// provenance: regression (blind round d16, p13): a model class that inherits its base's
// constructors (`using Linear::Linear;`) made with std::make_unique, chosen beside the base
// class by a flag; the base constructor places the weight on the backend's autodiff device.
// Bug: the batch is made on the cpu while the weight is on sim:0.
#include <dt/dt.h>

#include <cstdio>
#include <memory>

class Backend {
 public:
  virtual ~Backend() = default;
  virtual dt_device device() const = 0;
  dt_device autodiff_device() const { return dt_autodiff(device()); }
};

class SimBackend final : public Backend {
 public:
  explicit SimBackend(int ordinal) : ordinal_(ordinal) {}
  dt_device device() const override { return dt_sim(ordinal_); }

 private:
  int ordinal_;
};

class Linear {
 public:
  explicit Linear(const Backend &be) : ad_(be.autodiff_device()) {
    const int64_t s[2] = {3, 2};
    w_ = dt_require_grad(dt_ones(ad_, DT_FLOAT, 2, s));
  }
  virtual ~Linear() { dt_free(w_); }
  virtual dt_tensor *forward(const dt_tensor *x) const {
    return dt_matmul(x, w_); // expect-error: autodiff-inner-backend
  }
  dt_device device() const { return ad_; }

 protected:
  dt_device ad_;
  dt_tensor *w_ = nullptr;
};

class Clipped : public Linear {
 public:
  using Linear::Linear;
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *y = Linear::forward(x);
    dt_tensor *t = dt_tanh(y);
    dt_free(y);
    return t;
  }
};

int main(int argc, char **argv) {
  (void)argv;
  std::unique_ptr<Backend> backend = std::make_unique<SimBackend>(0);
  std::unique_ptr<Linear> model =
      argc > 5 ? std::make_unique<Linear>(*backend) : std::make_unique<Clipped>(*backend);
  const int64_t s[2] = {4, 3};
  dt_tensor *plain = dt_ones(dt_cpu(), DT_FLOAT, 2, s);
  dt_tensor *x = dt_from_inner(dt_autodiff(dt_cpu()), plain);
  dt_tensor *y = model->forward(x);
  std::printf("%s\n", y ? "ok" : "failed");
  dt_free(y);
  dt_free(x);
  dt_free(plain);
  return 0;
}
