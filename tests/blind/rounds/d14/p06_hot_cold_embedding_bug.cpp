// Click-through-rate model with a split embedding table: the rows of the most frequent ids live
// on the accelerator (autodiff<sim:N>), the long tail stays in host memory (autodiff<cpu>).
// Frequencies come from a counting pass over the log; Lion updates each table where it lives.
// run-args: sim1 4 3
#include <dt/dt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

constexpr int64_t VOCAB = 16, DIM = 4, BAG = 3, BATCH = 5;

struct Del { void operator()(dt_tensor *t) const { dt_free(t); } };
using T = std::unique_ptr<dt_tensor, Del>;

struct Example { int64_t ids[BAG]; float click; };

std::vector<Example> make_log(int n) {
  std::vector<Example> log;
  uint64_t s = 99;
  for (int i = 0; i < n; i++) {
    Example e;
    for (int k = 0; k < BAG; k++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      uint64_t r = (s >> 33) % 100;
      e.ids[k] = r < 60 ? (int64_t)(r % 4) : (int64_t)(4 + r % (VOCAB - 4));  // skewed ids
    }
    e.click = (e.ids[0] + e.ids[1]) % 3 == 0 ? 1.0f : 0.0f;
    log.push_back(e);
  }
  return log;
}

struct Table {
  dt_device ad;
  std::vector<int64_t> rows;               // global ids held, in row order
  std::unordered_map<int64_t, int64_t> at; // global id -> row
  T value, tracked, momentum;              // value, momentum: plain on the inner device

  Table(dt_device a, std::vector<int64_t> ids, uint64_t seed) : ad(a), rows(std::move(ids)) {
    int64_t s[2] = {(int64_t)rows.size(), DIM};
    for (size_t r = 0; r < rows.size(); r++) at[rows[r]] = (int64_t)r;
    value = T(dt_mul_scalar(dt_randn(dt_inner_device(a), seed, 2, s), 0.1f));
    momentum = T(dt_zeros(dt_inner_device(a), DT_FLOAT, 2, s));
  }
  // multi-hot [BATCH, rows] times the table: the summed embedding of each bag's ids held here
  T bag(const std::vector<Example> &batch) {
    std::vector<float> mh(batch.size() * rows.size(), 0.0f);
    for (size_t b = 0; b < batch.size(); b++)
      for (int k = 0; k < BAG; k++) {
        auto it = at.find(batch[b].ids[k]);
        if (it != at.end()) mh[b * rows.size() + (size_t)it->second] += 1.0f;
      }
    int64_t s[2] = {(int64_t)batch.size(), (int64_t)rows.size()};
    T sel(dt_from_floats(ad, mh.data(), 2, s));
    tracked = T(dt_require_grad(dt_from_inner(ad, value.get())));
    return T(dt_matmul(sel.get(), tracked.get()));
  }
  // Lion: update = sign(b1 m + (1-b1) g); m = b2 m + (1-b2) g
  void lion(float lr, float b1, float b2, float wd) {
    T g(dt_grad(tracked.get()));
    tracked.reset();
    if (!g) return;
    T mix(dt_add(T(dt_mul_scalar(momentum.get(), b1)).get(), T(dt_mul_scalar(g.get(), 1 - b1)).get()));
    T sign(dt_tanh(T(dt_mul_scalar(mix.get(), 1000.0f)).get()));
    T decayed(dt_mul_scalar(value.get(), 1 - lr * wd));
    value = T(dt_sub(decayed.get(), T(dt_mul_scalar(sign.get(), lr)).get()));
    momentum = T(dt_add(T(dt_mul_scalar(momentum.get(), b2)).get(), T(dt_mul_scalar(g.get(), 1 - b2)).get()));
  }
};

class CtrModel {
 public:
  CtrModel(dt_device accel, const std::vector<int64_t> &hot, const std::vector<int64_t> &cold)
      : ad_(dt_autodiff(accel)), hot_(ad_, hot, 1), cold_(dt_autodiff(dt_cpu()), cold, 2) {
    int64_t ws[2] = {DIM, 1};
    w_ = T(dt_mul_scalar(dt_randn(accel, 3, 2, ws), 0.5f));
  }

  float step(const std::vector<Example> &batch, float lr) {
    T emb = embed(batch);
    T wt(dt_require_grad(dt_from_inner(ad_, w_.get())));
    T p(dt_sigmoid(T(dt_matmul(emb.get(), wt.get())).get()));
    std::vector<float> y;
    for (auto &e : batch) y.push_back(e.click);
    int64_t ys[2] = {(int64_t)batch.size(), 1};
    T target(dt_from_floats(ad_, y.data(), 2, ys));
    T loss(dt_mse_loss(p.get(), target.get()));
    float lv = 0.0f;
    dt_read_floats(loss.get(), &lv, 1);
    dt_backward(loss.get());
    T g(dt_grad(wt.get()));
    if (g) w_ = T(dt_sub(w_.get(), T(dt_mul_scalar(g.get(), lr)).get()));
    hot_.lion(lr * 0.1f, 0.9f, 0.99f, 0.0f);
    cold_.lion(lr * 0.1f, 0.9f, 0.99f, 0.0f);
    return lv;
  }

 private:
  T embed(const std::vector<Example> &batch) {
    T hot = hot_.bag(batch);
    T cold = cold_.bag(batch);
    return T(dt_add(hot.get(), cold.get())); // expect-error: autodiff-inner-backend
  }

  dt_device ad_;
  Table hot_, cold_;
  T w_;
};

dt_device accelerator(const std::string &name) {
  if (name == "cuda" && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return name == "sim1" ? dt_sim(1) : dt_sim(0);
}

}  // namespace

int main(int argc, char **argv) {
  dt_device accel = accelerator(argc > 1 ? argv[1] : "sim0");
  int epochs = argc > 2 ? std::atoi(argv[2]) : 2;
  int hot_k = argc > 3 ? std::max(1, std::min((int)VOCAB - 1, std::atoi(argv[3]))) : 4;
  std::vector<Example> log = make_log(20);
  std::unordered_map<int64_t, int> freq;
  for (auto &e : log)
    for (int k = 0; k < BAG; k++) freq[e.ids[k]]++;
  std::vector<std::pair<int, int64_t>> ranked;
  for (int64_t id = 0; id < VOCAB; id++) ranked.push_back({freq.count(id) ? freq[id] : 0, id});
  std::sort(ranked.begin(), ranked.end(), [](auto &a, auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::vector<int64_t> hot, cold;
  for (size_t i = 0; i < ranked.size(); i++) (i < (size_t)hot_k ? hot : cold).push_back(ranked[i].second);
  CtrModel model(accel, hot, cold);
  for (int e = 0; e < epochs; e++) {
    float total = 0.0f;
    int nb = 0;
    for (size_t b = 0; b + BATCH <= log.size(); b += BATCH, nb++)
      total += model.step(std::vector<Example>(log.begin() + (long)b, log.begin() + (long)(b + BATCH)), 0.1f);
    std::printf("epoch %d loss %.4f (hot %zu, cold %zu)\n", e, total / (float)nb, hot.size(), cold.size());
  }
  return 0;
}
