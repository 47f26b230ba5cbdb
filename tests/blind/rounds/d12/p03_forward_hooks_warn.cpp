// provenance: blind round d12
// run-args: --stats-device sim1 --steps 4
/* Forward hooks stored as lambdas and called after each block: one logs activation
 * norms, one tracks drift against a reference activation snapshot kept on a "stats"
 * device (default: the model's own device). The model trains on autodiff<sim:0>. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using Hook = std::function<void(int block, const dt_tensor *act)>;

struct Block {
  dt_tensor *w = nullptr;
  dt_tensor *b = nullptr;
};

class HookedNet {
 public:
  HookedNet(dt_device ad, int width, int depth) : ad_(ad), width_(width) {
    const int64_t ws[2] = {width, width}, bs[1] = {width};
    for (int i = 0; i < depth; i++) {
      Block bk;
      dt_tensor *r = dt_randn(dt_inner_device(ad), 300 + i, 2, ws);
      dt_tensor *rs = dt_mul_scalar(r, 0.3f);
      bk.w = dt_require_grad(dt_from_inner(ad, rs));
      bk.b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs));
      dt_free(r);
      dt_free(rs);
      blocks_.push_back(bk);
    }
  }
  ~HookedNet() {
    for (auto &b : blocks_) {
      dt_free(b.w);
      dt_free(b.b);
    }
  }
  void register_hook(const std::string &name, Hook h) { hooks_[name] = std::move(h); }
  void remove_hook(const std::string &name) { hooks_.erase(name); }

  dt_tensor *forward(const dt_tensor *x) {
    dt_tensor *cur = dt_mul_scalar(x, 1.0f);
    for (size_t i = 0; i < blocks_.size(); i++) {
      dt_tensor *h = dt_matmul(cur, blocks_[i].w);
      dt_tensor *hb = dt_add(h, blocks_[i].b);
      dt_tensor *a = dt_tanh(hb);
      dt_free(cur);
      dt_free(h);
      dt_free(hb);
      cur = a;
      for (auto &kv : hooks_) kv.second((int)i, cur);
    }
    return cur;
  }

  void step(float lr) {
    for (auto &b : blocks_) {
      for (dt_tensor **p : {&b.w, &b.b}) {
        dt_tensor *g = dt_grad(*p);
        if (!g) continue;
        dt_tensor *cur = dt_inner(*p);
        dt_tensor *st = dt_mul_scalar(g, lr);
        dt_tensor *nx = dt_sub(cur, st);
        dt_free(*p);
        *p = dt_require_grad(dt_from_inner(ad_, nx));
        dt_free(g);
        dt_free(cur);
        dt_free(st);
        dt_free(nx);
      }
    }
  }
  dt_device device() const { return ad_; }
  int width() const { return width_; }

 private:
  dt_device ad_;
  int width_;
  std::vector<Block> blocks_;
  std::map<std::string, Hook> hooks_;
};

static float scalar(dt_tensor *t) {
  float v = 0;
  if (t) dt_read_floats(t, &v, 1);
  dt_free(t);
  return v;
}

int main(int argc, char **argv) {
  int steps = 6;
  const char *stats = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--stats-device")) stats = argv[i + 1];
  }
  dt_device train = dt_sim(0);
  dt_device stats_dev = (stats && !std::strcmp(stats, "sim1")) ? dt_sim(1) : train;
  const int width = 6, batch = 5, depth = 3;
  HookedNet net(dt_autodiff(train), width, depth);

  std::vector<float> norms;
  net.register_hook("norm", [&norms](int block, const dt_tensor *act) {
    dt_tensor *sq = dt_mul(act, act);
    norms.push_back(std::sqrt(scalar(dt_sum(sq))));
    dt_free(sq);
    (void)block;
  });

  std::vector<dt_tensor *> reference(depth, nullptr);
  std::vector<float> drift(depth, 0.0f);
  bool snapshot = true;
  net.register_hook("drift", [&, stats_dev](int block, const dt_tensor *act) {
    dt_tensor *plain = dt_inner(act);
    if (snapshot) {
      dt_free(reference[block]);
      reference[block] = dt_to_device(plain, stats_dev);
    } else {
      dt_tensor *d = dt_sub(plain, reference[block]); // expect-warning: device-mismatch
      dt_tensor *d2 = dt_mul(d, d);
      drift[block] = scalar(dt_mean(d2));
      dt_free(d);
      dt_free(d2);
    }
    dt_free(plain);
  });

  std::vector<float> x(batch * width), y(batch * width);
  for (int i = 0; i < batch * width; i++) {
    x[i] = std::sin(0.5f * (float)i);
    y[i] = 0.5f * std::cos(0.5f * (float)i);
  }
  const int64_t s[2] = {batch, width};
  for (int st = 0; st < steps; st++) {
    snapshot = (st == 0);
    dt_tensor *xt = dt_from_floats(net.device(), x.data(), 2, s);
    dt_tensor *yt = dt_from_floats(net.device(), y.data(), 2, s);
    dt_tensor *out = net.forward(xt);
    dt_tensor *loss = dt_mse_loss(out, yt);
    float lv = 0;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    net.step(0.2f);
    std::printf("step %d loss %.5f drift[last] %.6f\n", st, lv, drift[depth - 1]);
    dt_free(xt);
    dt_free(yt);
    dt_free(out);
    dt_free(loss);
  }
  net.remove_hook("norm");
  std::printf("recorded %zu norms\n", norms.size());
  for (auto *r : reference) dt_free(r);
  return 0;
}
