// provenance: blind round d12
// run-args: --replicas sim1,cpu,sim0 --clip 0.25
/* Data-parallel SGD over replicas on different devices. Each replica computes gradients on
 * its shard; the gradients are all-reduced on the host, clipped by global norm, and each
 * replica applies the same update on its own device. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

struct Param {
  std::string name;
  dt_tensor *value = nullptr;  // autodiff leaf on the replica's device
};

class Replica {
 public:
  Replica(dt_device base, const std::vector<dt_tensor *> &host_init) : base_(base), ad_(dt_autodiff(base)) {
    const char *names[] = {"w1", "b1", "w2", "b2"};
    for (size_t i = 0; i < host_init.size(); i++) {
      dt_tensor *d = dt_to_device(host_init[i], base);
      params_.push_back({names[i], dt_require_grad(dt_from_inner(ad_, d))});
      dt_free(d);
    }
  }
  ~Replica() {
    for (auto &p : params_) dt_free(p.value);
  }
  Replica(Replica &&o) noexcept : base_(o.base_), ad_(o.ad_), params_(std::move(o.params_)) { o.params_.clear(); }

  float forward_backward(const float *x, const float *y, int64_t n) {
    const int64_t xs[2] = {n, 4}, ys[2] = {n, 1};
    dt_tensor *xt = dt_from_floats(ad_, x, 2, xs);
    dt_tensor *yt = dt_from_floats(ad_, y, 2, ys);
    dt_tensor *h = dt_matmul(xt, params_[0].value);
    dt_tensor *hb = dt_add(h, params_[1].value);
    dt_tensor *a = dt_relu(hb);
    dt_tensor *o = dt_matmul(a, params_[2].value);
    dt_tensor *ob = dt_add(o, params_[3].value);
    dt_tensor *loss = dt_mse_loss(ob, yt);
    float lv = 0;
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    for (dt_tensor *t : {xt, yt, h, hb, a, o, ob, loss}) dt_free(t);
    return lv;
  }
  // gradients copied to the host, in parameter order
  std::vector<dt_tensor *> host_grads() const {
    std::vector<dt_tensor *> out;
    for (const Param &p : params_) {
      dt_tensor *g = dt_grad(p.value);
      out.push_back(g ? dt_to_device(g, dt_cpu()) : nullptr);
      dt_free(g);
    }
    return out;
  }
  void apply(const std::vector<dt_tensor *> &host_updates) {
    for (size_t i = 0; i < params_.size(); i++) {
      Param &p = params_[i];
      if (!host_updates[i]) continue;
      dt_tensor *u = dt_to_device(host_updates[i], base_);
      dt_tensor *cur = dt_inner(p.value);
      dt_tensor *nx = dt_sub(cur, u);
      dt_free(p.value);
      p.value = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(u);
      dt_free(cur);
      dt_free(nx);
    }
  }
  std::vector<Param> &params() { return params_; }

 private:
  dt_device base_, ad_;
  std::vector<Param> params_;
};

static std::vector<dt_device> parse_replicas(const std::string &spec) {
  std::vector<dt_device> out;
  std::stringstream ss(spec);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    if (tok == "cpu") out.push_back(dt_cpu());
    else if (tok == "sim0") out.push_back(dt_sim(0));
    else if (tok == "sim1") out.push_back(dt_sim(1));
  }
  if (out.empty()) out = {dt_sim(0), dt_sim(1)};
  return out;
}

int main(int argc, char **argv) {
  std::string spec = "sim0,sim1";
  float clip = 1.0f;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--replicas")) spec = argv[i + 1];
    else if (!std::strcmp(argv[i], "--clip")) clip = (float)std::atof(argv[i + 1]);
  }
  std::vector<dt_device> devs = parse_replicas(spec);
  const int64_t s1[2] = {4, 8}, s2[1] = {8}, s3[2] = {8, 1}, s4[1] = {1};
  std::vector<dt_tensor *> init = {dt_randn(dt_cpu(), 1, 2, s1), dt_zeros(dt_cpu(), DT_FLOAT, 1, s2),
                                   dt_randn(dt_cpu(), 2, 2, s3), dt_zeros(dt_cpu(), DT_FLOAT, 1, s4)};
  std::vector<Replica> replicas;
  replicas.reserve(devs.size());
  for (const dt_device &d : devs) replicas.emplace_back(d, init);
  for (dt_tensor *t : init) dt_free(t);

  const int64_t shard = 4;
  std::vector<float> x(shard * 4), y(shard);
  for (int step = 0; step < 12; step++) {
    float loss = 0;
    std::vector<dt_tensor *> sum(4, nullptr);
    for (size_t r = 0; r < replicas.size(); r++) {
      for (int i = 0; i < shard; i++) {
        float t = 0;
        for (int j = 0; j < 4; j++) {
          x[i * 4 + j] = std::sin(0.05f * (float)((step * 7 + (int)r * 3 + i) * 4 + j));
          t += x[i * 4 + j] * (float)(j + 1);
        }
        y[i] = 0.3f * t;
      }
      loss += replicas[r].forward_backward(x.data(), y.data(), shard) / (float)replicas.size();
      auto grads = replicas[r].host_grads();
      for (size_t k = 0; k < grads.size(); k++) {
        if (!grads[k]) continue;
        if (!sum[k]) {
          sum[k] = grads[k];
        } else {
          dt_tensor *n = dt_add(sum[k], grads[k]);
          dt_free(sum[k]);
          dt_free(grads[k]);
          sum[k] = n;
        }
      }
    }
    float sq = 0;
    for (dt_tensor *&g : sum) {
      if (!g) continue;
      dt_tensor *avg = dt_mul_scalar(g, 1.0f / (float)replicas.size());
      dt_free(g);
      g = avg;
      dt_tensor *g2 = dt_mul(g, g);
      dt_tensor *s = dt_sum(g2);
      float v = 0;
      dt_read_floats(s, &v, 1);
      sq += v;
      dt_free(g2);
      dt_free(s);
    }
    float norm = std::sqrt(sq);
    float scale = 0.1f * (norm > clip ? clip / norm : 1.0f);
    std::vector<dt_tensor *> updates;
    for (dt_tensor *g : sum) updates.push_back(g ? dt_mul_scalar(g, scale) : nullptr);
    for (Replica &rep : replicas) rep.apply(updates);
    for (dt_tensor *u : updates) dt_free(u);
    for (dt_tensor *g : sum) dt_free(g);
    if (step % 4 == 0) std::printf("step %d loss %.4f grad norm %.4f\n", step, loss, norm);
  }
  // replicas must agree
  std::vector<float> first;
  for (Replica &rep : replicas) {
    dt_tensor *in = dt_inner(rep.params()[0].value);
    dt_tensor *h = dt_to_device(in, dt_cpu());
    std::vector<float> w(32);
    dt_read_floats(h, w.data(), 32);
    if (first.empty()) first = w;
    float diff = 0;
    for (size_t i = 0; i < w.size(); i++) diff += std::fabs(w[i] - first[i]);
    std::printf("replica diff %.6f\n", diff);
    dt_free(in);
    dt_free(h);
  }
  return 0;
}
