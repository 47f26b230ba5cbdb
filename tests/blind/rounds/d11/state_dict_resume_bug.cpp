// provenance: blind round d11
// Resume training from a host-side state dict. The checkpoint is written by a "previous run"
// (simulated here: a model trained on the host, then exported), serialised into a byte
// buffer, parsed back into a std::map of named cpu tensors, and loaded into a fresh model on
// the accelerator.
#include <dt/dt.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

struct TrainerConfig {
  dt_device device = dt_sim(0);
  int resume_steps = 8;
  float lr = 0.1f;
};

using StateDict = std::map<std::string, dt_tensor *>;

struct Param {
  std::vector<int64_t> shape;
  dt_tensor *value = nullptr;   // autodiff leaf
};

class Regressor {
 public:
  Regressor(dt_device plain, uint64_t seed) : ad_(dt_autodiff(plain)) {
    add("enc.weight", {4, 6}, seed, 0.3f);
    add("enc.bias", {1, 6}, seed + 1, 0.0f);
    add("head.weight", {6, 1}, seed + 2, 0.3f);
    add("head.bias", {1, 1}, seed + 3, 0.0f);
  }
  ~Regressor() {
    for (auto &kv : params_) dt_free(kv.second.value);
  }
  Regressor(const Regressor &) = delete;
  Regressor &operator=(const Regressor &) = delete;

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_matmul(x, params_.at("enc.weight").value);
    dt_tensor *hb = dt_add(h, params_.at("enc.bias").value);
    dt_tensor *a = dt_tanh(hb);
    dt_tensor *o = dt_matmul(a, params_.at("head.weight").value);
    dt_tensor *y = dt_add(o, params_.at("head.bias").value);
    dt_free(h); dt_free(hb); dt_free(a); dt_free(o);
    return y;
  }

  void sgd(float lr) {
    for (auto &kv : params_) {
      dt_tensor *g = dt_grad(kv.second.value);
      if (!g) continue;
      dt_tensor *in = dt_inner(kv.second.value);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(in, st);
      dt_free(kv.second.value);
      kv.second.value = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(g); dt_free(in); dt_free(st); dt_free(nx);
    }
  }

  StateDict state_dict(dt_device host) const {
    StateDict sd;
    for (const auto &kv : params_) {
      dt_tensor *in = dt_inner(kv.second.value);
      sd[kv.first] = dt_to_device(in, host);
      dt_free(in);
    }
    return sd;
  }

  // copies every entry of `sd` into the matching parameter, moving it if needed
  void load_state_dict(const StateDict &sd) {
    dt_device mine = dt_inner_device(ad_);
    for (auto it = params_.begin(); it != params_.end(); ++it) {
      auto found = sd.find(it->first);
      if (found == sd.end()) throw std::runtime_error("missing key " + it->first);
      dt_tensor *src = found->second;
      dt_tensor *local = nullptr;
      if (needs_transfer(dt_device_of(src), mine)) local = dt_to_device(src, mine);
      dt_tensor *leaf = dt_from_inner(ad_, local ? local : src); // expect-error: autodiff-inner-backend
      dt_free(it->second.value);
      it->second.value = dt_require_grad(leaf);
      dt_free(local);
    }
  }

  dt_device device() const { return ad_; }

 private:
  static bool needs_transfer(dt_device from, dt_device to) { return from.ordinal != to.ordinal; }

  void add(const std::string &name, std::vector<int64_t> shape, uint64_t seed, float scale) {
    dt_device plain = dt_inner_device(ad_);
    dt_tensor *r = dt_randn(plain, seed, (int)shape.size(), shape.data());
    dt_tensor *s = dt_mul_scalar(r, scale);
    Param p;
    p.shape = std::move(shape);
    p.value = dt_require_grad(dt_from_inner(ad_, s));
    params_.emplace(name, p);
    dt_free(r); dt_free(s);
  }

  dt_device ad_;
  std::unordered_map<std::string, Param> params_;
};

