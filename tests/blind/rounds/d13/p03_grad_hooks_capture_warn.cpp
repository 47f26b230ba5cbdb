// Gradient-hook pipeline: named hooks (std::map of std::function) transform every gradient
// before the SGD update: a norm logger, a clipper and annealed Gaussian gradient noise.  The
// model starts on the host; with --migrate-at K it is moved to --to at epoch K.
//
//   usage: p03 [--epochs N] [--migrate-at K] [--to sim0|sim1|cpu] [--sigma S]
// run-args: --epochs 5 --migrate-at 2 --to sim0
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Del {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Del>;

dt_device device_named(const std::string &s) {
  if (s == "sim0") return dt_sim(0);
  if (s == "sim1") return dt_sim(1);
  return dt_cpu();
}

std::vector<int64_t> shape_of(const dt_tensor *t) {
  std::vector<int64_t> s;
  for (int a = 0; a < dt_rank(t); ++a) s.push_back(dt_dim(t, a));
  return s;
}

float l2(const dt_tensor *t) {
  Tensor sq(dt_mul(t, t));
  Tensor s(dt_sum(sq.get()));
  float v = 0.0f;
  dt_read_floats(s.get(), &v, 1);
  return std::sqrt(v);
}

struct Param {
  std::string name;
  Tensor value;
};

struct Model {
  dt_device ad;
  std::vector<Param> params;

  Model(dt_device plain, int64_t in, int64_t hid, int64_t out) : ad(dt_autodiff(plain)) {
    add("fc1.w", plain, {in, hid}, 0.5f, 1);
    add("fc1.b", plain, {hid}, 0.0f, 2);
    add("fc2.w", plain, {hid, out}, 0.5f, 3);
    add("fc2.b", plain, {out}, 0.0f, 4);
  }

  void add(const std::string &n, dt_device plain, std::vector<int64_t> shape, float scale,
           uint64_t seed) {
    Tensor r(dt_randn(plain, seed, int(shape.size()), shape.data()));
    Tensor s(dt_mul_scalar(r.get(), scale));
    params.push_back({n, Tensor(dt_require_grad(dt_from_inner(ad, s.get())))});
  }

  Tensor forward(const dt_tensor *x) const {
    Tensor z1(dt_matmul(x, params[0].value.get()));
    Tensor a1(dt_add(z1.get(), params[1].value.get()));
    Tensor h(dt_tanh(a1.get()));
    Tensor z2(dt_matmul(h.get(), params[2].value.get()));
    return Tensor(dt_add(z2.get(), params[3].value.get()));
  }

  void to(dt_device plain) {
    dt_device nad = dt_autodiff(plain);
    for (Param &p : params) {
      Tensor in(dt_inner(p.value.get()));
      Tensor mv(dt_to_device(in.get(), plain));
      p.value = Tensor(dt_require_grad(dt_from_inner(nad, mv.get())));
    }
    ad = nad;
  }
};

using GradHook = std::function<Tensor(const std::string &, Tensor, int step)>;

}  // namespace

int main(int argc, char **argv) {
  int epochs = 4, migrate_at = -1;
  std::string to = "sim0";
  float sigma = 0.01f;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--epochs") epochs = std::atoi(argv[i + 1]);
    else if (k == "--migrate-at") migrate_at = std::atoi(argv[i + 1]);
    else if (k == "--to") to = argv[i + 1];
    else if (k == "--sigma") sigma = float(std::atof(argv[i + 1]));
  }

  const int64_t IN = 5, HID = 7, OUT = 2, B = 8;
  Model model(dt_cpu(), IN, HID, OUT);

  std::map<std::string, float> last_norm;
  std::map<std::string, GradHook> hooks;
  hooks["0-log"] = [&last_norm](const std::string &name, Tensor g, int) {
    last_norm[name] = l2(g.get());
    return g;
  };
  const float max_norm = 2.0f;
  hooks["1-clip"] = [max_norm](const std::string &, Tensor g, int) {
    float n = l2(g.get());
    if (n <= max_norm) return g;
    return Tensor(dt_mul_scalar(g.get(), max_norm / n));
  };
  const dt_device noise_dev = dt_inner_device(model.ad);
  uint64_t seed = 1000;
  hooks["2-noise"] = [noise_dev, sigma, &seed](const std::string &, Tensor g, int step) {
    std::vector<int64_t> s = shape_of(g.get());
    Tensor n(dt_randn(noise_dev, seed++, int(s.size()), s.data()));
    float scale = sigma / std::pow(1.0f + float(step), 0.55f);
    Tensor ns(dt_mul_scalar(n.get(), scale));
    return Tensor(dt_add(g.get(), ns.get())); // expect-warning: backend-mismatch
  };

  const float lr = 0.1f;
  int step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if (epoch == migrate_at) {
      model.to(device_named(to));
      std::printf("epoch %d: model moved to %s\n", epoch, to.c_str());
    }
    float total = 0.0f;
    for (int it = 0; it < 5; ++it, ++step) {
      std::vector<float> x(B * IN), y(B * OUT);
      for (int64_t r = 0; r < B; ++r) {
        float s = 0.0f;
        for (int64_t c = 0; c < IN; ++c) {
          x[r * IN + c] = std::sin(0.3f * float(step * B + r) + float(c));
          s += x[r * IN + c];
        }
        y[r * OUT] = std::tanh(s);
        y[r * OUT + 1] = 0.2f * s;
      }
      const int64_t xs[2] = {B, IN}, ys[2] = {B, OUT};
      Tensor xt(dt_from_floats(model.ad, x.data(), 2, xs));
      Tensor yt(dt_from_floats(model.ad, y.data(), 2, ys));
      Tensor pred = model.forward(xt.get());
      Tensor loss(dt_mse_loss(pred.get(), yt.get()));
      Tensor li(dt_inner(loss.get()));
      float lv = 0.0f;
      dt_read_floats(li.get(), &lv, 1);
      total += lv;
      dt_backward(loss.get());

      for (Param &p : model.params) {
        Tensor g(dt_grad(p.value.get()));
        if (!g) continue;
        for (auto &kv : hooks) g = kv.second(p.name, std::move(g), step);
        Tensor st(dt_mul_scalar(g.get(), lr));
        Tensor in(dt_inner(p.value.get()));
        Tensor nw(dt_sub(in.get(), st.get()));
        p.value = Tensor(dt_require_grad(dt_from_inner(model.ad, nw.get())));
      }
    }
    std::printf("epoch %d loss %.5f |g(fc1.w)| %.4f\n", epoch, total / 5.0f,
                last_norm["fc1.w"]);
  }
  return 0;
}
