// provenance: blind round cxx2
// runtime_device_clean.cpp — device chosen at run time from argv or DEVICE (cpu, sim0, sim1),
// optionally wrapped in autodiff when --train is given. A class hierarchy of layers kept in a
// std::vector<std::unique_ptr<Layer>>, all built from the one device; inputs built with
// dt_device_of(first parameter); correlated branches on the same `train` flag. Correct on
// every input.
#include <dt/dt.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

dt_device parse_device(const std::string& s) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim1") return dt_sim(1);
  return dt_sim(0);
}

class Layer {
 public:
  virtual ~Layer() = default;
  virtual Tensor forward(const dt_tensor* x) const = 0;
  virtual void params(std::vector<dt_tensor*>& out) = 0;
};

class Dense : public Layer {
 public:
  Dense(dt_device d, int in, int out, uint64_t seed, bool trainable) {
    std::array<int64_t, 2> s{in, out};
    Tensor r(dt_randn(d, seed, 2, s.data()));
    w_.reset(dt_mul_scalar(r.get(), 0.3f));
    if (trainable) dt_require_grad(w_.get());
  }
  Tensor forward(const dt_tensor* x) const override { return Tensor(dt_matmul(x, w_.get())); }
  void params(std::vector<dt_tensor*>& out) override { out.push_back(w_.get()); }

 private:
  Tensor w_;
};

class Act : public Layer {
 public:
  explicit Act(bool smooth) : smooth_(smooth) {}
  Tensor forward(const dt_tensor* x) const override { return Tensor(smooth_ ? dt_tanh(x) : dt_relu(x)); }
  void params(std::vector<dt_tensor*>&) override {}

 private:
  bool smooth_;
};

struct Stack {
  std::vector<std::unique_ptr<Layer>> layers;
  Tensor forward(const dt_tensor* x) const {
    Tensor cur(dt_mul_scalar(x, 1.0f));
    for (const auto& l : layers) cur = l->forward(cur.get());
    return cur;
  }
  dt_tensor* first_param() {
    std::vector<dt_tensor*> ps;
    for (auto& l : layers) l->params(ps);
    return ps.empty() ? nullptr : ps.front();
  }
};

Stack build(dt_device d, bool trainable) {
  Stack s;
  s.layers.push_back(std::make_unique<Dense>(d, 4, 6, 1u, trainable));
  s.layers.push_back(std::make_unique<Act>(true));
  s.layers.push_back(std::make_unique<Dense>(d, 6, 6, 2u, trainable));
  s.layers.push_back(std::make_unique<Act>(false));
  s.layers.push_back(std::make_unique<Dense>(d, 6, 2, 3u, trainable));
  return s;
}

Tensor input_like(const dt_tensor* ref, int rows) {
  std::vector<float> v(static_cast<size_t>(rows) * 4);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 6) / 6.0f;
  std::array<int64_t, 2> s{rows, 4};
  return Tensor(dt_from_floats(dt_device_of(ref), v.data(), 2, s.data()));
}

// checkpoint the stack's parameters into host vectors and compare two stacks numerically
std::vector<std::vector<float>> dump(Stack& s) {
  std::vector<dt_tensor*> ps;
  for (auto& l : s.layers) l->params(ps);
  std::vector<std::vector<float>> out;
  for (dt_tensor* p : ps) {
    std::vector<float> v(static_cast<size_t>(dt_numel(p)));
    dt_read_floats(p, v.data(), static_cast<int64_t>(v.size()));
    out.push_back(std::move(v));
  }
  return out;
}

float compare(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b) {
  float m = 0.0f;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    for (size_t j = 0; j < a[i].size() && j < b[i].size(); ++j) m = std::max(m, std::abs(a[i][j] - b[i][j]));
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::string where = "sim0";
  bool train = false;
  if (const char* env = std::getenv("DEVICE")) where = env;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--train") == 0) train = true;
    else where = argv[i];
  }
  const dt_device base = parse_device(where);
  const dt_device dev = train ? dt_autodiff(base) : base;

  Stack net = build(dev, train);
  Tensor x = input_like(net.first_param(), 3);
  Tensor y = net.forward(x.get());
  std::array<int64_t, 2> st{3, 2};
  Tensor target(dt_zeros(dev, DT_FLOAT, 2, st.data()));
  Tensor loss(dt_mse_loss(y.get(), target.get()));
  if (train) {
    dt_backward(loss.get());
    Tensor g(dt_grad(net.first_param()));
    Tensor gs(dt_sum(g.get()));
    float gv = 0.0f;
    dt_read_floats(gs.get(), &gv, 1);
    std::printf("grad sum %.5f\n", gv);
  }
  float lv = 0.0f;
  dt_read_floats(loss.get(), &lv, 1);
  Stack host_net = build(dt_cpu(), false);
  auto a = dump(net);
  auto b = dump(host_net);
  std::printf("parameters match the host build within %g\n", compare(a, b));
  char name[40];
  dt_device_name(dev, name, sizeof name);
  std::printf("%s: loss %.5f\n", name, lv);
  return 0;
}