// ---- a minimal binary format: [name_len][name][n][floats...] per entry ----
static std::vector<uint8_t> serialize(const StateDict &sd) {
  std::vector<uint8_t> out;
  auto put = [&out](const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    out.insert(out.end(), b, b + n);
  };
  for (const auto &kv : sd) {
    uint32_t nl = (uint32_t)kv.first.size();
    put(&nl, sizeof nl);
    put(kv.first.data(), nl);
    int64_t dims[2] = {dt_dim(kv.second, 0), dt_dim(kv.second, 1)};
    put(dims, sizeof dims);
    std::vector<float> buf((size_t)dt_numel(kv.second));
    dt_read_floats(kv.second, buf.data(), (int64_t)buf.size());
    put(buf.data(), buf.size() * sizeof(float));
  }
  return out;
}

static StateDict deserialize(const std::vector<uint8_t> &bytes, dt_device host) {
  StateDict sd;
  size_t pos = 0;
  auto get = [&](void *p, size_t n) {
    if (pos + n > bytes.size()) throw std::runtime_error("truncated checkpoint");
    std::memcpy(p, bytes.data() + pos, n);
    pos += n;
  };
  while (pos < bytes.size()) {
    uint32_t nl = 0;
    get(&nl, sizeof nl);
    std::string name(nl, '\0');
    get(&name[0], nl);
    int64_t dims[2];
    get(dims, sizeof dims);
    std::vector<float> buf((size_t)(dims[0] * dims[1]));
    get(buf.data(), buf.size() * sizeof(float));
    sd[name] = dt_from_floats(host, buf.data(), 2, dims);
  }
  return sd;
}

static void free_state(StateDict &sd) {
  for (auto &kv : sd) dt_free(kv.second);
  sd.clear();
}

static void batch(std::vector<float> &x, std::vector<float> &y, int step) {
  x.resize(10 * 4);
  y.resize(10);
  for (int i = 0; i < 10; i++) {
    float s = 0.0f;
    for (int j = 0; j < 4; j++) {
      float v = (float)((i * 5 + j * 3 + step) % 8) / 8.0f;
      x[i * 4 + j] = v;
      s += (j < 2 ? v : -v);
    }
    y[i] = s;
  }
}

static float train(Regressor &m, int steps, float lr, int offset) {
  std::vector<float> x, y;
  const int64_t xs[2] = {10, 4}, ys[2] = {10, 1};
  float last = 0.0f;
  for (int s = 0; s < steps; s++) {
    batch(x, y, s + offset);
    dt_tensor *xt = dt_from_floats(m.device(), x.data(), 2, xs);
    dt_tensor *yt = dt_from_floats(m.device(), y.data(), 2, ys);
    dt_tensor *p = m.forward(xt);
    dt_tensor *l = dt_mse_loss(p, yt);
    dt_backward(l);
    dt_tensor *li = dt_inner(l);
    dt_read_floats(li, &last, 1);
    m.sgd(lr);
    dt_free(li); dt_free(l); dt_free(p); dt_free(xt); dt_free(yt);
  }
  return last;
}

int main() {
  TrainerConfig cfg;
  const dt_device host = dt_cpu();

  std::vector<uint8_t> blob;
  {
    Regressor previous(host, 11);
    float l = train(previous, 5, cfg.lr, 0);
    std::printf("previous run: loss %.5f\n", l);
    StateDict sd = previous.state_dict(host);
    blob = serialize(sd);
    free_state(sd);
  }
  std::printf("checkpoint: %zu bytes\n", blob.size());

  StateDict loaded = deserialize(blob, host);
  Regressor model(cfg.device, 99);
  try {
    model.load_state_dict(loaded);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "resume failed: %s\n", e.what());
    free_state(loaded);
    return 1;
  }
  free_state(loaded);
  float l = train(model, cfg.resume_steps, cfg.lr, 5);
  std::printf("resumed run: loss %.5f\n", l);
  return 0;
}
