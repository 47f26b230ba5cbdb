// provenance: blind round d12
// run-args: finetune 8
/* One binary, three modes (train / eval / finetune) chosen on the command line and
 * dispatched through a switch. Fine-tuning freezes the backbone by training only the head
 * on top of plain (untracked) copies of the backbone weights. Runs on sim:1. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

enum class Mode { Train, Eval, Finetune };

static Mode parse_mode(const char *s) {
  if (!s || !std::strcmp(s, "train")) return Mode::Train;
  if (!std::strcmp(s, "eval")) return Mode::Eval;
  if (!std::strcmp(s, "finetune")) return Mode::Finetune;
  throw std::invalid_argument(std::string("unknown mode ") + s);
}

struct Linear {
  dt_tensor *w = nullptr, *b = nullptr;
};

static dt_tensor *linear(const dt_tensor *x, const Linear &l) {
  dt_tensor *h = dt_matmul(x, l.w); // expect-warning: autodiff-expected
  dt_tensor *o = dt_add(h, l.b);
  dt_free(h);
  return o;
}

static Linear make_linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
  const int64_t ws[2] = {in, out}, bs[1] = {out};
  dt_tensor *r = dt_randn(dt_inner_device(ad), seed, 2, ws);
  dt_tensor *rs = dt_mul_scalar(r, 1.0f / std::sqrt((float)in));
  Linear l;
  l.w = dt_require_grad(dt_from_inner(ad, rs));
  l.b = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs));
  dt_free(r);
  dt_free(rs);
  return l;
}

static Linear plain_copy(const Linear &l) {
  Linear p;
  p.w = dt_inner(l.w);
  p.b = dt_inner(l.b);
  return p;
}

static void free_linear(Linear &l) {
  dt_free(l.w);
  dt_free(l.b);
  l.w = l.b = nullptr;
}

static void sgd(Linear &l, dt_device ad, float lr) {
  for (dt_tensor **p : {&l.w, &l.b}) {
    dt_tensor *g = dt_grad(*p);
    if (!g) continue;
    dt_tensor *cur = dt_inner(*p);
    dt_tensor *st = dt_mul_scalar(g, lr);
    dt_tensor *nx = dt_sub(cur, st);
    dt_free(*p);
    *p = dt_require_grad(dt_from_inner(ad, nx));
    dt_free(g);
    dt_free(cur);
    dt_free(st);
    dt_free(nx);
  }
}

struct Net {
  dt_device ad;
  Linear backbone, head;
  Net(dt_device base) : ad(dt_autodiff(base)) {
    backbone = make_linear(ad, 6, 10, 71);
    head = make_linear(ad, 10, 2, 72);
  }
  ~Net() {
    free_linear(backbone);
    free_linear(head);
  }
  dt_tensor *forward(const dt_tensor *x, const Linear &bb) const {
    dt_tensor *f = linear(x, bb);
    dt_tensor *fa = dt_tanh(f);
    dt_tensor *o = linear(fa, head);
    dt_free(f);
    dt_free(fa);
    return o;
  }
};

static void data(int step, std::vector<float> &x, std::vector<float> &y) {
  x.resize(8 * 6);
  y.resize(8 * 2);
  for (int i = 0; i < 8; i++) {
    float s = 0;
    for (int j = 0; j < 6; j++) {
      x[i * 6 + j] = std::cos(0.4f * (float)(i * 6 + j + step));
      s += x[i * 6 + j];
    }
    y[i * 2] = s;
    y[i * 2 + 1] = -s;
  }
}

int main(int argc, char **argv) {
  Mode mode;
  try {
    mode = parse_mode(argc > 1 ? argv[1] : nullptr);
  } catch (const std::invalid_argument &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  dt_device base = dt_sim(1);
  Net net(base);
  std::vector<float> x, y;
  const int64_t xs[2] = {8, 6}, ys[2] = {8, 2};

  switch (mode) {
    case Mode::Train:
    case Mode::Finetune: {
      Linear frozen;
      bool freeze = mode == Mode::Finetune;
      if (freeze) frozen = plain_copy(net.backbone);
      const Linear &bb = freeze ? frozen : net.backbone;
      for (int s = 0; s < steps; s++) {
        data(s, x, y);
        dt_tensor *xt = dt_from_floats(net.ad, x.data(), 2, xs);
        dt_tensor *yt = dt_from_floats(net.ad, y.data(), 2, ys);
        dt_tensor *out = net.forward(xt, bb);
        dt_tensor *loss = dt_mse_loss(out, yt);
        float lv = 0;
        if (loss) dt_read_floats(loss, &lv, 1);
        if (loss) dt_backward(loss);
        if (!freeze) sgd(net.backbone, net.ad, 0.05f);
        sgd(net.head, net.ad, 0.05f);
        if (s % 4 == 0) std::printf("%s step %d loss %.4f\n", freeze ? "finetune" : "train", s, lv);
        dt_free(xt);
        dt_free(yt);
        dt_free(out);
        dt_free(loss);
      }
      if (freeze) free_linear(frozen);
      break;
    }
    case Mode::Eval: {
      Linear bb = plain_copy(net.backbone), hd = plain_copy(net.head);
      data(0, x, y);
      dt_tensor *xt = dt_from_floats(base, x.data(), 2, xs);
      dt_tensor *f = linear(xt, bb);
      dt_tensor *fa = dt_tanh(f);
      dt_tensor *o = linear(fa, hd);
      dt_tensor *s = dt_sum(o);
      float v = 0;
      dt_read_floats(s, &v, 1);
      std::printf("eval output sum %.4f\n", v);
      for (dt_tensor *t : {xt, f, fa, o, s}) dt_free(t);
      free_linear(bb);
      free_linear(hd);
      break;
    }
  }
  return 0;
}
