// provenance: blind round d11
// Evaluation harness: datasets come from several producers that leave their tensors on
// different devices (a host loader, a preprocessing job on sim:0, a cache on sim:1). A frozen
// binary classifier on EVAL_DEVICE (cpu|sim0|sim1) scores all of them with templated metrics;
// every batch is brought to the model's device first.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Batch {
  dt_tensor *x = nullptr;       // [n, 4] float
  dt_tensor *labels = nullptr;  // [n, 1] int, 0/1
  Batch() = default;
  Batch(dt_tensor *x_, dt_tensor *l_) : x(x_), labels(l_) {}
  Batch(Batch &&o) noexcept : x(o.x), labels(o.labels) { o.x = o.labels = nullptr; }
  Batch &operator=(Batch &&o) noexcept {
    std::swap(x, o.x);
    std::swap(labels, o.labels);
    return *this;
  }
  Batch(const Batch &) = delete;
  ~Batch() { dt_free(x); dt_free(labels); }
};

class Dataset {
 public:
  Dataset(std::string name, dt_device where, int n_batches, int offset)
      : name_(std::move(name)), where_(where) {
    for (int b = 0; b < n_batches; b++) batches_.push_back(make(b + offset));
  }
  const std::vector<Batch> &batches() const { return batches_; }
  const std::string &name() const { return name_; }
  dt_device where() const { return where_; }

 private:
  Batch make(int seed) const {
    float x[6 * 4];
    int64_t y[6];
    for (int i = 0; i < 6; i++) {
      float s = 0.0f;
      for (int j = 0; j < 4; j++) {
        x[i * 4 + j] = (float)((seed * 7 + i * 5 + j * 3) % 10) / 10.0f - 0.45f;
        s += x[i * 4 + j] * (j < 2 ? 1.0f : -0.5f);
      }
      y[i] = s > 0.0f ? 1 : 0;
    }
    const int64_t xs[2] = {6, 4}, ys[2] = {6, 1};
    return Batch(dt_from_floats(where_, x, 2, xs), dt_from_ints(where_, y, 2, ys));
  }

  std::string name_;
  dt_device where_;
  std::vector<Batch> batches_;
};

class Classifier {
 public:
  explicit Classifier(dt_device d) : dev_(d) {
    const float w[4 * 2] = {-0.9f, 1.0f, -0.8f, 1.1f, 0.4f, -0.5f, 0.5f, -0.4f};
    const int64_t ws[2] = {4, 2};
    w_ = dt_from_floats(d, w, 2, ws);
  }
  ~Classifier() { dt_free(w_); }
  // logits [n, 2]; x may live anywhere, it is moved here first
  dt_tensor *logits(const dt_tensor *x) const {
    if (dt_device_equal(dt_device_of(x), dev_)) return dt_matmul(x, w_);
    dt_tensor *local = dt_to_device(x, dev_);
    dt_tensor *out = dt_matmul(local, w_);
    dt_free(local);
    return out;
  }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  dt_tensor *w_;
};

struct Accuracy {
  const char *name() const { return "accuracy"; }
  double operator()(const float *logits, const int64_t *labels, int n) const {
    int ok = 0;
    for (int i = 0; i < n; i++) ok += ((logits[2 * i + 1] > logits[2 * i]) ? 1 : 0) == labels[i];
    return (double)ok / n;
  }
};

struct PositiveRate {
  const char *name() const { return "positive-rate"; }
  double operator()(const float *logits, const int64_t *, int n) const {
    int pos = 0;
    for (int i = 0; i < n; i++) pos += logits[2 * i + 1] > logits[2 * i];
    return (double)pos / n;
  }
};

template <typename Metric>
double evaluate(const Classifier &clf, const Dataset &ds, Metric metric) {
  double total = 0.0;
  int count = 0;
  for (const Batch &b : ds.batches()) {
    dt_tensor *lg = clf.logits(b.x);
    dt_tensor *lg_host = dt_to_device(lg, dt_cpu());
    dt_tensor *lab_host = dt_to_device(b.labels, dt_cpu());
    float buf[6 * 2];
    int64_t lab[6];
    dt_read_floats(lg_host, buf, 12);
    dt_read_ints(lab_host, lab, 6);
    total += metric(buf, lab, 6);
    count++;
    dt_free(lg); dt_free(lg_host); dt_free(lab_host);
  }
  return count ? total / count : 0.0;
}

// margin computed on the device: mean of (logit1 - logit0) where the label says positive
double device_margin(const Classifier &clf, const Dataset &ds) {
  double total = 0.0;
  const int64_t col[2] = {2, 1};
  const float sel[2] = {-1.0f, 1.0f};
  dt_tensor *sign = dt_from_floats(clf.device(), sel, 2, col);
  for (const Batch &b : ds.batches()) {
    dt_tensor *lg = clf.logits(b.x);
    dt_tensor *diff = dt_matmul(lg, sign);                        // [6, 1]
    dt_tensor *zero = dt_zeros(clf.device(), DT_FLOAT, 2, col);   // [2, 1]
    const int64_t one[2] = {1, 1};
    dt_tensor *zsum = dt_sum_dim(zero, 0);                        // [1]
    dt_tensor *z = dt_reshape(zsum, 2, one);                      // [1, 1]
    dt_free(zsum);
    dt_tensor *pos = dt_greater(diff, z);
    dt_tensor *m = dt_where(pos, diff, z);
    dt_tensor *mean = dt_mean(m);
    float v = 0.0f;
    dt_tensor *mh = dt_to_device(mean, dt_cpu());
    dt_read_floats(mh, &v, 1);
    total += v;
    dt_free(lg); dt_free(diff); dt_free(zero); dt_free(z); dt_free(pos); dt_free(m);
    dt_free(mean); dt_free(mh);
  }
  dt_free(sign);
  return total / (double)ds.batches().size();
}

static dt_device eval_device() {
  const char *e = std::getenv("EVAL_DEVICE");
  if (e && !std::strcmp(e, "cpu")) return dt_cpu();
  if (e && !std::strcmp(e, "sim1")) return dt_sim(1);
  return dt_sim(0);
}

int main() {
  std::map<std::string, std::unique_ptr<Dataset>> sources;
  sources["host-loader"] = std::make_unique<Dataset>("host-loader", dt_cpu(), 3, 0);
  sources["preproc"] = std::make_unique<Dataset>("preproc", dt_sim(0), 2, 10);
  sources["cache"] = std::make_unique<Dataset>("cache", dt_sim(1), 2, 20);

  Classifier clf(eval_device());
  char dn[32];
  dt_device_name(clf.device(), dn, sizeof dn);
  std::printf("evaluating on %s\n", dn);

  for (auto it = sources.begin(); it != sources.end(); ++it) {
    const Dataset &ds = *it->second;
    char where[32];
    dt_device_name(ds.where(), where, sizeof where);
    double acc = evaluate(clf, ds, Accuracy{});
    double pr = evaluate(clf, ds, PositiveRate{});
    double mg = device_margin(clf, ds);
    std::printf("%-12s (%s): %s %.3f, %s %.3f, margin %.3f\n", it->first.c_str(), where,
                Accuracy{}.name(), acc, PositiveRate{}.name(), pr, mg);
  }
  auto found = sources.find("cache");
  if (found != sources.end()) {
    const Batch &b0 = found->second->batches().front();
    dt_tensor *lg = clf.logits(b0.x);
    std::printf("first cache batch: %lld rows scored\n", (long long)dt_dim(lg, 0));
    dt_free(lg);
  }
  return 0;
}
