// corpus/cxx/references_clean.cpp — the same model, every parameter by reference, with the
// bias helper given the model's own device through `const dt_device &`; range-for over the
// layers by reference writes them in place. Clean.
#include <cstdio>

#include <dt/dt.h>

struct Layer {
  dt_tensor *w;
  dt_tensor *b;
};

struct Model {
  Layer layers[2];
  dt_device dev;
};

static const int64_t kShape[2] = {2, 2};

static void make_bias(dt_tensor *&out, const dt_device &d) { out = dt_zeros(d, DT_FLOAT, 2, kShape); }

static void init(Model &m, dt_device d) {
  m.dev = d;
  for (auto &l : m.layers) {
    l.w = dt_randn(d, 1, 2, kShape);
    make_bias(l.b, m.dev);
  }
}

static dt_tensor *forward(const Model &m, dt_tensor *x) {
  const auto &ls = m.layers;
  dt_tensor *h = x;
  for (const Layer &l : ls) {
    dt_tensor *z = dt_matmul(h, l.w);
    dt_tensor *a = dt_add(z, l.b);
    dt_free(z);
    if (h != x) dt_free(h);
    h = a;
  }
  return h;
}

int main() {
  Model m;
  init(m, dt_sim(1));
  dt_tensor *x = dt_ones(m.dev, DT_FLOAT, 2, kShape);
  dt_tensor *y = forward(m, x);
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
