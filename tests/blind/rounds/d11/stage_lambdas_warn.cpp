// provenance: blind round d11
// run-env: PIPE_P2P=1
// Two-stage pipeline trainer: stage 0 (encoder) on sim:0, stage 1 (head) on sim:1, both
// under autodiff, so gradients flow back across the device hop. Stages are lambdas in a
// std::vector; the hop between them is a "link" lambda. PIPE_P2P=1 selects the peer-to-peer
// link, which hands the activation over as-is (no staging copy).
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

class Params {
 public:
  explicit Params(dt_device ad) : ad_(ad) {}
  ~Params() {
    for (dt_tensor *t : ts_) dt_free(t);
  }
  Params(const Params &) = delete;
  Params &operator=(const Params &) = delete;

  dt_tensor *add(int64_t r, int64_t c, uint64_t seed, float scale) {
    const int64_t s[2] = {r, c};
    dt_tensor *raw = dt_randn(dt_inner_device(ad_), seed, 2, s);
    dt_tensor *v = dt_mul_scalar(raw, scale);
    dt_tensor *p = dt_require_grad(dt_from_inner(ad_, v));
    dt_free(raw);
    dt_free(v);
    ts_.push_back(p);
    return p;
  }
  dt_tensor *operator[](size_t i) const { return ts_[i]; }
  void sgd(float lr) {
    for (dt_tensor *&p : ts_) {
      dt_tensor *g = dt_grad(p);
      if (!g) continue;
      dt_tensor *in = dt_inner(p);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(in, st);
      dt_free(p);
      p = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
    }
  }
  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::vector<dt_tensor *> ts_;
};

using StageFn = std::function<dt_tensor *(const dt_tensor *)>;
using LinkFn = std::function<dt_tensor *(const dt_tensor *, dt_device)>;

struct Stage {
  std::string name;
  std::unique_ptr<Params> params;
  StageFn run;
};

struct PipeConfig {
  bool p2p = false;
  int steps = 6;
  int micro = 3;
  float lr = 0.05f;
};

PipeConfig read_config(int argc, char **argv) {
  PipeConfig c;
  const char *p = std::getenv("PIPE_P2P");
  c.p2p = p && std::strcmp(p, "1") == 0;
  if (argc > 1) c.steps = std::atoi(argv[1]) > 0 ? std::atoi(argv[1]) : c.steps;
  return c;
}

float host_value(const dt_tensor *t) {
  float v = 0.0f;
  dt_tensor *in = dt_inner(t);
  dt_read_floats(in, &v, 1);
  dt_free(in);
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  PipeConfig cfg = read_config(argc, argv);
  const dt_device dev0 = dt_autodiff(dt_sim(0));
  const dt_device dev1 = dt_autodiff(dt_sim(1));

  std::vector<Stage> stages;
  {
    Stage enc{"encoder", std::make_unique<Params>(dev0), nullptr};
    Params *P = enc.params.get();
    P->add(4, 8, 1, 0.4f);
    P->add(1, 8, 2, 0.0f);
    enc.run = [P](const dt_tensor *x) {
      dt_tensor *h = dt_matmul(x, (*P)[0]);
      dt_tensor *hb = dt_add(h, (*P)[1]);
      dt_tensor *a = dt_relu(hb);
      dt_free(h);
      dt_free(hb);
      return a;
    };
    stages.push_back(std::move(enc));
  }
  {
    Stage head{"head", std::make_unique<Params>(dev1), nullptr};
    Params *P = head.params.get();
    P->add(8, 1, 3, 0.4f);
    head.run = [P](const dt_tensor *h) {
      dt_tensor *o = dt_matmul(h, (*P)[0]); // expect-warning: device-mismatch
      dt_tensor *y = dt_tanh(o);
      dt_free(o);
      return y;
    };
    stages.push_back(std::move(head));
  }

  LinkFn staged = [](const dt_tensor *t, dt_device to) { return dt_to_device(t, to); };
  LinkFn peer = [](const dt_tensor *t, dt_device) { return dt_mul_scalar(t, 1.0f); };
  LinkFn link = cfg.p2p ? peer : staged;
  std::printf("link: %s\n", cfg.p2p ? "peer-to-peer" : "staged copy");

  auto run_pipeline = [&](const dt_tensor *x) {
    dt_tensor *cur = dt_mul_scalar(x, 1.0f);
    for (size_t i = 0; i < stages.size(); i++) {
      if (i > 0) {
        dt_tensor *hop = link(cur, stages[i].params->device());
        dt_free(cur);
        cur = hop;
      }
      dt_tensor *next = stages[i].run(cur);
      dt_free(cur);
      cur = next;
    }
    return cur;
  };

  const int64_t xs[2] = {5, 4}, ys[2] = {5, 1};
  for (int step = 0; step < cfg.steps; step++) {
    float total = 0.0f;
    for (int m = 0; m < cfg.micro; m++) {
      float xb[5 * 4], yb[5];
      for (int i = 0; i < 5; i++) {
        float s = 0.0f;
        for (int j = 0; j < 4; j++) {
          xb[i * 4 + j] = (float)((step + m * 3 + i * 2 + j) % 6) / 6.0f - 0.4f;
          s += xb[i * 4 + j];
        }
        yb[i] = s > 0.0f ? 0.5f : -0.5f;
      }
      dt_tensor *x = dt_from_floats(dev0, xb, 2, xs);
      dt_tensor *y = dt_from_floats(dev1, yb, 2, ys);
      dt_tensor *out = run_pipeline(x);
      dt_tensor *loss = dt_mse_loss(out, y);
      dt_backward(loss);
      total += host_value(loss);
      for (Stage &s : stages) s.params->sgd(cfg.lr);
      dt_free(loss); dt_free(out); dt_free(x); dt_free(y);
    }
    std::printf("step %d: loss %.5f\n", step, total / cfg.micro);
  }
  return 0;
}
