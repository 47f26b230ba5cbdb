// provenance: blind round d12
// run-args: --hidden 12 --device sim0
/* Parameters of a two-layer regressor kept in a std::map<std::string, dt_tensor*> with
 * SGD velocity in an unordered_map. Parameter factories take a device with a default
 * (trainable, host). Training runs on a simulated accelerator. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace init {

dt_tensor *normal(dt_device d, int64_t rows, int64_t cols, uint64_t seed, float scale) {
  const int64_t s[2] = {rows, cols};
  dt_device inner = d.autodiff ? dt_inner_device(d) : d;
  dt_tensor *r = dt_randn(inner, seed, 2, s);
  dt_tensor *rs = dt_mul_scalar(r, scale);
  dt_free(r);
  if (!d.autodiff) return rs;
  dt_tensor *w = dt_require_grad(dt_from_inner(d, rs));
  dt_free(rs);
  return w;
}

dt_tensor *zeros_vec(int64_t n, dt_device d = dt_autodiff(dt_cpu())) {
  const int64_t s[1] = {n};
  dt_tensor *z = dt_zeros(d, DT_FLOAT, 1, s);
  return d.autodiff ? dt_require_grad(z) : z;
}

}  // namespace init

class Regressor {
 public:
  Regressor(dt_device ad, int64_t in, int64_t hidden) : ad_(ad) {
    params_["fc1.weight"] = init::normal(ad, in, hidden, 7, 1.0f / std::sqrt((float)in));
    params_["fc1.bias"] = init::zeros_vec(hidden);
    params_["fc2.weight"] = init::normal(ad, hidden, 1, 8, 1.0f / std::sqrt((float)hidden));
    params_["fc2.bias"] = init::zeros_vec(1, ad);
  }
  ~Regressor() {
    for (auto &kv : params_) dt_free(kv.second);
    for (auto &kv : velocity_) dt_free(kv.second);
  }

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_matmul(x, params_.at("fc1.weight"));
    dt_tensor *hb = dt_add(h, params_.at("fc1.bias")); // expect-error: autodiff-inner-backend
    dt_tensor *ha = dt_relu(hb);
    dt_tensor *o = dt_matmul(ha, params_.at("fc2.weight"));
    dt_tensor *ob = dt_add(o, params_.at("fc2.bias"));
    dt_free(h);
    dt_free(hb);
    dt_free(ha);
    dt_free(o);
    return ob;
  }

  void sgd_step(float lr, float mu) {
    for (auto &[name, p] : params_) {
      dt_tensor *g = dt_grad(p);
      if (!g) continue;
      auto it = velocity_.find(name);
      dt_tensor *v = nullptr;
      if (it == velocity_.end()) {
        v = dt_mul_scalar(g, 1.0f);
      } else {
        dt_tensor *vm = dt_mul_scalar(it->second, mu);
        v = dt_add(vm, g);
        dt_free(vm);
        dt_free(it->second);
      }
      velocity_[name] = v;
      dt_tensor *cur = dt_inner(p);
      dt_tensor *st = dt_mul_scalar(v, lr);
      dt_tensor *nx = dt_sub(cur, st);
      dt_free(p);
      p = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(g);
      dt_free(cur);
      dt_free(st);
      dt_free(nx);
    }
  }

  void report() const {
    for (const auto &kv : params_) {
      dt_tensor *in = dt_inner(kv.second);
      dt_tensor *s = in ? dt_sum(in) : nullptr;
      float v = 0;
      if (s) dt_read_floats(s, &v, 1);
      std::printf("  %-12s sum=%.4f\n", kv.first.c_str(), v);
      dt_free(s);
      dt_free(in);
    }
  }

  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::map<std::string, dt_tensor *> params_;
  std::unordered_map<std::string, dt_tensor *> velocity_;
};

struct Sample {
  std::vector<float> x;
  float y;
};

static std::vector<Sample> make_dataset(int n, int in) {
  std::vector<Sample> ds;
  for (int i = 0; i < n; i++) {
    Sample s;
    float t = 0;
    for (int j = 0; j < in; j++) {
      float v = std::cos(0.21f * (float)(i * in + j));
      s.x.push_back(v);
      t += v * (j % 2 ? 1.0f : -1.0f);
    }
    s.y = std::tanh(t);
    ds.push_back(std::move(s));
  }
  return ds;
}

int main(int argc, char **argv) {
  int64_t hidden = 8;
  std::string dev = "sim0";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--hidden")) hidden = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--device")) dev = argv[i + 1];
  }
  if (hidden < 1) hidden = 8;
  dt_device base = dev == "sim1" ? dt_sim(1) : dt_sim(0);  // accelerators only
  const int in = 5, batch = 6;
  Regressor model(dt_autodiff(base), in, hidden);
  auto data = make_dataset(48, in);
  std::vector<float> xb(batch * in), yb(batch);
  const int64_t xs[2] = {batch, in}, ys[2] = {batch, 1};
  for (int epoch = 0; epoch < 3; epoch++) {
    float total = 0;
    int nb = 0;
    for (size_t start = 0; start + batch <= data.size(); start += batch) {
      for (int b = 0; b < batch; b++) {
        const Sample &s = data[start + b];
        std::copy(s.x.begin(), s.x.end(), xb.begin() + b * in);
        yb[b] = s.y;
      }
      dt_tensor *x = dt_from_floats(model.device(), xb.data(), 2, xs);
      dt_tensor *y = dt_from_floats(model.device(), yb.data(), 2, ys);
      dt_tensor *pred = model.forward(x);
      dt_tensor *loss = dt_mse_loss(pred, y);
      float lv = 0;
      if (loss && dt_read_floats(loss, &lv, 1) == 0) total += lv;
      nb++;
      if (loss) dt_backward(loss);
      model.sgd_step(0.05f, 0.9f);
      dt_free(x);
      dt_free(y);
      dt_free(pred);
      dt_free(loss);
    }
    std::printf("epoch %d mean loss %.4f\n", epoch, total / (nb ? nb : 1));
  }
  model.report();
  return 0;
}
