// provenance: blind round cxx2
// template_autodiff_clean.cpp — one templated model used in two modes: Mode::Plain builds on a
// plain device and runs inference; Mode::Train builds on autodiff<inner> and trains. Helpers
// that cross the autodiff boundary (to_inner / from_inner) are chosen with if constexpr, so
// each instantiation only contains the calls that fit its tensors. Gradients are read on the
// inner device and applied there. Correct on every input.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

enum class Mode { Plain, Train };

template <Mode M>
struct Ctx {
  dt_device inner;
  dt_device dev() const {
    if constexpr (M == Mode::Train) return dt_autodiff(inner);
    else return inner;
  }
  // host data -> a tensor of this context
  Tensor from_host(const std::vector<float>& v, int rows, int cols) const {
    std::array<int64_t, 2> s{rows, cols};
    Tensor p(dt_from_floats(inner, v.data(), 2, s.data()));
    if constexpr (M == Mode::Train) return Tensor(dt_from_inner(dev(), p.get()));
    else return p;
  }
};

template <Mode M>
class Regressor {
 public:
  explicit Regressor(Ctx<M> c) : ctx_(c) {
    std::array<int64_t, 2> s{3, 1};
    Tensor r(dt_randn(c.dev(), 77u, 2, s.data()));
    w_.reset(dt_mul_scalar(r.get(), 0.1f));
    if constexpr (M == Mode::Train) dt_require_grad(w_.get());
  }

  Tensor predict(const dt_tensor* x) const { return Tensor(dt_matmul(x, w_.get())); }

  template <Mode N = M, typename = std::enable_if_t<N == Mode::Train>>
  float train_step(const dt_tensor* x, const dt_tensor* y, float lr) {
    Tensor p = predict(x);
    Tensor l(dt_mse_loss(p.get(), y));
    dt_backward(l.get());
    Tensor g(dt_grad(w_.get()));
    Tensor v(dt_inner(w_.get()));
    Tensor d(dt_mul_scalar(g.get(), -lr));
    Tensor nv(dt_add(v.get(), d.get()));
    w_.reset(dt_require_grad(dt_from_inner(ctx_.dev(), nv.release())));
    float out = 0.0f;
    dt_read_floats(l.get(), &out, 1);
    return out;
  }

  // plain copy of the weights on the inner device, for export
  Tensor export_weights() const {
    if constexpr (M == Mode::Train) return Tensor(dt_inner(w_.get()));
    else return Tensor(dt_mul_scalar(w_.get(), 1.0f));
  }

 private:
  Ctx<M> ctx_;
  Tensor w_;
};

std::vector<float> rows(int n, int cols, int salt) {
  std::vector<float> v(static_cast<size_t>(n * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((static_cast<int>(i) * 7 + salt) % 10) / 10.0f;
  return v;
}

template <Mode M>
float evaluate(const Regressor<M>& r, const Ctx<M>& c) {
  Tensor x = c.from_host(rows(4, 3, 5), 4, 3);
  Tensor y = c.from_host(rows(4, 1, 6), 4, 1);
  Tensor p = r.predict(x.get());
  Tensor l(dt_mse_loss(p.get(), y.get()));
  float v = 0.0f;
  dt_read_floats(l.get(), &v, 1);
  return v;
}

// a generic sweep over learning rates: one fresh Regressor<Train> per value, same context
template <typename Ctx>
std::vector<float> lr_sweep(const Ctx& c, const std::vector<float>& lrs) {
  std::vector<float> out;
  Tensor x = c.from_host(rows(8, 3, 1), 8, 3);
  Tensor y = c.from_host(rows(8, 1, 2), 8, 1);
  for (float lr : lrs) {
    Regressor<Mode::Train> r(c);
    float l = 0.0f;
    for (int s = 0; s < 5; ++s) l = r.train_step(x.get(), y.get(), lr);
    out.push_back(l);
  }
  return out;
}

// gradients read on the inner device can be combined with plain tensors of that device
float grad_dot_direction(const Ctx<Mode::Train>& c) {
  Tensor w(dt_require_grad(dt_ones(c.dev(), DT_FLOAT, 2, std::array<int64_t, 2>{3, 1}.data())));
  Tensor x = c.from_host(rows(4, 3, 3), 4, 3);
  Tensor p(dt_matmul(x.get(), w.get()));
  Tensor l(dt_mean(p.get()));
  dt_backward(l.get());
  Tensor g(dt_grad(w.get()));
  Tensor dir(dt_full(c.inner, 1.0f, 2, std::array<int64_t, 2>{3, 1}.data()));
  Tensor prod(dt_mul(g.get(), dir.get()));
  Tensor s(dt_sum(prod.get()));
  float v = 0.0f;
  dt_read_floats(s.get(), &v, 1);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const dt_device inner = (argc > 1 && std::atoi(argv[1]) == 1) ? dt_sim(1) : dt_sim(0);
  Ctx<Mode::Train> tctx{inner};
  Regressor<Mode::Train> trainer(tctx);
  Tensor x = tctx.from_host(rows(8, 3, 1), 8, 3);
  Tensor y = tctx.from_host(rows(8, 1, 2), 8, 1);
  float l = 0.0f;
  for (int s = 0; s < 20; ++s) l = trainer.train_step(x.get(), y.get(), 0.2f);
  std::printf("train loss %.5f, eval (train ctx) %.5f\n", l, evaluate(trainer, tctx));

  for (float l2 : lr_sweep(tctx, {0.05f, 0.1f, 0.3f})) std::printf("sweep loss %.5f\n", l2);
  std::printf("grad . dir = %.5f\n", grad_dot_direction(tctx));
  // serve the exported weights in a plain context on the host
  Tensor w = trainer.export_weights();
  Tensor w_host(dt_to_device(w.get(), dt_cpu()));
  Ctx<Mode::Plain> pctx{dt_cpu()};
  Regressor<Mode::Plain> server(pctx);
  Tensor q = pctx.from_host(rows(2, 3, 9), 2, 3);
  Tensor a(dt_matmul(q.get(), w_host.get()));
  Tensor b = server.predict(q.get());
  std::array<float, 2> av{}, bv{};
  dt_read_floats(a.get(), av.data(), 2);
  dt_read_floats(b.get(), bv.data(), 2);
  std::printf("exported %.4f %.4f, fresh %.4f %.4f, eval (plain) %.5f\n", av[0], av[1], bv[0], bv[1],
              evaluate(server, pctx));
  return 0;
}
