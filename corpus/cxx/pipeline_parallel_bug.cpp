// provenance: blind round cxx1
// Pipeline-parallel training over two accelerators: stage 0 on autodiff<sim:0>, stage 1 on
// autodiff<sim:1>; activations cross with dt_to_device (an autodiff tensor moved to another
// autodiff device stays tracked). Stages are a class template Stage<Act> held in a
// std::array; micro-batches come from a generator lambda.
// Two mistakes:
//  1. the gradient-norm monitor adds the squared norms of the first stage's gradient (a plain
//     sim:0 tensor) and the last stage's (plain sim:1) without a transfer (device-mismatch);
//  2. the training loop builds targets on the *first* stage's device, while predictions come
//     out of the last stage on sim:1 (device-mismatch in dt_mse_loss).
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <functional>

namespace pp {

struct ReluAct {
  static dt_tensor *apply(const dt_tensor *x) { return dt_relu(x); }
};
struct IdentityAct {
  static dt_tensor *apply(const dt_tensor *x) { return dt_add_scalar(x, 0.0f); }
};

template <typename Act>
class Stage {
 public:
  Stage() = default;
  Stage(dt_device inner, int64_t in, int64_t out, uint64_t seed) : inner_(inner), ad_(dt_autodiff(inner)) {
    const int64_t shape[] = {in, out};
    dt_tensor *w0 = dt_randn(ad_, seed, 2, shape);
    w_ = dt_require_grad(dt_mul_scalar(w0, 0.5f));
    dt_free(w0);
  }
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *local = dt_to_device(x, ad_);
    dt_tensor *h = dt_matmul(local, w_);
    dt_tensor *y = Act::apply(h);
    dt_free(h);
    dt_free(local);
    return y;
  }
  dt_tensor *grad() const { return dt_grad(w_); }
  void sgd(float lr) {
    dt_tensor *g = dt_grad(w_);
    if (!g) return;
    dt_tensor *in = dt_inner(w_);
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *next = dt_sub(in, step);
    dt_free(w_);
    w_ = dt_require_grad(dt_from_inner(ad_, next));
    dt_free(next);
    dt_free(step);
    dt_free(in);
    dt_free(g);
  }
  void release() {
    dt_free(w_);
    w_ = nullptr;
  }
  dt_device device() const { return ad_; }
  dt_device inner() const { return inner_; }

 private:
  dt_device inner_{};
  dt_device ad_{};
  dt_tensor *w_ = nullptr;
};

inline dt_tensor *sum_sq(const dt_tensor *g) {
  dt_tensor *sq = dt_mul(g, g);
  dt_tensor *s = dt_sum(sq);
  dt_free(sq);
  return s;
}

class Pipeline {
 public:
  Pipeline() : first_(dt_sim(0), 4, 6, 1), hidden_{} {
    hidden_[0] = Stage<ReluAct>(dt_sim(0), 6, 6, 2);
    hidden_[1] = Stage<ReluAct>(dt_sim(1), 6, 6, 3);
    last_ = Stage<IdentityAct>(dt_sim(1), 6, 1, 4);
  }
  ~Pipeline() {
    first_.release();
    for (auto &s : hidden_) s.release();
    last_.release();
  }
  Pipeline(const Pipeline &) = delete;
  Pipeline &operator=(const Pipeline &) = delete;

  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = first_.forward(x);
    for (const auto &s : hidden_) {
      dt_tensor *n = s.forward(h);
      dt_free(h);
      h = n;
    }
    dt_tensor *y = last_.forward(h);
    dt_free(h);
    return y;
  }
  void step(float lr) {
    first_.sgd(lr);
    for (auto &s : hidden_) s.sgd(lr);
    last_.sgd(lr);
  }
  dt_device input_device() const { return first_.device(); }
  dt_device output_device() const { return last_.device(); }

  // Monitoring: total gradient magnitude of the first and the last stage.
  float grad_norm() const {
    dt_tensor *g0 = first_.grad();
    dt_tensor *g1 = last_.grad();
    dt_tensor *s0 = sum_sq(g0);
    dt_tensor *s1 = sum_sq(g1);
    dt_tensor *total = dt_add(s0, s1); // expect-error: device-mismatch
    float v = -1.0f;
    if (total) dt_read_floats(total, &v, 1);
    dt_free(total);
    dt_free(s1);
    dt_free(s0);
    dt_free(g1);
    dt_free(g0);
    return v;
  }

 private:
  Stage<ReluAct> first_;
  std::array<Stage<ReluAct>, 2> hidden_;
  Stage<IdentityAct> last_;
};

}  // namespace pp

namespace {

// Evaluation on the host: the prediction leaves the graph (dt_detach), its primitive is taken
// with dt_inner and moved to the host, where the error against a host target is computed.
float host_error(const pp::Pipeline &pipe, const dt_tensor *x, float target) {
  dt_tensor *p = pipe.forward(x);
  dt_tensor *d = dt_detach(p);
  dt_tensor *prim = dt_inner(d);
  dt_tensor *host = dt_to_device(prim, dt_cpu());
  const int64_t shape[] = {2, 1};
  dt_tensor *t = dt_full(dt_cpu(), target, 2, shape);
  dt_tensor *diff = dt_sub(host, t);
  dt_tensor *sq = dt_mul(diff, diff);
  dt_tensor *m = dt_mean(sq);
  float v = 0.0f;
  dt_read_floats(m, &v, 1);
  for (dt_tensor *u : {m, sq, diff, t, host, prim, d, p}) dt_free(u);
  return v;
}

}  // namespace

int main() {
  pp::Pipeline pipe;
  std::function<dt_tensor *(int)> micro_batch = [&pipe](int i) {
    float xs[8];
    for (int k = 0; k < 8; ++k) xs[k] = static_cast<float>((k + i) % 5) * 0.2f;
    const int64_t shape[] = {2, 4};
    return dt_from_floats(pipe.input_device(), xs, 2, shape);
  };
  const int64_t yshape[] = {2, 1};

  // Warm-up pass with correctly placed targets, then one look at the gradients.
  {
    dt_tensor *x = micro_batch(0);
    dt_tensor *p = pipe.forward(x);
    dt_tensor *y = dt_full(pipe.output_device(), 0.5f, 2, yshape);
    dt_tensor *l = dt_mse_loss(p, y);
    dt_backward(l);
    std::printf("warm-up grad norm %.4f\n", pipe.grad_norm());
    pipe.step(0.05f);
    dt_free(l);
    dt_free(y);
    dt_free(p);
    dt_free(x);
  }

  {
    dt_tensor *x = micro_batch(7);
    std::printf("host error before training %.4f\n", host_error(pipe, x, 0.5f));
    dt_free(x);
  }

  for (int step = 0; step < 3; ++step) {
    dt_tensor *x = micro_batch(step + 1);
    dt_tensor *p = pipe.forward(x);
    dt_tensor *y = dt_full(pipe.input_device(), 0.5f, 2, yshape);
    dt_tensor *l = dt_mse_loss(p, y); // expect-error: device-mismatch
    float v = -1.0f;
    if (l) {
      dt_backward(l);
      dt_read_floats(l, &v, 1);
      pipe.step(0.05f);
    }
    std::printf("step %d loss %.4f\n", step, v);
    dt_free(l);
    dt_free(y);
    dt_free(p);
    dt_free(x);
  }
  return 0;
}
