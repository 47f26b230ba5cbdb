// provenance: blind round d16
// p11: single-head cross-attention inference in C++ with a copyable shared-handle Tensor and
// overloaded operators. The attention block keeps its q/k/v projections in a std::array and
// is cloned from the host to sim:1 through a template helper; the memory the block attends
// to is built on the host, re-seated in place with std::for_each, and a second copy is made
// with std::transform. The same templated forward runs on both copies and the results are
// compared on the host.
#include <dt/dt.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <vector>

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : p_(t, dt_free) {}
  dt_tensor *get() const { return p_.get(); }
  dt_device device() const { return dt_device_of(p_.get()); }
  int64_t dim(int a) const { return dt_dim(p_.get(), a); }

 private:
  std::shared_ptr<dt_tensor> p_;
};

static Tensor operator+(const Tensor &a, const Tensor &b) { return Tensor(dt_add(a.get(), b.get())); }
static Tensor operator-(const Tensor &a, const Tensor &b) { return Tensor(dt_sub(a.get(), b.get())); }
static Tensor operator/(const Tensor &a, const Tensor &b) { return Tensor(dt_div(a.get(), b.get())); }
static Tensor operator*(const Tensor &a, float s) { return Tensor(dt_mul_scalar(a.get(), s)); }
static Tensor matmul(const Tensor &a, const Tensor &b) { return Tensor(dt_matmul(a.get(), b.get())); }
static Tensor transpose(const Tensor &a) { return Tensor(dt_transpose(a.get())); }
static Tensor to(const Tensor &a, dt_device d) { return Tensor(dt_to_device(a.get(), d)); }

static Tensor reshape(const Tensor &a, std::initializer_list<int64_t> dims) {
  std::vector<int64_t> d(dims);
  return Tensor(dt_reshape(a.get(), (int)d.size(), d.data()));
}

static Tensor randn(dt_device d, uint64_t seed, int64_t r, int64_t c) {
  const int64_t s[2] = {r, c};
  return Tensor(dt_randn(d, seed, 2, s));
}

// Row-wise softmax of a [n, m] tensor.
static Tensor softmax_rows(const Tensor &s) {
  const int64_t n = s.dim(0);
  Tensor e(dt_exp(s.get()));
  Tensor z(dt_sum_dim(e.get(), 1));
  return e / reshape(z, {n, 1});
}

template <size_t N>
static std::array<Tensor, N> map_array(const std::array<Tensor, N> &in, dt_device d) {
  std::array<Tensor, N> out;
  for (size_t i = 0; i < N; i++) out[i] = to(in[i], d);
  return out;
}

struct Attention {
  std::array<Tensor, 3> proj;  // Wq, Wk, Wv: [dim, dim]
  Tensor out;                  // Wo: [dim, dim]
  float scale = 1.0f;

  static Attention random(dt_device d, int64_t dim) {
    Attention a;
    for (size_t i = 0; i < a.proj.size(); i++) a.proj[i] = randn(d, 10 + i, dim, dim) * 0.3f;
    a.out = randn(d, 20, dim, dim) * 0.3f;
    a.scale = 1.0f / std::sqrt((float)dim);
    return a;
  }

  template <class Dev>
  Attention clone_to(Dev d) const {
    Attention a;
    a.proj = map_array(proj, d);
    a.out = to(out, d);
    a.scale = scale;
    return a;
  }

  dt_device device() const { return out.device(); }
};

// q from the queries, k and v from the memory rows.
template <class Mem>
static Tensor attend(const Attention &a, const Tensor &queries, const Mem &memory) {
  std::vector<dt_tensor *> rows;
  for (const auto &m : memory) rows.push_back(m.get());
  Tensor mem(dt_cat((int)rows.size(), rows.data(), 0));
  Tensor q = matmul(queries, a.proj[0]);
  Tensor k = matmul(mem, a.proj[1]);
  Tensor v = matmul(mem, a.proj[2]);
  Tensor scores = matmul(q, transpose(k)) * a.scale;
  Tensor w = softmax_rows(scores);
  return matmul(matmul(w, v), a.out);
}

static std::vector<Tensor> build_memory(int n, int64_t dim) {
  std::vector<Tensor> m;
  for (int i = 0; i < n; i++) {
    std::vector<float> row((size_t)dim);
    for (int64_t c = 0; c < dim; c++) row[(size_t)c] = std::sin(0.7f * (float)i + 0.3f * (float)c);
    const int64_t s[2] = {1, dim};
    m.emplace_back(dt_from_floats(dt_cpu(), row.data(), 2, s));
  }
  return m;
}

static std::vector<float> host_values(const Tensor &t) {
  Tensor h = to(t, dt_cpu());
  std::vector<float> v((size_t)dt_numel(h.get()));
  if (dt_read_floats(h.get(), v.data(), (int64_t)v.size()) != 0) v.clear();
  return v;
}

static float max_abs_diff(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size()) return INFINITY;
  float m = 0.0f;
  for (size_t i = 0; i < a.size(); i++) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

int main() {
  const int64_t dim = 4;
  const dt_device host = dt_cpu();
  const dt_device accel = dt_sim(1);

  Attention ref = Attention::random(host, dim);
  Attention dev = ref.clone_to(accel);

  std::vector<Tensor> memory = build_memory(5, dim);
  std::vector<Tensor> host_memory;
  std::transform(memory.begin(), memory.end(), std::back_inserter(host_memory),
                 [](const Tensor &t) { return t; });  // shares the host handles
  std::for_each(memory.begin(), memory.end(), [&](Tensor &t) { t = to(t, dev.device()); });

  std::array<Tensor, 2> queries = {randn(host, 99, 2, dim), randn(host, 98, 3, dim)};
  float worst = 0.0f;
  for (const Tensor &qh : queries) {
    Tensor qd = to(qh, accel);
    auto [r_host, r_dev] = std::make_pair(attend(ref, qh, host_memory), attend(dev, qd, memory));
    worst = std::max(worst, max_abs_diff(host_values(r_host), host_values(r_dev)));
  }

  // a residual update computed on the accelerator and checked on the host
  Tensor q0 = to(queries[0], accel);
  Tensor res = q0 + attend(dev, q0, memory) - q0 * 0.5f;
  std::vector<float> rv = host_values(res);
  std::printf("max |host - sim:1| = %.6f, residual[0] = %.4f (%zu values)\n", worst,
              rv.empty() ? 0.0f : rv[0], rv.size());
  return worst < 1e-3f ? 0 : 1;
}
