// provenance: blind round cxx2
// run-args: --host-eval --epochs 2
// cli_eval_warn.cpp — a ridge-regression trainer with a small command-line parser
// (std::vector<std::string>). Training runs on sim:1. With --host-eval the held-out split is
// materialised on the host "to keep the accelerator free", but the evaluator still multiplies
// it with the accelerator-resident weights. The default run evaluates on sim:1.
#include <dt/dt.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int kF = 4;
constexpr int kRows = 8;

struct Options {
  bool host_eval = false;
  int epochs = 25;
  float lr = 0.1f;
  float ridge = 0.01f;

  static Options parse(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--host-eval") o.host_eval = true;
      else if (a == "--epochs" && i + 1 < args.size()) o.epochs = std::max(1, std::atoi(args[++i].c_str()));
      else if (a == "--lr" && i + 1 < args.size()) o.lr = static_cast<float>(std::atof(args[++i].c_str()));
    }
    return o;
  }
};

struct Split {
  Tensor x, y;
};

Split make_split(dt_device d, int salt) {
  std::vector<float> xs(kRows * kF), ys(kRows);
  for (int i = 0; i < kRows; ++i) {
    float acc = 0.0f;
    for (int j = 0; j < kF; ++j) {
      float v = static_cast<float>((i * (j + 2) + salt) % 7) / 7.0f;
      xs[static_cast<size_t>(i * kF + j)] = v;
      acc += (j == 1 ? -1.0f : 0.5f) * v;
    }
    ys[static_cast<size_t>(i)] = acc;
  }
  std::array<int64_t, 2> sx{kRows, kF}, sy{kRows, 1};
  return Split{Tensor(dt_from_floats(d, xs.data(), 2, sx.data())), Tensor(dt_from_floats(d, ys.data(), 2, sy.data()))};
}

class Ridge {
 public:
  explicit Ridge(dt_device d) : dev_(d) {
    std::array<int64_t, 2> s{kF, 1};
    w_.reset(dt_zeros(d, DT_FLOAT, 2, s.data()));
  }
  Tensor predict(const dt_tensor* x) const {
    return Tensor(dt_matmul(x, w_.get())); // expect-warning: backend-mismatch
  }
  void fit(const Split& s, const Options& o) {
    for (int e = 0; e < o.epochs; ++e) {
      Tensor p = predict(s.x.get());
      Tensor err(dt_sub(p.get(), s.y.get()));
      Tensor xt(dt_transpose(s.x.get()));
      Tensor g(dt_matmul(xt.get(), err.get()));
      Tensor gs(dt_mul_scalar(g.get(), 2.0f / kRows));
      Tensor reg(dt_mul_scalar(w_.get(), 2.0f * o.ridge));
      Tensor total(dt_add(gs.get(), reg.get()));
      Tensor upd(dt_mul_scalar(total.get(), -o.lr));
      w_.reset(dt_add(w_.get(), upd.get()));
    }
  }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  Tensor w_;
};

float mse(const dt_tensor* p, const dt_tensor* y) {
  Tensor l(dt_mse_loss(p, y));
  float v = -1.0f;
  if (l) dt_read_floats(l.get(), &v, 1);
  return v;
}

// k-fold cross-validation on the training device: every fold's tensors come from the same
// device as the model
float cross_validate(const Options& o, dt_device d, int folds) {
  float total = 0.0f;
  for (int k = 0; k < folds; ++k) {
    Ridge r(d);
    Split tr = make_split(d, 10 + k);
    Split va = make_split(d, 20 + k);
    r.fit(tr, o);
    Tensor p = r.predict(va.x.get());
    total += mse(p.get(), va.y.get());
  }
  return total / static_cast<float>(folds);
}

// residual summary on the host: the split is copied out wholesale, wherever it lives
struct Residuals {
  float max_abs = 0.0f;
  float mean = 0.0f;
};

Residuals summarize(const dt_tensor* pred, const dt_tensor* y) {
  std::vector<float> p(kRows), t(kRows);
  Residuals r;
  if (dt_read_floats(pred, p.data(), kRows) || dt_read_floats(y, t.data(), kRows)) return r;
  for (int i = 0; i < kRows; ++i) {
    const float d = p[static_cast<size_t>(i)] - t[static_cast<size_t>(i)];
    r.mean += d / kRows;
    r.max_abs = std::max(r.max_abs, d < 0 ? -d : d);
  }
  return r;
}

void print_usage(const char* prog) {
  std::printf("usage: %s [--host-eval] [--epochs N] [--lr X]\n", prog);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--help") {
    print_usage(argv[0]);
    return 0;
  }
  const Options opt = Options::parse(std::vector<std::string>(argv + 1, argv + argc));
  Ridge model(dt_sim(1));
  Split train = make_split(model.device(), 0);
  model.fit(train, opt);
  Tensor tp = model.predict(train.x.get());
  std::printf("train mse %.5f\n", mse(tp.get(), train.y.get()));

  std::printf("3-fold cv mse %.5f\n", cross_validate(opt, model.device(), 3));
  const Residuals rs = summarize(tp.get(), train.y.get());
  std::printf("train residuals: mean %.4f, max %.4f\n", rs.mean, rs.max_abs);
  const dt_device eval_dev = opt.host_eval ? dt_cpu() : model.device();
  Split held = make_split(eval_dev, 3);
  Tensor hp = model.predict(held.x.get());
  if (hp) std::printf("held-out mse %.5f\n", mse(hp.get(), held.y.get()));
  else std::printf("evaluation failed: %s\n", dt_last_error());
  return 0;
}
