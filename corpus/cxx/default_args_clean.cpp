// provenance: blind round cxx1
// Default arguments and overloads used consistently: Embedding(vocab, dim, dev = dt_cpu())
// is built once with the default (a host model) and once with sim:0; lookup() has an int
// overload (builds a one-hot on the embedding's device) and a tensor overload; score() has a
// default scale. The host model only ever sees host inputs, the sim:0 model sim:0 inputs,
// even though both go through the same member functions. Clean.
#include <dt/dt.h>

#include <cstdio>
#include <vector>

class Embedding {
 public:
  Embedding(int64_t vocab, int64_t dim, dt_device dev = dt_cpu(), uint64_t seed = 5)
      : vocab_(vocab), dim_(dim), dev_(dev) {
    const int64_t shape[] = {vocab_, dim_};
    table_ = dt_randn(dev_, seed, 2, shape);
  }
  ~Embedding() { dt_free(table_); }
  Embedding(const Embedding &) = delete;
  Embedding &operator=(const Embedding &) = delete;

  dt_tensor *lookup(const dt_tensor *one_hot) const { return dt_matmul(one_hot, table_); }
  dt_tensor *lookup(int64_t token) const {
    std::vector<float> row(static_cast<size_t>(vocab_), 0.0f);
    row[static_cast<size_t>(token % vocab_)] = 1.0f;
    const int64_t shape[] = {1, vocab_};
    dt_tensor *oh = dt_from_floats(dev_, row.data(), 2, shape);
    dt_tensor *e = lookup(oh);
    dt_free(oh);
    return e;
  }
  dt_tensor *lookup(const std::vector<int64_t> &tokens) const {
    std::vector<float> rows(tokens.size() * static_cast<size_t>(vocab_), 0.0f);
    for (size_t i = 0; i < tokens.size(); ++i)
      rows[i * static_cast<size_t>(vocab_) + static_cast<size_t>(tokens[i] % vocab_)] = 1.0f;
    const int64_t shape[] = {static_cast<int64_t>(tokens.size()), vocab_};
    dt_tensor *oh = dt_from_floats(dev_, rows.data(), 2, shape);
    dt_tensor *e = lookup(oh);
    dt_free(oh);
    return e;
  }
  dt_device device() const { return dev_; }

 private:
  int64_t vocab_, dim_;
  dt_device dev_;
  dt_tensor *table_;
};

float score(const dt_tensor *a, const dt_tensor *b, float scale = 1.0f) {
  dt_tensor *prod = dt_mul(a, b);
  dt_tensor *s = dt_sum(prod);
  dt_tensor *scaled = dt_mul_scalar(s, scale);
  float v = 0.0f;
  dt_read_floats(scaled, &v, 1);
  dt_free(scaled);
  dt_free(s);
  dt_free(prod);
  return v;
}

float similarity(const Embedding &e, int64_t x, int64_t y) {
  dt_tensor *ex = e.lookup(x);
  dt_tensor *ey = e.lookup(y);
  float v = score(ex, ey, 0.5f);
  dt_free(ex);
  dt_free(ey);
  return v;
}

int main() {
  Embedding host_emb(10, 4);
  Embedding dev_emb(10, 4, dt_sim(0), 6);

  float a = similarity(host_emb, 1, 2);
  float b = similarity(dev_emb, 1, 2);

  dt_tensor *seq_host = host_emb.lookup(std::vector<int64_t>{1, 2, 3});
  dt_tensor *seq_dev = dev_emb.lookup(std::vector<int64_t>{3, 2, 1});
  dt_tensor *moved = dt_to_device(seq_dev, host_emb.device());
  float c = score(seq_host, moved);
  std::printf("%.4f %.4f %.4f\n", a, b, c);
  dt_free(moved);
  dt_free(seq_dev);
  dt_free(seq_host);
  return 0;
}
