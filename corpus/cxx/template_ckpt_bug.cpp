// provenance: blind round cxx2
// template_ckpt_bug.cpp — checkpoint save/restore with a templated Serializer and exceptions.
// Restore reads every tensor back on the device it was saved from (sim:0, the inference box),
// then re-enters training on autodiff<cpu> by wrapping the sim primitives directly.
#include <dt/dt.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Owned = std::unique_ptr<dt_tensor, Free>;

struct Record {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <typename Store>
class Serializer {
 public:
  explicit Serializer(Store& s) : store_(s) {}

  void save(const std::string& key, const dt_tensor* t) {
    Record r;
    for (int i = 0; i < dt_rank(t); ++i) r.shape.push_back(dt_dim(t, i));
    r.data.resize(static_cast<size_t>(dt_numel(t)));
    if (dt_read_floats(t, r.data.data(), static_cast<int64_t>(r.data.size())) != 0) throw Error("read failed: " + key);
    store_[key] = std::move(r);
  }

  Owned load(const std::string& key, dt_device where) const {
    auto it = store_.find(key);
    if (it == store_.end()) throw Error("missing: " + key);
    const Record& r = it->second;
    return Owned(dt_from_floats(where, r.data.data(), static_cast<int>(r.shape.size()), r.shape.data()));
  }

 private:
  Store& store_;
};

}  // namespace ckpt

struct Net {
  dt_device dev;
  ckpt::Owned w1, w2;
};

static Net make_net(dt_device d) {
  std::array<int64_t, 2> s1{3, 5}, s2{5, 2};
  ckpt::Owned a(dt_randn(d, 1u, 2, s1.data())), b(dt_randn(d, 2u, 2, s2.data()));
  return Net{d, ckpt::Owned(dt_mul_scalar(a.get(), 0.3f)), ckpt::Owned(dt_mul_scalar(b.get(), 0.3f))};
}

static ckpt::Owned forward(const Net& n, const dt_tensor* x) {
  ckpt::Owned h(dt_matmul(x, n.w1.get()));
  ckpt::Owned a(dt_relu(h.get()));
  return ckpt::Owned(dt_matmul(a.get(), n.w2.get()));
}

template <typename Store>
static Net restore_for_training(const ckpt::Serializer<Store>& ser, dt_device saved_on, dt_device ad) {
  Net n{ad, nullptr, nullptr};
  for (auto [key, slot] : {std::make_pair("w1", &n.w1), std::make_pair("w2", &n.w2)}) {
    ckpt::Owned prim = ser.load(key, saved_on);
    dt_tensor* tracked = dt_from_inner(ad, prim.get()); // expect-error: autodiff-inner-backend
    if (!tracked) throw ckpt::Error(std::string("cannot wrap ") + key + ": " + dt_last_error());
    slot->reset(dt_require_grad(tracked));
  }
  return n;
}

// the serving path re-loads onto the device the checkpoint came from: correct
template <typename Store>
static Net reload_for_serving(const ckpt::Serializer<Store>& ser, dt_device saved_on) {
  Net n{saved_on, ser.load("w1", saved_on), ser.load("w2", saved_on)};
  if (!n.w1 || !n.w2) throw ckpt::Error("reload failed");
  return n;
}

// a metadata sidecar stored as a one-row record
template <typename Store>
static void save_meta(Store& disk, int step, float loss) {
  disk["meta"] = ckpt::Record{{1, 2}, {static_cast<float>(step), loss}};
}

template <typename Store>
static std::pair<int, float> load_meta(const Store& disk) {
  auto it = disk.find("meta");
  if (it == disk.end() || it->second.data.size() < 2) throw ckpt::Error("no meta");
  return {static_cast<int>(it->second.data[0]), it->second.data[1]};
}

static float max_abs_diff(const dt_tensor* a, const dt_tensor* b) {
  ckpt::Owned d(dt_sub(a, b));
  std::vector<float> v(static_cast<size_t>(dt_numel(d.get())));
  dt_read_floats(d.get(), v.data(), static_cast<int64_t>(v.size()));
  float m = 0.0f;
  for (float x : v) m = std::max(m, x < 0 ? -x : x);
  return m;
}

int main() {
  std::map<std::string, ckpt::Record> disk;
  ckpt::Serializer<std::map<std::string, ckpt::Record>> ser(disk);

  const dt_device infer = dt_sim(0);
  Net served = make_net(infer);
  ser.save("w1", served.w1.get());
  ser.save("w2", served.w2.get());
  std::printf("saved %zu tensors\n", disk.size());

  save_meta(disk, 1200, 0.031f);
  try {
    Net again = reload_for_serving(ser, infer);
    std::printf("reload diff %.6f\n", max_abs_diff(again.w1.get(), served.w1.get()));
    auto [step, loss] = load_meta(disk);
    std::printf("checkpoint step %d loss %.3f\n", step, loss);
  } catch (const ckpt::Error& e) {
    std::printf("serving reload failed: %s\n", e.what());
  }

  try {
    Net n = restore_for_training(ser, infer, dt_autodiff(dt_cpu()));
    std::array<int64_t, 2> sx{4, 3}, sy{4, 2};
    ckpt::Owned x(dt_randn(n.dev, 3u, 2, sx.data()));
    ckpt::Owned y(dt_zeros(n.dev, DT_FLOAT, 2, sy.data()));
    for (int s = 0; s < 3; ++s) {
      ckpt::Owned p = forward(n, x.get());
      ckpt::Owned l(dt_mse_loss(p.get(), y.get()));
      dt_backward(l.get());
      float v = 0.0f;
      dt_read_floats(l.get(), &v, 1);
      std::printf("fine-tune step %d loss %.5f\n", s, v);
    }
  } catch (const ckpt::Error& e) {
    std::printf("restore failed: %s\n", e.what());
  }

  ckpt::Owned probe(dt_randn(infer, 8u, 2, std::array<int64_t, 2>{2, 3}.data()));
  ckpt::Owned out = forward(served, probe.get());
  std::printf("served model still answers: %s\n", out ? "yes" : "no");
  return 0;
}
